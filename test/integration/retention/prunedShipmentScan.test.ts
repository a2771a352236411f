/**
 * A shipment the retention dropped from the cache (delivered more than the labels window ago)
 * is found again when its parcel is scanned later: by its package label (which the service cannot
 * be searched by), by its order number and by its deliveryId. Real sandbox, real API client, the
 * station's clock moved by the test.
 *
 * The sandbox never moves a closed shipment on (spec "States and transitions": the transitions
 * after closing are not shown), so its delivery reaches the cache as a later sync would bring it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import type { ServiceClient } from '../../../electron/api/index';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentsRepo, type ShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { createRetention } from '../../../electron/retention/retention';
import { lookupScan, type LookupDeps } from '../../../electron/lookup/lookupScan';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import { closeShipments, insertShipments, sandboxToken, tokenClient } from '../../support/sandboxShipments';
import { steppableClock, type SteppableClock } from '../../support/steppableClock';

const DAY = 86_400_000;
let sb: Sandbox;
let token: string;
let client: ServiceClient;
let dir: string;
let db: Db;
let shipments: ShipmentsRepo;
let clock: SteppableClock;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'none' });
  token = await sandboxToken(sb);
  client = tokenClient(sb.url, token);
});
afterAll(async () => {
  await sb?.close();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-pruned-scan-'));
  db = openDatabase(path.join(dir, 'station.db'));
  shipments = createShipmentsRepo(db);
  clock = steppableClock();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = (): LookupDeps => ({
  accountId: 'demo',
  shipments,
  source: shipmentSourceFromClient(client),
  now: () => clock.now(),
});

describe('a shipment the retention dropped from the cache', () => {
  it('is fetched again when its parcel is scanned later, by package label, order number or deliveryId', async () => {
    const ids = await insertShipments(sb, token, 4, 'PRUNED-');
    const closed = await closeShipments(sb, token, ids);
    // The desk scans them and caches them (closed at the service).
    for (let i = 1; i <= 4; i++)
      expect(await lookupScan(deps(), `PRUNED-${i}`)).toMatchObject({ kind: 'found', source: 'service' });
    // Later the carrier delivers the first three (a sync stores it).
    for (const id of ids.slice(0, 3)) {
      const { accountId: _a, version: _v, syncedAt: _s, ...s } = shipments.get('demo', id)!;
      shipments.upsertMany('demo', [{ ...s, state: 3, stateName: 'Doručená' }], clock.now());
    }
    const barcode = (closed.find((d) => d.deliveryId === ids[0]).packages as { barcode: string }[])[0]!.barcode;
    expect(barcode).toMatch(/\S/);

    clock.advance(91 * DAY);
    const retention = createRetention({
      db,
      settings: createSettingsRepo(db),
      clock,
      dataDir: dir,
      log: { info: () => undefined, error: () => undefined },
    });
    await retention.run();
    for (const id of ids.slice(0, 3)) expect(shipments.get('demo', id)).toBeNull();
    // The fourth (closed, not sent yet: the service still changes it) stays.
    expect(shipments.get('demo', ids[3]!)?.state).toBe(1);
    // Offline, the cache no longer knows them: nothing stale is shown.
    expect(await lookupScan({ ...deps(), source: null }, barcode)).toMatchObject({ kind: 'not_found' });

    // Scanned again: the service answers with what it holds now, and the cache has it again.
    expect(await lookupScan(deps(), barcode)).toMatchObject({
      kind: 'found',
      source: 'service',
      matchedBy: 'packageBarcode',
      shipment: { deliveryId: ids[0], state: 1, externalId: 'PRUNED-1' },
    });
    expect(await lookupScan(deps(), 'PRUNED-2')).toMatchObject({
      kind: 'found',
      source: 'service',
      shipment: { deliveryId: ids[1] },
    });
    expect(await lookupScan(deps(), String(ids[2]))).toMatchObject({
      kind: 'found',
      source: 'service',
      matchedBy: 'deliveryId',
      shipment: { deliveryId: ids[2] },
    });
    // And the next scan of the label is answered by the cache.
    expect(await lookupScan(deps(), barcode)).toMatchObject({ kind: 'found', source: 'cache' });
  });
});
