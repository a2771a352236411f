/**
 * The real station in a child process: dist/node/host.mjs (the core, its embedded sandbox, its
 * virtual printers and the web host) on a data folder, for tests where the process itself is
 * what is tried (it must not die, it must leave its files private, its log must hold a line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WebHost } from '../../electron/host/webHost';
import { repoRoot } from './station';

const hostScript = path.join(repoRoot, 'dist', 'node', 'host.mjs');
export const hostBuilt = existsSync(hostScript);

export interface ChildHost {
  child: ChildProcess;
  host: Pick<WebHost, 'port' | 'token' | 'origin' | 'url'>;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts host.mjs on `o.dataDir` (default: a fresh folder); resolves once it printed its address.
 * `o.umask` runs it under that umask (through sh), `o.nodeArgs` go before the script.
 */
export function startChildHost(o: { nodeArgs?: string[]; dataDir?: string; umask?: string } = {}): Promise<ChildHost> {
  const dataDir = o.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'station-child-'));
  const args = [...(o.nodeArgs ?? []), hostScript, '--port', '0', '--data-dir', dataDir];
  const child = o.umask
    ? spawn('/bin/sh', ['-c', `umask ${o.umask} && exec "$0" "$@"`, process.execPath, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host.mjs printed no address within 45 s:\n${out}`)), 45_000);
    child.once('exit', (code) => reject(new Error(`host.mjs exited (${code}) before its address:\n${out}`)));
    const onData = () => {
      const m = /(http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        child,
        dataDir,
        host: { origin: m[1]!, port: Number(m[2]), token: m[3]!, url: m[0] },
        output: () => out,
        stop,
      });
    };
    child.stdout.on('data', onData);
  });
}
