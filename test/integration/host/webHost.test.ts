import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRpcSocket, startHostedStation, type HostedStation } from '../../support/station';

let hs: HostedStation;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'station-static-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Label Station</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  hs = await startHostedStation({ staticDir });
});
afterAll(() => hs.close());

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(`${hs.host.origin}${p}`, { headers, redirect: 'manual' });

describe('loopback web host admission', () => {
  it('listens on 127.0.0.1 only and prints a URL holding the token', () => {
    expect(hs.host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(hs.host.url).toBe(`${hs.host.origin}/?token=${hs.host.token}`);
    expect(hs.host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the renderer (public files, no token needed) with a strict CSP, and never sets a cookie', async () => {
    for (const p of ['/', `/?token=${hs.host.token}`]) {
      const res = await get(p);
      expect(res.status).toBe(200);
      // A cookie would go to every server on 127.0.0.1 whatever its port: the token must not be in one.
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.text()).toContain('Label Station');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: hs.host.port, path: '/', headers: { host: 'evil.example:80' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(421);
  });

  it('never serves files outside the renderer folder', async () => {
    expect((await get('/../../../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/assets/app.js')).status).toBe(200);
  });

  it('refuses a socket without the token, with a wrong one, or with it only in a cookie or the address', async () => {
    await expect(openRpcSocket(hs.host, { token: null })).rejects.toThrow(/403/);
    await expect(openRpcSocket(hs.host, { token: 'not-the-token' })).rejects.toThrow(/403/);
    await expect(
      openRpcSocket(hs.host, {
        token: null,
        headers: { origin: hs.host.origin, cookie: `station_token=${hs.host.token}` },
      }),
    ).rejects.toThrow(/403/);
    const WebSocket = (await import('ws')).default;
    const viaQuery = new WebSocket(`ws://127.0.0.1:${hs.host.port}/rpc?token=${hs.host.token}`, ['station-rpc'], {
      headers: { origin: hs.host.origin },
    });
    const status = await new Promise<number>((resolve) => {
      viaQuery.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      viaQuery.on('open', () => resolve(101));
      viaQuery.on('error', () => undefined);
    });
    viaQuery.terminate();
    expect(status).toBe(403);
  });

  it('refuses a socket from another origin even with the token', async () => {
    await expect(openRpcSocket(hs.host, { headers: { origin: 'http://evil.example' } })).rejects.toThrow(/403/);
    await expect(openRpcSocket(hs.host, { headers: {} })).rejects.toThrow(/403/);
  });

  it('answers with the plain subprotocol, never echoing the token', async () => {
    const s = await openRpcSocket(hs.host);
    expect(s.ws.protocol).toBe('station-rpc');
    s.ws.close();
  });
});

describe('RPC over the WebSocket bridge', () => {
  it('reads the station status through the contract', async () => {
    const s = await openRpcSocket(hs.host);
    const reply = await s.call('station.status', {});
    s.ws.close();
    expect(reply.t).toBe('reply');
    if (reply.t !== 'reply' || !reply.result.ok) throw new Error('expected an ok reply');
    const status = reply.result.value as {
      version: string;
      dataDir: string;
      service: { environment: string; reachable: boolean };
    };
    expect(status.version).toBe('0.0.0-test');
    expect(status.dataDir).toBe(hs.dataDir);
    expect(status.service).toMatchObject({ environment: 'sandbox', reachable: true });
  });

  it('pushes the clock event to a connected client', async () => {
    const s = await openRpcSocket(hs.host);
    const msg = await s.next();
    s.ws.close();
    expect(msg).toMatchObject({ t: 'event', name: 'station.tick' });
  });

  it('answers malformed calls with clear errors and keeps serving', async () => {
    const s = await openRpcSocket(hs.host);
    s.ws.send('this is not json');
    const notJson = await s.nextReply();
    const unknown = await s.call('shell.exec', { cmd: 'rm -rf /' });
    const badParams = await s.call('station.status', { verbose: true });
    s.ws.send(JSON.stringify({ t: 'call', method: 'station.status', params: {} }));
    const noId = await s.nextReply();
    const stillOk = await s.call('station.status', {});
    s.ws.close();
    expect(notJson).toMatchObject({ t: 'reply', result: { ok: false, error: { code: 'invalid_message' } } });
    expect(unknown).toMatchObject({
      result: { ok: false, error: { code: 'unknown_method', message: 'Unknown method: shell.exec' } },
    });
    expect(badParams).toMatchObject({ result: { ok: false, error: { code: 'invalid_params' } } });
    expect(noId).toMatchObject({
      result: { ok: false, error: { code: 'invalid_message', message: 'The call needs an integer id.' } },
    });
    expect(stillOk).toMatchObject({ result: { ok: true } });
  });
});

describe('a renderer stepping outside the contract (refused by the core)', () => {
  const refusal = (reply: unknown) =>
    (reply as { result: { ok: boolean; error?: { code: string; message: string } } }).result;

  it('refuses methods the contract does not have, and workflow calls with bad params, and nothing happens', async () => {
    const s = await openRpcSocket(hs.host);
    try {
      // Plausible names a compromised page could try; prototype names must not reach a handler either.
      for (const method of [
        'scan.close',
        'printing.sendRaw',
        'accounts.exportSecrets',
        'shipments.delete',
        'constructor',
        '__proto__',
        'toString',
      ]) {
        expect(refusal(await s.call(method, {}))).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
      }
      const bad: [string, unknown][] = [
        ['scan.submit', { code: 'X'.repeat(201) }],
        ['scan.submit', { code: 'ORD-1001', printerId: 'virtual-zpl' }],
        ['scan.submit', { code: 1001 }],
        ['scan.submit', 'ORD-1001'],
        ['scan.submit', ['ORD-1001']],
        ['scan.reprint', { deliveryId: -1001 }],
        ['batch.collect', { code: '   ' }],
        ['printing.queue.reprint', { jobId: '1; DROP TABLE print_jobs' }],
        ['printing.printers.received', { printerId: 'virtual-zpl', path: '/etc/passwd' }],
      ];
      for (const [method, params] of bad) {
        const r = refusal(await s.call(method, params));
        expect(r, `${method} ${JSON.stringify(params)}`).toMatchObject({
          ok: false,
          error: { code: 'invalid_params' },
        });
        // The message names the method, so a developer sees at once which call was wrong.
        expect(r.error!.message).toContain(`Invalid parameters for ${method}`);
      }
      const tooLong = refusal(await s.call('scan.submit', { code: 'X'.repeat(201) }));
      expect(tooLong.error!.message).toContain('A code is at most 200 characters.');

      // Nothing was scanned, queued or printed by any of it.
      const counters = refusal(await s.call('scan.counters', {})) as unknown as {
        ok: true;
        value: { scanned: number };
      };
      expect(counters.value.scanned).toBe(0);
      const queue = refusal(await s.call('printing.queue.list', {})) as unknown as { ok: true; value: unknown[] };
      expect(queue.value).toEqual([]);
      const printed = refusal(await s.call('printing.printers.received', { printerId: 'virtual-zpl' })) as unknown as {
        ok: true;
        value: unknown[];
      };
      expect(printed.value).toEqual([]);
      // ...and the same socket still serves a call inside the contract.
      expect(refusal(await s.call('scan.pending', {}))).toMatchObject({ ok: true, value: { scans: [] } });
    } finally {
      s.ws.close();
    }
  });
});
