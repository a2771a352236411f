/**
 * The scanner lookup's service fallback and the in-place cache updates after close and cancel,
 * against the real sandbox through the real API client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import type { ServiceClient } from '../../../electron/api/index';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentsRepo, type ShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { lookupScan, type LookupDeps } from '../../../electron/lookup/lookupScan';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import { recordCancelled, recordDeliveries, refreshShipments } from '../../../electron/sync/updateCache';
import {
  cancelShipments,
  closeShipments,
  insertShipments,
  sandboxToken,
  tokenClient,
} from '../../support/sandboxShipments';
import { startFlakyProxy, type FlakyProxy } from '../../support/flakyProxy';

let sb: Sandbox;
let token: string;
let proxy: FlakyProxy;
let client: ServiceClient;
let dir: string;
let db: Db;
let shipments: ShipmentsRepo;
let changes: number[][];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'none' });
  token = await sandboxToken(sb);
  proxy = await startFlakyProxy(sb.url);
  client = tokenClient(proxy.url, token);
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-lookup-svc-'));
  db = openDatabase(path.join(dir, 'station.db'));
  shipments = createShipmentsRepo(db);
  changes = [];
  proxy.decide = () => 'pass';
  proxy.seen.length = 0;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = (): LookupDeps => ({
  accountId: 'demo',
  shipments,
  source: shipmentSourceFromClient(client),
  now: () => new Date(),
  onChanged: (_a, ids) => changes.push(ids),
});

describe('scanner lookup with the service behind the cache', () => {
  it('finds a shipment the cache does not know by externalId, stores it, and answers the next scan from the cache', async () => {
    const [id] = await insertShipments(sb, token, 1, 'NEW-A');
    const first = await lookupScan(deps(), 'NEW-A1\r\n');
    expect(first).toMatchObject({
      kind: 'found',
      source: 'service',
      matchedBy: 'externalId',
      shipment: { deliveryId: id, state: 0 },
    });
    expect(changes).toEqual([[id]]);
    proxy.seen.length = 0;
    expect(await lookupScan(deps(), 'NEW-A1')).toMatchObject({
      kind: 'found',
      source: 'cache',
      shipment: { deliveryId: id },
    });
    expect(proxy.seen).toEqual([]);
  });

  it('finds one by carrier number and by deliveryId at the service', async () => {
    const [a, b] = await insertShipments(sb, token, 2, 'NEW-B');
    const [closed] = await closeShipments(sb, token, [a!]);
    expect(await lookupScan(deps(), closed.deliveryNumber)).toMatchObject({
      kind: 'found',
      matchedBy: 'deliveryNumber',
      shipment: { deliveryId: a, state: 1 },
    });
    expect(await lookupScan(deps(), String(b))).toMatchObject({
      kind: 'found',
      matchedBy: 'deliveryId',
      shipment: { deliveryId: b },
    });
    // The carrier's package barcode is cached with the shipment: scanning the label now works offline.
    const barcode = shipments.get('demo', a!)!.packages[0]!.barcode!;
    expect(await lookupScan({ ...deps(), source: null }, barcode)).toMatchObject({
      kind: 'found',
      matchedBy: 'packageBarcode',
    });
  });

  it('says not found after asking the service, and says the service could not be asked when it is down', async () => {
    expect(await lookupScan(deps(), 'NO-SUCH-ORDER')).toEqual({
      kind: 'not_found',
      code: 'NO-SUCH-ORDER',
      serviceChecked: true,
      serviceError: null,
    });
    proxy.decide = () => 'reset';
    const down = await lookupScan(deps(), 'NO-SUCH-ORDER');
    expect(down).toMatchObject({ kind: 'not_found', serviceChecked: false, serviceError: { code: 'service_network' } });
  });

  it('with refresh, sees that another desk closed a cached shipment; offline it falls back to the cache', async () => {
    const [id] = await insertShipments(sb, token, 1, 'NEW-C');
    await lookupScan(deps(), 'NEW-C1');
    await closeShipments(sb, token, [id!]);
    expect(await lookupScan(deps(), 'NEW-C1')).toMatchObject({ shipment: { state: 0 }, source: 'cache' });
    expect(await lookupScan(deps(), 'NEW-C1', { refresh: true })).toMatchObject({
      kind: 'found',
      source: 'service',
      shipment: { state: 1, version: 2 },
    });
    proxy.decide = () => 'reset';
    expect(await lookupScan(deps(), 'NEW-C1', { refresh: true })).toMatchObject({
      kind: 'found',
      source: 'cache',
      shipment: { state: 1 },
    });
  });
});

describe('in-place cache updates after the station changed shipments', () => {
  it('stores what a close returned, marks a cancel at once, and refreshes on request', async () => {
    const cache = { shipments, now: () => new Date(), onChanged: (_a: string, ids: number[]) => changes.push(ids) };
    const [a, b, c] = await insertShipments(sb, token, 3, 'UPD-');
    const refreshed = await refreshShipments({ ...cache, source: shipmentSourceFromClient(client) }, 'demo', [
      a!,
      b!,
      c!,
    ]);
    expect(refreshed.changed.sort()).toEqual([a, b, c].sort());
    const groups = await client.closeDeliveries([
      { deliveryId: a!, agent: 'NP', sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } },
    ]);
    const outcome = groups[0]!.outcome;
    expect(outcome.status).toBe('closed');
    if (outcome.status !== 'closed') return;
    expect(recordDeliveries(cache, 'demo', outcome.deliveries)).toEqual({ changed: [a] });
    expect(shipments.get('demo', a!)).toMatchObject({
      state: 1,
      deliveryNumber: outcome.deliveries[0]!.deliveryNumber,
    });

    await client.cancelDeliveries([b!]);
    expect(recordCancelled(cache, 'demo', [b!])).toEqual([b]);
    expect(shipments.get('demo', b!)).toMatchObject({ state: 10, version: 2 });
    // Cancelling again (or a shipment not cached) changes nothing.
    expect(recordCancelled(cache, 'demo', [b!, 999_999])).toEqual([]);

    // The record as the client read it is stored (a garbled one never gets here: the client's
    // schemas refuse it, test/unit/sync/shipmentFromDelivery.test.ts).
    await cancelShipments(sb, token, [c!]);
    const [fresh] = await client.getDeliveriesByIds([c!]);
    expect(recordDeliveries(cache, 'demo', [fresh!])).toEqual({ changed: [c] });
    expect(shipments.get('demo', c!)!.state).toBe(10);
  });
});
