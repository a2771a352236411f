// Lists the longest functions under a folder, to find the ones worth splitting.
// Own lines leave out the bodies of nested functions, so a short factory that
// wires many small closures does not count their lines as its own.
// Usage: node scripts/longestFunctions.mjs [folder=electron] [count=10]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const [folder = 'electron', count = '10'] = process.argv.slice(2);

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

function measure(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const found = [];
  const visit = (node, outer) => {
    let inner = outer;
    if (ts.isFunctionLike(node) && node.body) {
      const total = lineOf(node.body.getEnd()) - lineOf(node.body.getStart()) + 1;
      const entry = { name: `${file}:${lineOf(node.getStart()) + 1} ${functionName(node)}`, total, own: total };
      outer?.nested.push(entry);
      found.push(entry);
      inner = Object.assign(entry, { nested: [] });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, undefined);
  for (const entry of found) {
    for (const child of entry.nested) entry.own -= child.total - 1; // the call site line stays
  }
  return found;
}

const all = sourceFiles(folder).flatMap(measure);
for (const key of ['own', 'total']) {
  console.log(`\nLongest by ${key} lines:`);
  for (const entry of [...all].sort((a, b) => b[key] - a[key]).slice(0, Number(count))) {
    console.log(`${String(entry[key]).padStart(5)}  ${entry.name}`);
  }
}
