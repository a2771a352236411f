import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createCollectionPlacesRepo, type CollectionPlace } from '../../../electron/store/collectionPlacesRepo';
import { createSyncStateRepo } from '../../../electron/store/syncStateRepo';

const now = new Date('2026-11-22T09:00:00Z');
let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-cache-'));
  file = path.join(dir, 'station.db');
  db = openDatabase(file);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('labels repository', () => {
  const zpl = (s: string) => Buffer.from(s, 'utf8');

  it('keeps the ZPL of every package and gives the same bytes back after a restart (offline reprint)', () => {
    const labels = createLabelsRepo(db);
    labels.save(
      {
        accountId: 'a',
        variant: { format: 'zpl', size: '10x15' },
        deliveryIds: [42],
        parts: [zpl('^XA^FDone^XZ'), zpl('^XA^FDtwo^XZ')],
        created: null,
      },
      now,
    );
    db.close();
    db = openDatabase(file);
    const again = createLabelsRepo(db).latestFor('a', 42, { format: 'zpl', size: '10x15' });
    expect(again!.parts.map((p) => p.toString('utf8'))).toEqual(['^XA^FDone^XZ', '^XA^FDtwo^XZ']);
    expect(again).toMatchObject({
      deliveryIds: [42],
      variant: { format: 'zpl', size: '10x15' },
      fetchedAt: now.toISOString(),
    });
  });

  it('keys labels by format, size and A4 start position, and by account', () => {
    const labels = createLabelsRepo(db);
    const pdf = Buffer.from('%PDF-1.4 binary \u0000\u00ff', 'latin1');
    labels.save(
      {
        accountId: 'a',
        variant: { format: 'pdf', printFormat: 'default', position: 3 },
        deliveryIds: [1, 2],
        parts: [pdf],
        created: '2026-11-22T10:00:00+01:00',
      },
      now,
    );
    labels.save(
      {
        accountId: 'a',
        variant: { format: 'pdf', printFormat: 'single' },
        deliveryIds: [1],
        parts: [Buffer.from('%PDF single')],
      },
      now,
    );
    expect(
      labels.latestFor('a', 2, { format: 'pdf', printFormat: 'default', position: 3 })!.parts[0]!.equals(pdf),
    ).toBe(true);
    expect(labels.latestFor('a', 2, { format: 'pdf', printFormat: 'default', position: 1 })).toBeNull();
    expect(labels.latestFor('a', 2, { format: 'pdf', printFormat: 'single' })).toBeNull();
    expect(labels.latestFor('b', 1)).toBeNull();
    expect(labels.allFor('a', 1).map((d) => d.variant)).toEqual([
      { format: 'pdf', printFormat: 'single' },
      { format: 'pdf', printFormat: 'default', position: 3 },
    ]);
    expect(labels.latestFor('a', 1, { format: 'pdf', printFormat: 'default', position: 3 })!.deliveryIds).toEqual([
      1, 2,
    ]);
  });

  it('a refetch replaces the older copy, but never a batch PDF that also holds other shipments', () => {
    const labels = createLabelsRepo(db);
    const v = { format: 'pdf', printFormat: 'single' } as const;
    const batch = labels.save({ accountId: 'a', variant: v, deliveryIds: [1, 2], parts: [Buffer.from('batch')] }, now);
    const first = labels.save({ accountId: 'a', variant: v, deliveryIds: [1], parts: [Buffer.from('one')] }, now);
    const second = labels.save(
      { accountId: 'a', variant: v, deliveryIds: [1], parts: [Buffer.from('one again')] },
      now,
    );
    expect(labels.get(first)).toBeNull();
    expect(labels.get(batch)).not.toBeNull();
    expect(labels.latestFor('a', 1, v)!.id).toBe(second);
  });

  it('refuses an empty document with a clear message', () => {
    const labels = createLabelsRepo(db);
    expect(() =>
      labels.save({ accountId: 'a', variant: { format: 'zpl', size: '10x5' }, deliveryIds: [1], parts: [] }, now),
    ).toThrow(/at least one part/);
  });
});

describe('scan log repository', () => {
  it('records every scan as it arrives and then its outcome, newest first per account', () => {
    const scans = createScanLogRepo(db);
    const first = scans.record({
      accountId: 'a',
      code: 'ORD-1',
      rawCode: ']C1ORD-1',
      scannedAt: new Date('2026-11-22T08:00:00Z'),
    });
    const second = scans.record({
      accountId: 'a',
      code: 'NOPE',
      scannedAt: new Date('2026-11-22T08:00:01Z'),
      outcome: 'not_found',
    });
    scans.record({ accountId: 'b', code: 'ORD-1', scannedAt: now });
    expect(scans.get(first)).toMatchObject({ outcome: 'pending', rawCode: ']C1ORD-1', deliveryId: null });
    scans.update(first, { outcome: 'closed', deliveryId: 11, matchedBy: 'externalId' });
    scans.update(first, { outcome: 'printed' });
    expect(scans.get(first)).toMatchObject({
      outcome: 'printed',
      deliveryId: 11,
      matchedBy: 'externalId',
      scannedAt: '2026-11-22T08:00:00.000Z',
    });
    expect(scans.recent('a').map((s) => s.id)).toEqual([second, first]);
    expect(scans.recent('a', 10, second).map((s) => s.id)).toEqual([first]);
    expect(scans.forShipment('a', 11).map((s) => s.code)).toEqual(['ORD-1']);
  });
});

describe('collection places repository', () => {
  const place = (id: string, name: string): CollectionPlace => ({
    identificator: id,
    name,
    email: null,
    phone: null,
    contactPerson: null,
    state: 'CZ',
    city: 'Brno',
    street: 'Nová 5',
    postalCode: '60200',
  });

  it('replaces the active list and keeps a place the service no longer lists, marked inactive', () => {
    const places = createCollectionPlacesRepo(db);
    places.replaceActive('a', [place('P1', 'Sklad'), place('P2', 'Prodejna')], now);
    places.replaceActive('a', [place('P1', 'Sklad Brno')], now);
    expect(places.list('a').map((p) => [p.identificator, p.name, p.active])).toEqual([
      ['P1', 'Sklad Brno', true],
      ['P2', 'Prodejna', false],
    ]);
    expect(places.get('b', 'P1')).toBeNull();
  });
});

describe('sync state repository', () => {
  it('remembers page ETags and an interrupted walk cursor until the walk completes', () => {
    const sync = createSyncStateRepo(db);
    sync.savePage('a', 'deliveryId>0', { afterDeliveryId: 0, etag: '"p1"', lastDeliveryId: 100, itemCount: 100 }, now);
    sync.savePage(
      'a',
      'deliveryId>100',
      { afterDeliveryId: 100, etag: '"p2"', lastDeliveryId: 180, itemCount: 100 },
      now,
    );
    sync.saveCursor('a', 100);
    expect(sync.page('a', 'deliveryId>0')).toEqual({
      afterDeliveryId: 0,
      etag: '"p1"',
      lastDeliveryId: 100,
      itemCount: 100,
    });
    expect(sync.pageCursorCovering('a', 57)).toBe(0);
    expect(sync.pageCursorCovering('a', 101)).toBe(100);
    expect(sync.pageCursorCovering('a', 181)).toBeNull();
    expect(sync.page('b', 'deliveryId>0')).toBeNull();
    expect(sync.cursor('a')).toEqual({ cursor: 100, lastCompleteAt: null });
    sync.markComplete('a', now);
    expect(sync.cursor('a')).toEqual({ cursor: 0, lastCompleteAt: now.toISOString() });
  });
});
