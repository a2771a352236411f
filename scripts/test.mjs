#!/usr/bin/env node
// `npm test`: builds, then runs every suite (unit, integration, e2e, sandbox) with vitest.
// On Linux without a session bus it runs the suites under a private dbus session with an
// unlocked gnome-keyring (scripts/with-keyring.sh), so the keychain tests use a real Secret
// Service without touching the user's own keyring. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (run(process.execPath, [path.join(root, 'scripts', 'build.mjs')]) !== 0) process.exit(1);

const vitest = [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)];
const wrap =
  process.platform === 'linux' &&
  !process.env.DBUS_SESSION_BUS_ADDRESS &&
  has('dbus-run-session') &&
  has('gnome-keyring-daemon');
process.exit(
  wrap
    ? run(path.join(root, 'scripts', 'with-keyring.sh'), [process.execPath, ...vitest])
    : run(process.execPath, vitest),
);
