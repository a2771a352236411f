/**
 * `npm run sandbox -- --port N --data FILE` as a user runs it: the built CLI
 * (dist/node/sandbox.mjs) prints its URL and the demo login and client; with --data a killed
 * sandbox started again on the same file still has the shipments.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items } from './shipments';

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-cli-'));
const running = new Set<ChildProcess>();

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--only', 'node'], { cwd: root, stdio: 'pipe' });
}, 180_000);
afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  proc: ChildProcess;
  url: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
}

/** Starts the CLI and reads what it prints until the demo client line has arrived. */
function startCli(args: string[]): Promise<Started> {
  const proc = spawn(process.execPath, ['dist/node/sandbox.mjs', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no start-up banner within 20 s:\n${out}\n${err}`)), 20_000);
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${out}\n${err}`)));
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const login = /demo login:\s+(\S+) \/ (\S+)/.exec(out);
      const client = /client_id=(\S+)\s+client_secret=(\S+)/.exec(out);
      if (url && login && client) {
        clearTimeout(timer);
        resolve({
          proc,
          url,
          username: login[1]!,
          password: login[2]!,
          clientId: client[1]!,
          clientSecret: client[2]!,
        });
      }
    });
  });
}

function stop(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

async function tokenOf(s: Started): Promise<string> {
  const res = await fetch(`${s.url}/_sandbox/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: s.clientId, username: s.username, scope: 'deliveries' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('CLI (npm run sandbox)', () => {
  it('CLI: --port 0 picks a free port and prints the URL, demo login and client; with --data a killed sandbox restarts with its shipments', async () => {
    const file = path.join(dir, 'cli.sqlite');
    const first = await startCli(['--port', '0', '--data', file]);
    expect(first.url).not.toMatch(/:0$/);
    expect([first.username, first.password, first.clientId, first.clientSecret]).toEqual([
      'demo',
      'demo-password',
      'demo-client',
      'demo-secret',
    ]);
    const index = await fetch(`${first.url}/api/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('etag')).toBeTruthy();

    const token = await tokenOf(first);
    const inserted = await fetch(`${first.url}/api/v3/deliveries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ deliveries: [{ ...items.PPR(), externalId: 'CLI-SURVIVES' }] }),
    });
    expect(inserted.status).toBe(201);
    const id = ((await inserted.json()) as { data: { deliveryId: number }[] }).data[0]!.deliveryId;
    // A hard kill, as a crash or a closed terminal would: committed data is in the file already.
    await stop(first.proc, 'SIGKILL');

    const second = await startCli(['--port', '0', '--data', file]);
    try {
      const found = await fetch(`${second.url}/api/v3/deliveries?deliveryId=${id}`, {
        headers: { authorization: `Bearer ${await tokenOf(second)}` },
      });
      expect(found.status).toBe(200);
      const body = (await found.json()) as { data: { deliveryId: number; externalId: string }[] };
      expect(body.data[0]).toMatchObject({ deliveryId: id, externalId: 'CLI-SURVIVES' });
    } finally {
      await stop(second.proc, 'SIGTERM');
    }
  }, 60_000);
});
