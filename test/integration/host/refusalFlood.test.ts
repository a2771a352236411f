/**
 * A flood of refused sockets and forged login callbacks does not rotate the real lines out of
 * the station log: the web host and an OAuth loopback listener of a login in
 * progress, on real sockets, logging to a real station log with a small cap (2 files of 20 KB,
 * as the 25 MB cap in miniature). Each kind of refusal is logged a few times and then summed up.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWithBrowser } from '../../../electron/auth/loopbackLogin';
import { startWebHost, type WebHost } from '../../../electron/host/webHost';
import { createLogger } from '../../../electron/base/log';
import type { RpcServer } from '../../../electron/rpc/rpcServer';
import { freePort } from '../../support/freePort';
import { rawExchange } from '../../support/hostileHttp';

const FLOOD = 1500;
let dir: string;
let host: WebHost;
let loginPort: number;
const abort = new AbortController();
let login: Promise<unknown>;
let log: ReturnType<typeof createLogger>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'station-flood-'));
  const staticDir = path.join(dir, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Label Station</title>');
  log = createLogger({ dataDir: path.join(dir, 'data'), maxBytes: 20_000, maxFiles: 2 });
  log.info('a real line before the flood', { marker: 'real-31' });
  // No RPC call can arrive: every socket of the flood is refused before it.
  host = await startWebHost({ rpc: {} as RpcServer, log, staticDir });
  loginPort = await freePort();
  login = loginWithBrowser({
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'flood',
    clientSecret: 'flood-secret',
    scopes: ['deliveries'],
    redirectPort: loginPort,
    openBrowser: () => undefined,
    log,
    signal: abort.signal,
  }).catch(() => undefined);
  // The listener is up once it answers.
  for (
    let i = 0;
    i < 50 && (await rawExchange(loginPort, 'GET /callback HTTP/1.1\r\nHost: x\r\n\r\n')).startsWith('(');
    i++
  )
    await new Promise((r) => setTimeout(r, 100));
});

afterAll(async () => {
  abort.abort();
  await login;
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `n` requests, 25 at a time. */
async function flood(n: number, send: (i: number) => Promise<unknown>) {
  for (let i = 0; i < n; i += 25) await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, k) => send(i + k)));
}

describe('a flood of refusals and the station log', () => {
  it(`${FLOOD} refused sockets and ${FLOOD} forged callbacks leave the real lines in the log`, async () => {
    const hostHeader = `127.0.0.1:${host.port}`;
    await flood(FLOOD, (i) =>
      rawExchange(
        host.port,
        `GET /rpc HTTP/1.1\r\nHost: ${hostHeader}\r\nOrigin: http://evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-N: ${i}\r\n\r\n`,
      ),
    );
    await flood(FLOOD, (i) =>
      rawExchange(
        loginPort,
        `GET /callback?state=forged-${i}&code=x HTTP/1.1\r\nHost: 127.0.0.1:${loginPort}\r\nConnection: close\r\n\r\n`,
      ),
    );
    log.info('a real line after the flood', { marker: 'real-31' });
    await log.flush();

    const logs = path.join(dir, 'data', 'logs');
    const lines = readdirSync(logs).flatMap((f) => readFileSync(path.join(logs, f), 'utf8').trim().split('\n'));
    expect(lines.filter((l) => l.includes('real-31'))).toHaveLength(2);
    const refused = lines.filter((l) => l.includes('web host refused a socket'));
    const forged = lines.filter((l) => l.includes("login callback without this login's state ignored"));
    // A few of each, not one per request (the summary line comes when the minute is over).
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(10);
    expect(forged.length).toBeGreaterThan(0);
    expect(forged.length).toBeLessThanOrEqual(10);
  });
});
