/**
 * Shipment sync against the real sandbox over HTTP, through the real API client: cursor paging
 * (spec "GET /api/v3/deliveries": at most 100, `deliveryId>`), ETag 304 reuse, changes made
 * elsewhere, and a dropped connection or a malformed page leaving the cache consistent and the
 * next run resuming where the last good page ended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentsRepo, type ShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { createSyncStateRepo } from '../../../electron/store/syncStateRepo';
import { syncShipments, type SyncDeps } from '../../../electron/sync/syncShipments';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import type { SyncProgress } from '../../../shared/contract/shipments';
import { closeShipments, insertShipments, sandboxToken, tokenClient } from '../../support/sandboxShipments';
import { startFlakyProxy, type FlakyProxy } from '../../support/flakyProxy';
import { shipmentRecord } from '../../support/shipmentRecords';

let sb: Sandbox;
let token: string;
let proxy: FlakyProxy;
let dir: string;
let db: Db;
let shipments: ShipmentsRepo;
let ids: number[];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'none' });
  token = await sandboxToken(sb);
  ids = await insertShipments(sb, token, 250, 'SYNC-');
  proxy = await startFlakyProxy(sb.url);
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-sync-'));
  db = openDatabase(path.join(dir, 'station.db'));
  shipments = createShipmentsRepo(db);
  proxy.seen.length = 0;
  proxy.decide = () => 'pass';
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function deps(progress: SyncProgress[] = []): SyncDeps {
  const client = tokenClient(proxy.url, token);
  return {
    accountId: 'demo',
    source: shipmentSourceFromClient(client),
    shipments,
    syncState: createSyncStateRepo(db),
    now: () => new Date(),
    onProgress: (p) => progress.push(p),
  };
}

const searches = () => proxy.seen.filter((r) => r.startsWith('GET /api/v3/deliveries'));

describe('shipment sync against the sandbox', () => {
  it('fills an empty cache page by page, at most 100 per request, with exact decimals', async () => {
    const progress: SyncProgress[] = [];
    const result = await syncShipments(deps(progress));
    expect(result).toMatchObject({ phase: 'done', pages: 3, requests: 3, stored: 250, error: null, cursor: ids[249] });
    expect(shipments.count('demo')).toBe(250);
    expect(searches()).toHaveLength(3);
    for (const r of searches()) expect(decodeURIComponent(r)).toMatch(/deliveryId=>\d+/);
    expect(progress.map((p) => p.phase)).toEqual(['running', 'running', 'running', 'done']);
    expect(progress.map((p) => p.stored)).toEqual([0, 100, 200, 250]);
    const s = shipments.get('demo', ids[7]!)!;
    expect(s).toMatchObject({
      externalId: 'SYNC-8',
      state: 0,
      value: '107.5',
      valueCurrency: 'CZK',
      agent: 'NP',
      collectionPlace: 'WH-PRAHA',
    });
    expect(s.packages[0]!.weight).toBe('2.3');
  });

  it('costs a 304 per unchanged page on the next run, and stores nothing', async () => {
    await syncShipments(deps());
    proxy.seen.length = 0;
    const again = await syncShipments(deps());
    expect(again).toMatchObject({ phase: 'done', requests: 3, notModified: 3, stored: 0 });
    expect(shipments.get('demo', ids[0]!)!.version).toBe(1);
  });

  it('picks up shipments closed elsewhere and new ones, bumping only their versions', async () => {
    await syncShipments(deps());
    const closed = await closeShipments(sb, token, [ids[10]!, ids[150]!]);
    const added = await insertShipments(sb, token, 5, 'LATE-');
    const run = await syncShipments(deps());
    expect(run).toMatchObject({ phase: 'done', stored: 7 });
    const s = shipments.get('demo', ids[150]!)!;
    expect(s).toMatchObject({ state: 1, deliveryNumber: closed[1].deliveryNumber, version: 2 });
    expect(s.packages[0]!.barcode).toBeTruthy();
    expect(shipments.findByPackageBarcode('demo', s.packages[0]!.barcode!).map((x) => x.deliveryId)).toEqual([
      ids[150],
    ]);
    expect(shipments.get('demo', added[4]!)).toMatchObject({ externalId: 'LATE-5' });
    expect(shipments.get('demo', ids[11]!)!.version).toBe(1);
  });

  it('a dropped connection mid-walk keeps the pages already stored and the next run resumes after them', async () => {
    proxy.decide = (n) => (n === 2 ? 'reset' : 'pass');
    const broken = await syncShipments(deps());
    expect(broken).toMatchObject({ phase: 'failed', pages: 1, stored: 100, error: { code: 'service_network' } });
    expect(shipments.count('demo')).toBe(100);
    expect(shipments.maxDeliveryId('demo')).toBe(ids[99]);

    proxy.decide = () => 'pass';
    proxy.seen.length = 0;
    const resumed = await syncShipments(deps());
    expect(resumed).toMatchObject({ phase: 'done', requests: 2 });
    expect(decodeURIComponent(searches()[0]!)).toContain(`deliveryId=>${ids[99]}`);
    // Everything after the first page (other tests add shipments to the same sandbox).
    expect(shipments.count('demo')).toBeGreaterThanOrEqual(250);
    expect(resumed.stored).toBe(shipments.count('demo') - 100);
  });

  it('a malformed page is refused whole: nothing of it is stored and the error says what was wrong', async () => {
    await syncShipments(deps());
    const total = shipments.count('demo');
    await closeShipments(sb, token, [ids[120]!]);
    const before = shipments.get('demo', ids[120]!)!;
    proxy.seen.length = 0;
    // The second page comes back with a record whose deliveryId is not a number.
    proxy.decide = (n) =>
      n === 2
        ? {
            status: 200,
            body: JSON.stringify({
              code: 200,
              status: 'success',
              message: 'ok',
              data: [{ deliveryId: 'abc', deliveryState: 1 }],
            }),
          }
        : 'pass';
    const run = await syncShipments(deps());
    expect(run.phase).toBe('failed');
    expect(run.error?.code).toMatch(/malformed/);
    expect(run.error?.message).toMatch(/deliveryId/);
    expect(shipments.get('demo', ids[120]!)).toEqual(before);
    expect(shipments.count('demo')).toBe(total);

    // A body that is not JSON at all.
    proxy.decide = (n) =>
      n === 1 ? { status: 200, body: '<html>proxy error</html>', contentType: 'text/html' } : 'pass';
    proxy.seen.length = 0;
    const garbage = await syncShipments(deps());
    expect(garbage.phase).toBe('failed');
    expect(shipments.get('demo', ids[120]!)).toEqual(before);

    proxy.decide = () => 'pass';
    const healed = await syncShipments(deps());
    expect(healed.phase).toBe('done');
    expect(shipments.get('demo', ids[120]!)!.state).toBe(1);
  });

  it('walks only recent shipments again; older open ones are re-read by id, 100 per request', async () => {
    // The station's clock a month ahead: every sandbox shipment is now "older than 14 days".
    let now = new Date(Date.now() + 30 * 86_400_000);
    const d = { ...deps(), now: () => now };
    await syncShipments(d);
    const total = shipments.count('demo');
    await closeShipments(sb, token, [ids[200]!]);
    now = new Date(now.getTime() + 20 * 60_000);
    proxy.seen.length = 0;
    const run = await syncShipments(d);
    const open = shipments.query('demo', { states: [0, 1], limit: 1 }).total;
    // One walk request after the newest cached id, then the open ones by id.
    expect(run).toMatchObject({ phase: 'done', stored: 1, requests: 1 + Math.ceil(open / 100) });
    expect(decodeURIComponent(searches()[0]!)).toContain(`deliveryId=>${shipments.maxDeliveryId('demo')}`);
    expect(
      searches()
        .slice(1)
        .every((r) => /deliveryId=\d+(,\d+)*($|&)/.test(decodeURIComponent(r))),
    ).toBe(true);
    expect(shipments.get('demo', ids[200]!)!.state).toBe(1);
    expect(shipments.count('demo')).toBe(total);
    // Just re-read: the next run leaves them alone.
    const quiet = await syncShipments(d);
    expect(quiet.requests).toBe(1);
  });

  it('stores a page in slices with the event loop running between them: scans read and write the cache meanwhile, and every shipment ends cached and findable', async () => {
    const [closed] = await closeShipments(sb, token, [ids[210]!]);
    const barcode = closed.packages[0].barcode as string;
    // One shipment per turn of the event loop, so the reader below surely runs inside a page.
    const d = { ...deps(), sliceMs: 0 };
    const counts: number[] = [];
    const found: number[] = [];
    let syncing = true;
    let written = 0;
    // What a desk does meanwhile: scan lookups in the cache, and a close storing its answer (here under another account).
    const desk = (async () => {
      while (syncing) {
        counts.push(shipments.count('demo'));
        found.push(...shipments.findByExternalId('demo', 'SYNC-7').map((s) => s.deliveryId));
        shipments.upsertMany('jiná-firma', [shipmentRecord(++written, { ticketNote: 'Křehké' })], new Date());
        await new Promise((r) => setImmediate(r));
      }
    })();
    const run = await syncShipments(d);
    syncing = false;
    await desk;
    expect(run).toMatchObject({ phase: 'done', error: null });
    // The desk ran while a page was half stored, and found a shipment as soon as its slice was in.
    expect(counts.some((n) => n > 0 && n < 250 && n % 100 !== 0)).toBe(true);
    expect(found).toContain(ids[6]);
    // Everything cached and findable by each key and by text; the desk's own writes all kept apart.
    // (The service holds the 250 made above and the few an earlier test added.)
    expect(shipments.count('demo')).toBe(run.stored);
    expect(run.stored).toBeGreaterThanOrEqual(250);
    for (const [k, id] of ids.entries())
      expect(shipments.findByExternalId('demo', `SYNC-${k + 1}`).map((s) => s.deliveryId)).toEqual([id]);
    expect(shipments.query('demo', { text: 'sync-137' }).items.map((s) => s.deliveryId)).toEqual([ids[136]]);
    expect(shipments.findByPackageBarcode('demo', barcode).map((s) => s.deliveryId)).toEqual([ids[210]]);
    expect(shipments.count('jiná-firma')).toBe(written);
    expect(shipments.query('jiná-firma', { text: 'křehké' }).total).toBe(written);
    // The walk finished: the next run costs a 304 per page.
    const again = await syncShipments(deps());
    expect(again).toMatchObject({ phase: 'done', stored: 0, notModified: Math.ceil(run.stored / 100) });
  });

  it('an interruption between the slices of a page leaves its cursor before it: the next run fetches that page again and completes', async () => {
    const d = deps();
    let slices = 0;
    // Stands in for a crash (named so): the third slice of the walk throws where the process would have died.
    const crashingRepo: ShipmentsRepo = {
      ...shipments,
      upsertUntil: (...args) => {
        if (++slices === 3) throw new Error('simulated crash between slices');
        return shipments.upsertUntil(...args);
      },
    };
    const broken = await syncShipments({ ...d, shipments: crashingRepo, sliceMs: 0 });
    expect(broken.phase).toBe('failed');
    // Two shipments of the first page are in; the walk's cursor did not move past the page.
    expect(shipments.count('demo')).toBe(2);
    expect(d.syncState.cursor('demo').cursor).toBe(0);
    expect(d.syncState.page('demo', 'deliveryId>0')).toBeNull();

    proxy.seen.length = 0;
    const healed = await syncShipments(d);
    expect(healed.phase).toBe('done');
    const from = Number(/deliveryId=>(\d+)/.exec(decodeURIComponent(searches()[0]!))![1]);
    expect(from).toBeLessThan(ids[0]!);
    expect(shipments.count('demo')).toBe(healed.stored + 2);
    for (const [k, id] of ids.entries())
      expect(shipments.findByExternalId('demo', `SYNC-${k + 1}`).map((s) => s.deliveryId)).toEqual([id]);
  });

  it('a station closing mid-walk stops it between slices: nothing is written after, and the next start completes it', async () => {
    const d = deps();
    const closing = new AbortController();
    let slices = 0;
    // Counts the cache writes; the station closes after the fifth slice of the walk.
    const counting: ShipmentsRepo = {
      ...shipments,
      upsertUntil: (...args) => {
        const r = shipments.upsertUntil(...args);
        if (++slices === 5) closing.abort();
        return r;
      },
    };
    const stopped = await syncShipments({ ...d, shipments: counting, sliceMs: 0, signal: closing.signal });
    expect(stopped).toMatchObject({ phase: 'failed', error: { code: 'sync_stopped' } });
    expect(slices).toBe(5);
    expect(shipments.count('demo')).toBe(5);

    const resumed = await syncShipments(d);
    expect(resumed.phase).toBe('done');
    expect(shipments.count('demo')).toBe(resumed.stored + 5);
    for (const [k, id] of ids.entries())
      expect(shipments.findByExternalId('demo', `SYNC-${k + 1}`).map((s) => s.deliveryId)).toEqual([id]);
  });
});
