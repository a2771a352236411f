/**
 * Hostile calls to the newer surfaces over the web host's real WebSocket, as any page holding the
 * launch's token could send them: the camera's photo upload, the proof-of-packing PDF and both CSV
 * exports (statistics, the parcels' trail). Malformed, oversized, mistyped and prototype-polluting
 * calls are each refused with a code (never an exception that ends the core), a message over the
 * socket's limit closes only that socket, nothing is stored for a refused photo, and afterwards
 * the station still scans and prints and another page still connects.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcSubprotocols } from '../../../electron/host/webHost';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

let hs: HostedStation;
let rpc: RpcSocket;

/** A raw page socket: sends what it is given, as it is, and collects the replies by id. */
function rawPage(): Promise<{
  send(text: string): void;
  reply(id: number): Promise<unknown>;
  closed: Promise<number>;
  close(): void;
}> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${hs.host.port}/rpc`, rpcSubprotocols(hs.host.token), {
      headers: { origin: hs.host.origin },
    });
    const replies = new Map<number, unknown>();
    const waiting = new Map<number, (m: unknown) => void>();
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString()) as { t: string; id?: number };
      if (m.t !== 'reply' || typeof m.id !== 'number') return;
      replies.set(m.id, m);
      waiting.get(m.id)?.(m);
    });
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        send: (text) => ws.send(text),
        reply: (id) =>
          new Promise((r, rej) => {
            if (replies.has(id)) return r(replies.get(id));
            const t = setTimeout(() => rej(new Error(`no reply to call ${id}`)), 20_000);
            waiting.set(id, (m) => (clearTimeout(t), r(m)));
          }),
        closed,
        close: () => ws.close(),
      }),
    );
  });
}

const photoFiles = () => {
  const dir = path.join(hs.dataDir, 'photos');
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.jpg')).length;
  } catch {
    return 0;
  }
};

describe.skipIf(!needs('keychain'))('hostile calls to the upload and export methods', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    hs = await startHostedStation({ printWaitMs: 5000 });
    rpc = await connectRpc(hs.host);
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
  });

  it('each malformed call is refused with a code, nothing is stored, and the core lives', async () => {
    const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1001' });
    await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId);
    const photosBefore = photoFiles();
    const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0]).toString('base64');
    const label = 'Ž'.repeat(10);
    const labels = {
      columns: Object.fromEntries(['day', 'operator', 'carrier', 'parcels'].map((c) => [c, label])),
      nobody: label,
      everyone: label,
      everyCarrier: label,
    };
    const calls: [string, unknown][] = [
      ['camera.savePhoto', { scanId, kind: 'scan', jpeg: `data:image/jpeg;base64,${jpegHead}`, width: 10, height: 10 }],
      [
        'camera.savePhoto',
        {
          scanId,
          kind: 'scan',
          jpeg: Buffer.from('\x89PNG\r\n\x1a\n' + 'x'.repeat(100)).toString('base64'),
          width: 10,
          height: 10,
        },
      ],
      ['camera.savePhoto', { scanId, kind: 'scan', jpeg: 'A'.repeat(2_100_000), width: 10, height: 10 }],
      ['camera.savePhoto', { scanId, kind: 'scan', jpeg: jpegHead, width: 1e9, height: -1 }],
      ['camera.savePhoto', { scanId, kind: '../../etc', jpeg: jpegHead, width: 10, height: 10 }],
      ['camera.savePhoto', { scanId: 1.5, kind: 'scan', jpeg: jpegHead, width: 10, height: 10 }],
      ['camera.savePhoto', { scanId: 99_999_999, kind: 'scan', jpeg: jpegHead + 'AAAA', width: 10, height: 10 }],
      [
        'camera.savePhoto',
        JSON.parse(
          `{"scanId":${scanId},"kind":"scan","jpeg":"${jpegHead}","width":10,"height":10,"__proto__":{"admin":true}}`,
        ),
      ],
      ['camera.savePhoto', null],
      ['camera.savePhoto', [scanId]],
      ['camera.proofPdf', { deliveryIds: Array.from({ length: 10_000 }, (_, i) => i + 1), language: 'cs' }],
      ['camera.proofPdf', { deliveryIds: [1], language: 'de' }],
      ['camera.photo', { id: '1 OR 1=1' }],
      ['statistics.csv', { range: { from: '2026-02-30', to: '2026-03-01' }, language: 'cs', labels }],
      ['statistics.csv', { range: { from: '2026-01-01', to: '2026-12-31' }, language: 'cs', labels }],
      [
        'statistics.csv',
        {
          range: { from: '2026-11-29', to: '2026-11-29' },
          language: 'cs',
          labels: { ...labels, nobody: 'x'.repeat(100_000) },
        },
      ],
      ['shipments.trailCsv', { from: 'yesterday', to: 'today', timeZone: 'Europe/Prague' }],
      [
        'shipments.trailCsv',
        { from: '2026-11-28T00:00:00+01:00', to: '2026-11-29T00:00:00+01:00', timeZone: '../../../etc/passwd' },
      ],
      ['shipments.trailCsv', { from: '2020-01-01T00:00:00Z', to: '2026-11-29T00:00:00Z', timeZone: 'UTC' }],
      ['constructor', {}],
      ['__proto__', {}],
      ['toString', {}],
    ];
    const page = await rawPage();
    let id = 1000;
    const codes: string[] = [];
    for (const [method, params] of calls) {
      const myId = ++id;
      page.send(JSON.stringify({ t: 'call', id: myId, method, params }));
      const r = (await page.reply(myId)) as { result: { ok: boolean; error?: { code: string } } };
      expect(r.result.ok, `${method} ${JSON.stringify(params).slice(0, 120)}`).toBe(false);
      codes.push(r.result.error!.code);
    }
    for (const c of codes)
      expect(['invalid_params', 'unknown_method', 'photo_scan_unknown', 'photo_not_jpeg']).toContain(c);
    // Not a call at all: no reply, and the socket goes on.
    page.send('{"t":"call","id":');
    page.send(JSON.stringify({ t: 'call', id: 'x', method: 'scan.counters', params: {} }));
    page.send(JSON.stringify({ t: 'call', id: ++id, method: 'scan.counters', params: {} }));
    expect(await page.reply(id)).toMatchObject({ result: { ok: true } });
    page.close();
    expect(photoFiles()).toBe(photosBefore);
  });

  it('a message over the socket limit closes that socket only; another page connects and the station prints', async () => {
    const page = await rawPage();
    page.send(
      JSON.stringify({ t: 'call', id: 1, method: 'camera.savePhoto', params: { jpeg: 'A'.repeat(6 * 1024 * 1024) } }),
    );
    expect(await page.closed).toBe(1009);
    const again = await connectRpc(hs.host);
    const { scanId } = await again.call('scan.submit', { code: 'ORD-1002' });
    const outcome = await again.waitFor('scan.outcome', (o) => o.scanId === scanId, 30_000);
    expect(['printed', 'queued']).toContain(outcome.kind);
    again.close();
  });
});
