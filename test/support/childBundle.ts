/**
 * A test's child process bundled with esbuild from a TypeScript entry, for tests that kill a
 * process part-way (crash chains, power cuts, the print queue's drain, retention). The bundle is
 * written inside node_modules so it resolves the project's packages (better-sqlite3 is native and
 * stays external); `remove()` deletes it.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './station';

export async function bundleChild(
  entry: string,
  name: string,
  o: { external?: string[] } = {},
): Promise<{ file: string; remove(): void }> {
  const outDir = path.join(repoRoot, 'node_modules', '.cache', `${name}-${process.pid}`);
  const file = path.join(outDir, `${path.basename(entry, '.ts')}.mjs`);
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    external: ['better-sqlite3', ...(o.external ?? [])],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return { file, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
