/** The repository root, found from wherever the bundle runs (bench/.build, node_modules/.cache). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'label-station')
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no label-station package.json above ${from}`);
  }
}

export const repoRoot = findRoot(import.meta.dirname ?? process.cwd());
