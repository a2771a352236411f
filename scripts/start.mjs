#!/usr/bin/env node
// `npm start`: the Electron app when its binary is installed; otherwise (as on machines where
// Electron's download is impossible, or with --web) the same station in the loopback web host,
// which prints the address to open. Run after scripts/build.mjs (npm start does both).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const args = process.argv.slice(2);
const wantWeb = args.includes('--web') || process.env.STATION_HOST === 'web';

function electronBinary() {
  try {
    const bin = require('electron'); // the package exports the binary's path, or throws
    return typeof bin === 'string' && existsSync(bin)
      ? { bin }
      : { why: `Electron's binary is not installed (nothing at ${bin})` };
  } catch {
    // Electron's own error says to delete node_modules/electron and reinstall: a dead end where the
    // binary was skipped on purpose (ELECTRON_SKIP_BINARY_DOWNLOAD) or cannot be downloaded, and
    // not needed, since the web host runs the same station. So it is not repeated.
    return {
      why: "Electron's binary is not installed (npm ci ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed)",
    };
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
  // The restart policy the Electron shell uses too (electron/host/restartPolicy.ts, built by scripts/build.mjs).
  const policy = await import(pathToFileURL(path.join(root, 'dist', 'node', 'restartPolicy.mjs')).href);
  superviseWebHost([path.join(root, 'dist', 'node', 'host.mjs'), ...args.filter((a) => a !== '--web')], reason, policy);
}

/**
 * The web host as the Electron shell runs its core: a host that stopped because it could not
 * write its data (exit code STORAGE_FAILED_EXIT_CODE) is started again when the restart policy
 * says (electron/host/restartPolicy.ts), on the same port with the same token, so the open page
 * reconnects by itself and says why; when the policy gives up, `npm start` ends with the reason.
 * Any other exit ends it with that exit's code, as before.
 */
function superviseWebHost(hostArgs, firstReason, { STORAGE_FAILED_EXIT_CODE, createRestartPolicy }) {
  const policy = createRestartPolicy();
  let child = null;
  let stopping = false;
  let listening = null; // { port, token } of the running host (its IPC message)
  let failure = null; // what the last storage failure was (its IPC message)
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      stopping = true;
      if (child) child.kill(sig);
      else process.exit(0); // between a stop and its restart
    });
  }
  const start = (extra, env) => {
    failure = null;
    child = spawn(process.execPath, [...hostArgs, ...extra], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env });
    child.on('message', (m) => {
      if (m?.t === 'listening') listening = { port: m.port, token: m.token };
      else if (m?.t === 'storageFailed') failure = m.failure;
    });
    child.on('exit', (code, signal) => {
      // Only a station that ran is started again (as in the Electron shell): a first start that
      // fails has said why, and trying it again would not change that.
      if (stopping || code !== STORAGE_FAILED_EXIT_CODE || !listening) process.exit(code ?? (signal ? 1 : 0));
      const why = failure ? `${failure.message} (${failure.code})` : 'a storage error';
      const decision = policy.stopped(Date.now());
      if (!decision.restart) {
        console.error(
          `The station stopped ${decision.stops} times within a minute because it could not write its data (${why}). Check the disk of its data folder; not starting it again.`,
        );
        process.exit(code);
      }
      const restart = `The station stopped because it could not write its data (${why}); it is started again.`;
      console.error(restart);
      const extra = [
        ...(listening ? ['--port', String(listening.port)] : []),
        '--reason',
        restart,
        ...(failure ? ['--restarted-after', JSON.stringify(failure)] : []),
      ];
      const env = { ...process.env, ...(listening ? { STATION_WEB_TOKEN: listening.token } : {}) };
      child = null;
      setTimeout(() => {
        if (!stopping) start(extra, env);
      }, decision.delayMs);
    });
  };
  start(['--reason', firstReason], process.env);
}
