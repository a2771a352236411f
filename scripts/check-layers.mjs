#!/usr/bin/env node
// The house's layer rules (docs/ARCHITECTURE.md, "Layers") as a check that fails the build.
// The rules live in .dependency-cruiser.cjs and are checked by dependency-cruiser, which reads
// every import form TypeScript has (static, side-effect `import 'x'`, type-only, `export … from`,
// `import()` and `require()` with a literal). What no tool can resolve is an import whose path is
// computed (`import(\`node:${name}\`)`), so those are refused here in the layered folders.
//
// Usage: node scripts/check-layers.mjs [folder]   (folder: a tree holding electron/ shared/
// renderer/ sandbox/; default the repository — the test runs it on test/fixtures/layers/*).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = path.resolve(process.argv[2] ?? root);
const layers = ['electron', 'shared', 'renderer', 'sandbox'].filter((d) => existsSync(path.join(base, d)));

const sources = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) ? [full] : [];
  });

/** `import(x)` / `require(x)` whose argument is not a plain string: nothing can check where it goes. */
function computedImports(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const arg = node.arguments[0];
      if ((isImport || isRequire) && arg && !ts.isStringLiteral(arg) && !ts.isNoSubstitutionTemplateLiteral(arg)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
        found.push(
          `${path.relative(base, file)}:${line + 1}: computed ${isImport ? 'import()' : 'require()'} — the layer rules cannot see where it goes (layers-no-computed-import)`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

// Tests load modules by computed path on purpose (sandbox/test/messages.test.ts walks its folder);
// they are not shipped, so only shipped code is held to this.
const shipped = (file) => !/(^|\/)test\/|\.test\.tsx?$/.test(path.relative(base, file));
const problems = layers
  .flatMap((d) => sources(path.join(base, d)))
  .filter(shipped)
  .flatMap(computedImports);

let cruised = '';
try {
  cruised = execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      path.join(root, '.dependency-cruiser.cjs'),
      '--output-type',
      'err',
      ...layers,
    ],
    { cwd: base, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
} catch (err) {
  problems.push(String(err.stdout || err.stderr || err.message).trim());
}

if (problems.length) {
  console.error(`Layer rules broken:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`layers: ok (${cruised.trim().split('\n').pop()?.replace(/^\W+/, '')})`);
