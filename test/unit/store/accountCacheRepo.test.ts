/**
 * "Reset demo data" forgets what the station cached of one company: its shipments (and what a search
 * finds of them), labels and sync cursors go; the scan log and the collection places stay, and the
 * other company keeps everything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccountCacheRepo } from '../../../electron/store/accountCacheRepo';
import { createCollectionPlacesRepo } from '../../../electron/store/collectionPlacesRepo';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { createSyncStateRepo } from '../../../electron/store/syncStateRepo';
import { shipmentRecord } from '../../support/shipmentRecords';

const now = new Date('2026-11-22T09:00:00Z');
let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-forget-'));
  db = openDatabase(path.join(dir, 'station.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const place = {
  identificator: 'P1',
  name: 'Sklad',
  email: null,
  phone: null,
  contactPerson: null,
  state: 'CZ',
  city: 'Brno',
  street: 'Nová 5',
  postalCode: '60200',
};

describe('forgetting a company’s cache', () => {
  it('empties its shipments, labels and sync cursor, keeps its scan log and places, and leaves the other company alone', () => {
    const shipments = createShipmentsRepo(db);
    const labels = createLabelsRepo(db);
    const sync = createSyncStateRepo(db);
    const scans = createScanLogRepo(db);
    const places = createCollectionPlacesRepo(db);
    for (const acc of ['demo', 'other']) {
      shipments.upsertMany(acc, [shipmentRecord(1)], now);
      labels.save(
        {
          accountId: acc,
          variant: { format: 'zpl', size: '10x15' },
          deliveryIds: [1],
          parts: [Buffer.from('^XA^XZ')],
          created: null,
        },
        now,
      );
      sync.saveCursor(acc, 1);
      scans.record({ accountId: acc, code: 'ORD-1', scannedAt: now, outcome: 'printed', deliveryId: 1 });
      places.replaceActive(acc, [place], now);
    }

    createAccountCacheRepo(db).forget('demo');

    expect(shipments.get('demo', 1)).toBeNull();
    expect(labels.latestFor('demo', 1, { format: 'zpl', size: '10x15' })).toBeNull();
    expect(sync.cursor('demo').cursor).toBe(0);
    expect(scans.recent('demo').map((s) => s.code)).toEqual(['ORD-1']);
    expect(places.get('demo', 'P1')?.name).toBe('Sklad');

    expect(shipments.get('other', 1)?.externalId).toBe('ORD-1');
    expect(labels.latestFor('other', 1, { format: 'zpl', size: '10x15' })).not.toBeNull();
    expect(sync.cursor('other').cursor).toBe(1);
  });

  it('forgets what a search found: a shipment seeded again under another name is not found under the old one', () => {
    const shipments = createShipmentsRepo(db);
    shipments.upsertMany('demo', [shipmentRecord(1)], now);
    expect(shipments.query('demo', { text: 'dvořák' }).total).toBe(1);

    createAccountCacheRepo(db).forget('demo');
    shipments.upsertMany(
      'demo',
      [shipmentRecord(1, { recipient: { ...shipmentRecord(1).recipient, surname: 'Svobodová' } })],
      now,
    );

    expect(shipments.query('demo', { text: 'svobodova' }).total).toBe(1);
    expect(shipments.query('demo', { text: 'dvořák' }).total).toBe(0);
  });
});
