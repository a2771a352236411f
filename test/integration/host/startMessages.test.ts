/**
 * `npm start`'s words on the way to the web host (a first run without dead ends): with
 * --web it says it starts the web host, not "instead"; when Electron's binary is missing it says
 * why and never repeats Electron's own advice to delete node_modules/electron (a dead end on a
 * machine where the binary was skipped on purpose). Runs scripts/start.mjs on the built host.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/station';

const hostBuilt = existsSync(path.join(repoRoot, 'dist', 'node', 'host.mjs'));

function electronInstalled(): boolean {
  try {
    const bin = createRequire(path.join(repoRoot, 'package.json'))('electron') as unknown;
    return typeof bin === 'string' && existsSync(bin);
  } catch {
    return false;
  }
}

/** What start.mjs prints until the station's address, then stops it. */
function startOutput(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-msg-'));
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'start.mjs'), ...args, '--port', '0', '--data-dir', dataDir],
      {
        env: { ...process.env, STATION_HOST: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`no address within 60 s:\n${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(out)) {
        clearTimeout(timer);
        child.once('exit', () => resolve(out));
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

describe.skipIf(!hostBuilt && !process.env.CI)('start-up messages of npm start', { timeout: 90_000 }, () => {
  it('--web starts the web host without saying "instead"', async () => {
    const out = await startOutput(['--web']);
    expect(out).toContain('Starting the station in the loopback web host (--web).');
    expect(out).not.toMatch(/instead/i);
    expect(out).not.toContain('node_modules/electron');
  });

  it.skipIf(electronInstalled())(
    "a missing Electron binary is named, without Electron's advice to delete node_modules/electron",
    async () => {
      const out = await startOutput([]);
      expect(out).toContain("Electron's binary is not installed");
      expect(out).toContain('loopback web host instead');
      expect(out).not.toMatch(/delete node_modules\/electron|try installing again/i);
    },
  );
});
