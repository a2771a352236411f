#!/usr/bin/env node
// Builds better-sqlite3 for Electron into native/electron/better_sqlite3.node, leaving the Node
// build in node_modules untouched (tests and the web host keep using it). The station's main
// process loads this file through better-sqlite3's `nativeBinding` option.
// @napi-rs/keyring and @napi-rs/canvas need nothing: they are N-API modules with prebuilt binaries, so one binary serves Node and Electron.
// Needs the Electron headers (downloaded by node-gyp from Electron's header server) and a C++
// toolchain. `npm start` runs this when the file is missing or was built for another Electron.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const outDir = path.join(root, 'native', 'electron');
const stamp = path.join(outDir, 'electron-version.txt');

export function electronBindingIsCurrent() {
  return existsSync(path.join(outDir, 'better_sqlite3.node')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === electronVersion;
}

export function buildElectronBinding() {
  const src = path.dirname(require.resolve('better-sqlite3/package.json'));
  const work = mkdtempSync(path.join(os.tmpdir(), 'bsq3-electron-'));
  cpSync(src, work, { recursive: true, filter: (p) => !p.includes(`${path.sep}build${path.sep}`) });
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  console.log(`Building better-sqlite3 for Electron ${electronVersion} (once; takes a minute)...`);
  const r = spawnSync(
    process.execPath,
    [gyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
    { cwd: work, stdio: 'inherit', env: { ...process.env, npm_config_nodedir: '' } },
  );
  if (r.status !== 0) throw new Error('Building better-sqlite3 for Electron failed (see the output above).');
  mkdirSync(outDir, { recursive: true });
  cpSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), path.join(outDir, 'better_sqlite3.node'));
  writeFileSync(stamp, electronVersion + '\n');
  rmSync(work, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!electronBindingIsCurrent()) buildElectronBinding();
  else console.log(`better-sqlite3 for Electron ${electronVersion} is up to date.`);
}
