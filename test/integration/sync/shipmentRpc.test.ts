/**
 * The shipments RPC methods (shared/contract/shipments.ts) backed by the real domain: a sandbox
 * over HTTP, a temp SQLite file. Every answer is checked against the contract's result schema,
 * and bad params are refused by the contract's params schema before any handler runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { createServiceClient } from '../../../electron/api/index';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentDomain, type ShipmentDomain } from '../../../electron/sync/shipmentHandlers';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import { methods, events } from '../../../shared/contract';
import type { SyncProgress } from '../../../shared/contract/shipments';
import { memoryLogger } from '../../support/memoryLogger';
import { closeShipments, insertShipments, sandboxToken } from '../../support/sandboxShipments';

let sb: Sandbox;
let dir: string;
let db: Db;
let domain: ShipmentDomain;
let active: string | null = 'demo';
let loggedIn = true;
const progress: SyncProgress[] = [];
const changed: number[][] = [];
let ids: number[];

type M =
  | 'shipments.query'
  | 'shipments.get'
  | 'shipments.sync'
  | 'shipments.lookup'
  | 'collectionPlaces.list'
  | 'scans.recent';
/** Validates params and result with the contract, as the RPC server and a careful renderer would. */
async function call(method: M, params: unknown): Promise<any> {
  const p = methods[method].params.parse(params);
  const value = await (domain.handlers[method] as (p: unknown) => unknown)(p);
  return methods[method].result.parse(value);
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'none' });
  const token = await sandboxToken(sb);
  ids = await insertShipments(sb, token, 120, 'RPC-');
  await closeShipments(sb, token, ids.slice(0, 3));
  dir = mkdtempSync(path.join(tmpdir(), 'station-rpc-'));
  db = openDatabase(path.join(dir, 'station.db'));
  const client = createServiceClient({
    baseUrl: sb.url,
    tokens: { accessToken: async () => token, renewAfterRejection: async () => token },
    language: () => 'en',
    log: memoryLogger(),
  });
  domain = createShipmentDomain({
    db,
    now: () => new Date(),
    activeAccountId: () => active,
    sourceFor: async () => (loggedIn ? shipmentSourceFromClient(client) : null),
    emitProgress: (p) => progress.push(events['shipments.syncProgress'].parse(p)),
    emitChanged: (accountId, deliveryIds) =>
      changed.push(events['shipments.changed'].parse({ accountId, deliveryIds }).deliveryIds),
  });
});
afterAll(async () => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
  await sb?.close();
});

describe('shipments over the contract', () => {
  it('sync now fills the cache, reports progress events, and refreshes the collection places', async () => {
    const [a, b] = await Promise.all([call('shipments.sync', {}), call('shipments.sync', {})]);
    expect(a).toEqual(b); // a second request joins the running walk
    expect(a).toMatchObject({ phase: 'done', stored: 120, requests: 2 });
    expect(progress.at(-1)).toMatchObject({ phase: 'done' });
    expect(changed.flat()).toHaveLength(120);
    const places = await call('collectionPlaces.list', {});
    expect(places.map((p: any) => p.identificator)).toContain('WH-PRAHA');
  });

  it('lists, filters and pages the cache for the virtualised list', async () => {
    const all = await call('shipments.query', { limit: 50 });
    expect(all.total).toBe(120);
    expect(all.items).toHaveLength(50);
    expect(all.items[0].deliveryId).toBe(ids[119]);
    const closed = await call('shipments.query', { states: [1] });
    expect(closed.items.map((s: any) => s.deliveryId).sort()).toEqual(ids.slice(0, 3).sort());
    expect(
      (await call('shipments.query', { text: 'rpc-11', collectionPlaces: ['WH-PRAHA'], agents: ['NP'] })).total,
    ).toBe(11); // RPC-11, RPC-110..119
  });

  it('shows one shipment with every field, and null for one the cache does not hold', async () => {
    expect(await call('shipments.get', { deliveryId: ids[0] })).toMatchObject({
      deliveryId: ids[0],
      state: 1,
      accountId: 'demo',
    });
    expect(await call('shipments.get', { deliveryId: 99_999_999 })).toBeNull();
  });

  it('looks up a scan and answers typed results', async () => {
    expect(await call('shipments.lookup', { code: ']C1RPC-5\r\n' })).toMatchObject({
      kind: 'found',
      matchedBy: 'externalId',
      code: 'RPC-5',
    });
    expect(await call('shipments.lookup', { code: 'NOPE' })).toMatchObject({ kind: 'not_found', serviceChecked: true });
  });

  it('returns the scan log newest first', async () => {
    const first = domain.repos.scanLog.record({
      accountId: 'demo',
      code: 'RPC-1',
      scannedAt: new Date(),
      outcome: 'closed',
      deliveryId: ids[0],
    });
    const second = domain.repos.scanLog.record({
      accountId: 'demo',
      code: 'NOPE',
      scannedAt: new Date(),
      outcome: 'not_found',
    });
    expect((await call('scans.recent', {})).map((s: any) => s.id)).toEqual([second, first]);
  });

  it('refuses bad params before any handler runs', () => {
    expect(methods['shipments.query'].params.safeParse({ limit: 100_000 }).success).toBe(false);
    expect(methods['shipments.query'].params.safeParse({ createdFrom: '22.11.2026' }).success).toBe(false);
    expect(methods['shipments.query'].params.safeParse({ sql: 'DROP TABLE shipments' }).success).toBe(false);
    expect(methods['shipments.get'].params.safeParse({ deliveryId: '1 OR 1=1' }).success).toBe(false);
    expect(methods['shipments.lookup'].params.safeParse({ code: 'x'.repeat(501) }).success).toBe(false);
  });

  it('says plainly when no account is set up or the station is logged out', async () => {
    loggedIn = false;
    expect(await call('shipments.sync', {})).toMatchObject({ phase: 'failed', error: { code: 'logged_out' } });
    expect(await call('shipments.lookup', { code: 'RPC-7' })).toMatchObject({ kind: 'found', source: 'cache' });
    expect(await call('shipments.lookup', { code: 'UNKNOWN' })).toMatchObject({
      kind: 'not_found',
      serviceChecked: false,
    });
    loggedIn = true;
    active = null;
    await expect(call('shipments.query', {})).rejects.toMatchObject({ code: 'no_account' });
    active = 'demo';
  });
});
