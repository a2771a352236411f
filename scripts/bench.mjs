#!/usr/bin/env node
// `npm run bench [name...]`: runs the benchmarks in bench/*.bench.ts. Each exports
// `run(): Promise<Record<string, number>>`; its figures are printed and written to
// bench/results/<name>.json (git-ignored) with the date and machine, and docs/BENCHMARKS.md is
// written anew from every benchmark's latest results (scripts/benchReport.mjs).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeBenchmarksPage } from './benchReport.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2);
const names = readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .filter((n) => wanted.length === 0 || wanted.includes(n));
const outDir = path.join(root, 'bench', 'results');
const tmpDir = path.join(root, 'bench', '.build');
mkdirSync(outDir, { recursive: true });
mkdirSync(tmpDir, { recursive: true });

// The BENCH_* settings of this run (smaller runs for a quick look), kept with its figures.
const knobs = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.includes('BENCH_')));

// Which invocation a record comes from: the page says which benchmarks one run measured together.
const runStartedAt = new Date().toISOString();

let failed = 0;
for (const name of names) {
  const outfile = path.join(tmpDir, `${name}.mjs`);
  await build({
    entryPoints: [path.join(root, 'bench', `${name}.bench.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    define: { STATION_VERSION: '"bench"' },
    // CommonJS names some bundled test helpers use (test/support/services.ts: __dirname), here
    // the bundle's own folder: the benchmarks never use the files they name.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
    },
    logLevel: 'warning',
  });
  process.stdout.write(`\n== ${name}\n`);
  try {
    const figures = await (await import(pathToFileURL(outfile).href)).run();
    for (const [k, v] of Object.entries(figures))
      console.log(`  ${k.padEnd(40)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
    const record = {
      name,
      at: new Date().toISOString(),
      run: runStartedAt,
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      knobs,
      figures,
    };
    writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
  } catch (err) {
    failed++;
    console.error(`  failed: ${err instanceof Error ? err.stack : err}`);
  }
}
rmSync(tmpDir, { recursive: true, force: true });
const page = writeBenchmarksPage(root);
console.log(
  `\nbench: ${names.length - failed} ran, ${failed} failed; results in bench/results/, ${path.relative(root, page)} written`,
);
process.exit(failed ? 1 : 0);
