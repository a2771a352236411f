#!/usr/bin/env node
// The house's layer rules as a check that fails the build (see docs/ARCHITECTURE.md):
// - only electron/main.ts and electron/preload.ts import 'electron';
// - shared/ imports neither Node built-ins nor anything outside shared/ (and no DOM: tsconfig);
// - renderer/ imports no Node built-ins and nothing from electron/ or sandbox/;
// - sandbox/ imports nothing from electron/, renderer/ or shared/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const files = (dir) =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path.join(root, rel)).isDirectory()) return files(rel);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [rel] : [];
  });
const importsOf = (file) =>
  [...readFileSync(path.join(root, file), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
const resolvesInto = (file, spec, dir) =>
  spec.startsWith('.') && path.resolve(root, path.dirname(file), spec).startsWith(path.join(root, dir) + path.sep);

const problems = [];
for (const dir of ['electron', 'shared', 'renderer', 'sandbox']) {
  for (const file of files(dir)) {
    for (const spec of importsOf(file)) {
      if (spec === 'electron' && !['electron/main.ts', 'electron/preload.ts'].includes(file))
        problems.push(`${file}: imports 'electron' (only electron/main.ts and electron/preload.ts may)`);
      if (dir === 'shared' && (nodeBuiltins.has(spec) || (spec.startsWith('.') && !resolvesInto(file, spec, 'shared'))))
        problems.push(`${file}: shared/ may import only shared/ and packages, not '${spec}'`);
      if (dir === 'renderer' && (nodeBuiltins.has(spec) || ['electron', 'sandbox'].some((d) => resolvesInto(file, spec, d))))
        problems.push(`${file}: renderer/ may not import '${spec}'`);
      if (dir === 'sandbox' && ['electron', 'renderer', 'shared'].some((d) => resolvesInto(file, spec, d)))
        problems.push(`${file}: sandbox/ may not import station code '${spec}'`);
    }
  }
}
if (problems.length) {
  console.error(`Layer rules broken:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('layers: ok');
