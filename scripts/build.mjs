#!/usr/bin/env node
// Builds everything the station runs from: the Node bundles (web host, sandbox), the Electron
// main and preload bundles, and the renderer (Vite). `--only node` skips Electron and renderer;
// `--only renderer [--renderer-out DIR]` builds just the renderer (to DIR instead of dist/renderer).
import { build as esbuild } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const define = { STATION_VERSION: JSON.stringify(pkg.version) };
const esmBanner = { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" };

const node = (entry, outfile) =>
  esbuild({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, outfile),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    define,
    banner: esmBanner,
    logLevel: 'warning',
  });

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const rendererOut = arg('--renderer-out');
const viteRenderer = async () => {
  const { build: viteBuild } = await import('vite');
  return viteBuild({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    ...(rendererOut ? { build: { outDir: path.resolve(rendererOut), emptyOutDir: true } } : {}),
  });
};

const jobs =
  only === 'renderer'
    ? []
    : [
        node('electron/host/hostCli.ts', 'dist/node/host.mjs'),
        node('sandbox/cli.ts', 'dist/node/sandbox.mjs'),
        // scripts/start.mjs supervises the web host with the core's own restart policy.
        node('electron/host/restartPolicy.ts', 'dist/node/restartPolicy.mjs'),
      ];

if (only === 'renderer') jobs.push(viteRenderer());
else if (only !== 'node') {
  const electronBundle = (entry, outfile, external, moduleUrl = false) =>
    esbuild({
      entryPoints: [path.join(root, entry)],
      outfile: path.join(root, outfile),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external,
      sourcemap: true,
      // import.meta.url (the sandbox finds its label fonts from it) means this file in a CommonJS bundle.
      ...(moduleUrl
        ? {
            define: { ...define, 'import.meta.url': '__stationModuleUrl' },
            banner: { js: "const __stationModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
          }
        : { define }),
      logLevel: 'warning',
    });
  // The preload runs sandboxed: it may require only 'electron', so everything else is bundled in.
  jobs.push(electronBundle('electron/shell/preload.ts', 'dist/electron/preload.cjs', ['electron']));
  jobs.push(
    electronBundle(
      'electron/shell/main.ts',
      'dist/electron/main.cjs',
      ['electron', ...Object.keys(pkg.dependencies)],
      true,
    ),
  );
  // The station core, forked by main.cjs as Electron's utility process (electron/host/coreEntry.ts).
  jobs.push(
    electronBundle(
      'electron/host/coreEntry.ts',
      'dist/electron/core.cjs',
      ['electron', ...Object.keys(pkg.dependencies)],
      true,
    ),
  );
  jobs.push(viteRenderer());
}

await Promise.all(jobs);

// The preview renderer's worker (electron/printing/renderWorker.cjs) is a file of its own beside
// each core bundle, never bundled: a worker thread starts from a file (unpacked from the asar
// archive in the packaged app, electron-builder.yml) and loads its packages from node_modules.
if (only !== 'renderer') {
  for (const dir of only === 'node' ? ['dist/node'] : ['dist/node', 'dist/electron']) {
    mkdirSync(path.join(root, dir), { recursive: true });
    copyFileSync(path.join(root, 'electron/printing/renderWorker.cjs'), path.join(root, dir, 'renderWorker.cjs'));
    // The same for the WAL checkpointer's worker (electron/store/checkpointer.ts).
    copyFileSync(path.join(root, 'electron/store/checkpointWorker.cjs'), path.join(root, dir, 'checkpointWorker.cjs'));
  }
}
