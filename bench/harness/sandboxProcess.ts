/**
 * The sandbox in its own process, as the real service is: `dist/node/sandbox.mjs`
 * (sandbox/cli.ts, built by `npm run bench`), in memory, test controls open. `latency(ms)` adds
 * that much to every request the station makes (sandbox test control POST /_sandbox/faults,
 * latencyMs per path; sandbox/README.md "Test controls"). The /_sandbox/ controls themselves get none.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../../sandbox/index';
import { repoRoot } from './paths';

/** Every service path the station calls (electron/api, electron/auth): a fault matches one path exactly. */
export const SERVICE_PATHS = [
  '/api/',
  '/api/v3/deliveries',
  '/api/v3/deliveries/zpl',
  '/api/v3/deliveries/tickets',
  '/api/v3/transports',
  '/api/v2/collection-places',
  '/api/v2/collection-protocols',
  '/connect/token/',
];

export interface SandboxProcess extends Sandbox {
  pid: number;
  /** Added latency on every service request from now on (0 clears it). */
  latency(ms: number): Promise<void>;
}

async function control(url: string, method: string, p: string, body?: unknown): Promise<void> {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${p}: HTTP ${res.status} ${await res.text()}`);
}

/** `data`: a database file the sandbox keeps (`--data`), instead of memory. */
export async function startSandboxProcess(
  seed: 'demo' | 'none' = 'demo',
  o: { data?: string } = {},
): Promise<SandboxProcess> {
  const entry = path.join(repoRoot, 'dist', 'node', 'sandbox.mjs');
  if (!existsSync(entry))
    throw new Error(`no ${entry}: run \`node scripts/build.mjs --only node\` (npm run bench does)`);
  const proc: ChildProcess = spawn(
    process.execPath,
    [entry, '--port', '0', '--seed', seed, ...(o.data ? ['--data', o.data] : [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start in 30 s: ${err}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/scope:.*\n/.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    proc.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${err}`)));
  });
  const m = (re: RegExp): string => {
    const hit = re.exec(banner);
    if (!hit) throw new Error(`sandbox banner without ${re}: ${banner}`);
    return hit[1]!.trim();
  };
  const url = m(/Sandbox running at (\S+)/);
  const demo = {
    username: m(/demo login:\s+(\S+) \//),
    password: m(/demo login:\s+\S+ \/ (\S+)/),
    companyName: m(/\(company (.*)\)\s*\n/),
    clientId: m(/client_id=(\S+)/),
    clientSecret: m(/client_secret=(\S+)/),
    redirectUri: m(/redirect_uri:\s+(\S+)/),
    scope: m(/scope:\s+(.*)\n/),
  };
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  // A benchmark that dies leaves no sandbox behind.
  const orphan = () => proc.kill('SIGKILL');
  process.once('exit', orphan);
  return {
    url,
    port: Number(new URL(url).port),
    demo,
    pid: proc.pid!,
    async latency(ms) {
      await control(url, 'DELETE', '/_sandbox/faults');
      if (ms > 0)
        for (const p of SERVICE_PATHS) await control(url, 'POST', '/_sandbox/faults', { path: p, latencyMs: ms });
    },
    async close() {
      process.off('exit', orphan);
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
