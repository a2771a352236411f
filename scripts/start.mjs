#!/usr/bin/env node
// `npm start`: the Electron app when its binary is installed; otherwise (as on machines where
// Electron's download is impossible, or with --web) the same station in the loopback web host,
// which prints the address to open. Run after scripts/build.mjs (npm start does both).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const args = process.argv.slice(2);
const wantWeb = args.includes('--web') || process.env.STATION_HOST === 'web';

function electronBinary() {
  try {
    const bin = require('electron'); // the package exports the binary's path, or throws
    return typeof bin === 'string' && existsSync(bin) ? { bin } : { why: `Electron's binary is not installed (nothing at ${bin})` };
  } catch {
    // Electron's own error says to delete node_modules/electron and reinstall: a dead end where the
    // binary was skipped on purpose (ELECTRON_SKIP_BINARY_DOWNLOAD) or cannot be downloaded, and
    // not needed, since the web host runs the same station. So it is not repeated.
    return { why: "Electron's binary is not installed (npm ci ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed)" };
  }
}

const forward = (child) => {
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
};

const electron = wantWeb ? { web: true } : electronBinary();
if (electron.bin) {
  const { electronBindingIsCurrent, buildElectronBinding } = await import('./native-electron.mjs');
  if (!electronBindingIsCurrent()) buildElectronBinding();
  forward(spawn(electron.bin, [root, ...args], { stdio: 'inherit' }));
} else {
  // "instead" only when Electron was wanted and is missing; --web asked for the web host itself.
  const reason = electron.web
    ? 'Starting the station in the loopback web host (--web).'
    : `${electron.why}, so the same station starts in the loopback web host instead.`;
  const hostArgs = [path.join(root, 'dist', 'node', 'host.mjs'), '--reason', reason, ...args.filter((a) => a !== '--web')];
  forward(spawn(process.execPath, hostArgs, { stdio: 'inherit' }));
}
