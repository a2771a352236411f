import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentsRepo, type ShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { closedRecord, shipmentRecord } from '../../support/shipmentRecords';

const now = new Date('2026-11-22T09:00:00Z');
let dir: string;
let db: Db;
let repo: ShipmentsRepo;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-shipments-'));
  db = openDatabase(path.join(dir, 'station.db'));
  repo = createShipmentsRepo(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('shipments repository', () => {
  it('stores a shipment and gives it back field for field, money and weight as exact decimals', () => {
    const rec = shipmentRecord(101, { value: '1234.10', cod: '99.90', codCurrency: 'CZK', etag: '"e1"' });
    expect(repo.upsertMany('acc-a', [rec], now)).toEqual([101]);
    const { etag: _e, ...fields } = rec;
    expect(repo.get('acc-a', 101)).toEqual({
      ...fields,
      accountId: 'acc-a',
      etag: '"e1"',
      version: 1,
      syncedAt: now.toISOString(),
    });
    expect(repo.get('acc-a', 101)!.value).toBe('1234.10');
    expect(repo.get('acc-a', 101)!.packages[0]!.weight).toBe('2.3');
  });

  it("stores no field twice: the row's record leaves out what its columns hold, and the shipment reads whole", () => {
    const rec = closedRecord(102, {
      cod: '150.00',
      codCurrency: 'CZK',
      recipient: { ...shipmentRecord(1).recipient, collectionPlace: null, surname: 'Černá' },
    });
    repo.upsertMany('acc-a', [rec], now);
    const data = JSON.parse(
      db
        .prepare('SELECT data FROM shipments WHERE account_id = ? AND delivery_id = ?')
        .pluck()
        .get('acc-a', 102) as string,
    ) as Record<string, unknown>;
    for (const key of ['deliveryId', 'externalId', 'deliveryNumber', 'state', 'agent', 'cod', 'created', 'closed'])
      expect(data).not.toHaveProperty(key);
    // A party's own collection place and an address's state are the party's, not the row's columns.
    expect(data.recipient).toEqual(rec.recipient);
    expect(data.sender).toEqual(rec.sender);
    const { etag: _e, ...fields } = rec;
    expect(repo.get('acc-a', 102)).toEqual({
      ...fields,
      accountId: 'acc-a',
      etag: null,
      version: 1,
      syncedAt: now.toISOString(),
    });
    expect(repo.upsertMany('acc-a', [rec], now)).toEqual([]);
    // A change of a field only the columns hold is a change: delivered, the list and the detail say so.
    expect(repo.upsertMany('acc-a', [{ ...rec, state: 3 }], now)).toEqual([102]);
    expect(repo.get('acc-a', 102)).toMatchObject({ state: 3, version: 2 });
    expect(repo.query('acc-a', { states: [3] }).items.map((i) => i.deliveryId)).toEqual([102]);
  });

  it('keeps two companies apart: the same deliveryId and externalId under two accounts', () => {
    repo.upsertMany('acc-a', [shipmentRecord(5, { externalId: 'X' })], now);
    repo.upsertMany('acc-b', [shipmentRecord(5, { externalId: 'X', agent: 'PPL' })], now);
    expect(repo.get('acc-a', 5)!.agent).toBe('CP');
    expect(repo.get('acc-b', 5)!.agent).toBe('PPL');
    expect(repo.findByExternalId('acc-a', 'X').map((s) => s.accountId)).toEqual(['acc-a']);
    expect(repo.get('acc-c', 5)).toBeNull();
  });

  it('bumps the version only when the data changed, and drops an ETag that belonged to older data', () => {
    repo.upsertMany('acc-a', [shipmentRecord(7, { etag: '"v1"' })], now);
    expect(repo.upsertMany('acc-a', [shipmentRecord(7)], now)).toEqual([]);
    expect(repo.get('acc-a', 7)).toMatchObject({ version: 1, etag: '"v1"' });
    expect(repo.upsertMany('acc-a', [closedRecord(7)], now)).toEqual([7]);
    expect(repo.get('acc-a', 7)).toMatchObject({ version: 2, etag: null, state: 1 });
  });

  it('finds a shipment by externalId, carrier number and package barcode', () => {
    repo.upsertMany(
      'acc-a',
      [
        closedRecord(8, {
          packages: [
            { barcode: null, weight: '1', length: null, width: null, height: null },
            { barcode: null, weight: '2', length: null, width: null, height: null },
          ],
        }),
        shipmentRecord(9),
      ],
      now,
    );
    expect(repo.findByExternalId('acc-a', 'ORD-9').map((s) => s.deliveryId)).toEqual([9]);
    expect(repo.findByDeliveryNumber('acc-a', 'DR000000008CZ').map((s) => s.deliveryId)).toEqual([8]);
    expect(repo.findByPackageBarcode('acc-a', 'PKG8-2').map((s) => s.deliveryId)).toEqual([8]);
    expect(repo.findByPackageBarcode('acc-b', 'PKG8-2')).toEqual([]);
  });

  it('replaces package barcodes when a shipment is stored again', () => {
    repo.upsertMany('acc-a', [closedRecord(3)], now);
    repo.upsertMany(
      'acc-a',
      [closedRecord(3, { packages: [{ barcode: 'NEW-1', weight: '1', length: null, width: null, height: null }] })],
      now,
    );
    expect(repo.findByPackageBarcode('acc-a', 'PKG3-1')).toEqual([]);
    expect(repo.findByPackageBarcode('acc-a', 'NEW-1').map((s) => s.deliveryId)).toEqual([3]);
  });

  it('answers the scanner lookups from indexes, never a table scan', () => {
    const plans = [
      "SELECT data FROM shipments INDEXED BY shipments_external_id WHERE account_id = 'a' AND external_id = 'x' ORDER BY delivery_id DESC LIMIT 20",
      "SELECT data FROM shipments INDEXED BY shipments_delivery_number WHERE account_id = 'a' AND delivery_number = 'x' ORDER BY delivery_id DESC LIMIT 20",
      "SELECT delivery_id FROM shipment_packages WHERE account_id = 'a' AND barcode = 'x'",
      "SELECT data FROM shipments WHERE account_id = 'a' AND delivery_id = 1",
    ].map((sql) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | '),
    );
    for (const p of plans) {
      expect(p).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY/);
      expect(p).not.toMatch(/^SCAN /);
    }
  });

  it('finds the older open shipments a sync re-reads through the open ones, not every older shipment', () => {
    // The repository's own statement, as it prepares it.
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    (db as { prepare: typeof db.prepare }).prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    createShipmentsRepo(db);
    const stale = prepared.filter((sql) => /state IN \(0, 1\) AND created_day < \?/.test(sql));
    expect(stale).toHaveLength(1);
    const plan = (
      prepare(`EXPLAIN QUERY PLAN ${stale[0]}`).all('a', '2026-11-08', now.toISOString(), 10) as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    // Open means state 0 or 1: the state's index reaches them alone (a year's cache holds a few
    // hundred open shipments among 700,000).
    expect(plan.join('\n')).toMatch(/SEARCH shipments USING INDEX shipments_state \(account_id=\? AND state=\?\)/);
  });

  it('the unfiltered total of each account stays the number of its rows through new rows, stored-again rows and removed rows', () => {
    const trueCount = (acc: string) =>
      db.prepare('SELECT count(*) FROM shipments WHERE account_id = ?').pluck().get(acc);
    repo.upsertMany(
      'acc-a',
      Array.from({ length: 40 }, (_, i) => shipmentRecord(i + 1)),
      now,
    );
    repo.upsertMany('acc-b', [shipmentRecord(1), shipmentRecord(2)], now);
    // Stored again (a sync, a close): still one row each.
    repo.upsertMany(
      'acc-a',
      Array.from({ length: 10 }, (_, i) => closedRecord(i + 1, { ticketNote: 'Příliš žluťoučký' })),
      now,
    );
    db.prepare('DELETE FROM shipments WHERE account_id = ? AND delivery_id <= 5').run('acc-a');
    for (const acc of ['acc-a', 'acc-b', 'acc-none']) {
      expect(repo.query(acc, {}).total).toBe(trueCount(acc));
      expect(repo.count(acc)).toBe(trueCount(acc));
    }
    expect(repo.query('acc-a', {}).total).toBe(35);
    expect(repo.query('acc-a', {}).items).toHaveLength(35);
  });

  it('pages a filtered list newest first with a total for the virtualised list', () => {
    const recs = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? closedRecord(i + 1, { agent: 'PPL' })
        : shipmentRecord(i + 1, { created: `2026-11-${10 + (i % 10)}T10:00:00+01:00` }),
    );
    repo.upsertMany('acc-a', recs, now);
    const page = repo.query('acc-a', { states: [0], offset: 5, limit: 5 });
    expect(page.total).toBe(20);
    expect(page.items.map((s) => s.deliveryId)).toEqual([23, 21, 20, 18, 17]);
    expect(repo.query('acc-a', { agents: ['PPL'] }).total).toBe(10);
    expect(repo.query('acc-a', { collectionPlaces: ['PLACE-1'], limit: 1 }).total).toBe(30);
    expect(
      repo
        .query('acc-a', { createdFrom: '2026-11-18', createdTo: '2026-11-19', states: [0] })
        .items.map((s) => s.deliveryId),
    ).toEqual([30, 29, 20, 9]);
  });

  it('searches free text without case or accents, and treats % and _ as plain characters', () => {
    repo.upsertMany(
      'acc-a',
      [
        shipmentRecord(1, { ticketNote: 'křehké 100%' }),
        shipmentRecord(2, {
          externalId: 'A_B',
          recipient: { ...shipmentRecord(2).recipient, surname: 'Novák', address: null },
        }),
      ],
      now,
    );
    expect(repo.query('acc-a', { text: 'DVORAK' }).items.map((s) => s.deliveryId)).toEqual([1]);
    expect(repo.query('acc-a', { text: 'novak' }).items.map((s) => s.deliveryId)).toEqual([2]);
    expect(repo.query('acc-a', { text: '100%' }).items.map((s) => s.deliveryId)).toEqual([1]);
    expect(repo.query('acc-a', { text: 'a_b' }).items.map((s) => s.deliveryId)).toEqual([2]);
    expect(repo.query('acc-a', { text: '%' }).total).toBe(1);
    const summary = repo.query('acc-a', { text: 'ORD-1' }).items[0]!;
    expect(summary).toMatchObject({
      recipientName: 'Jan Dvořák',
      recipientCity: 'Praha',
      packageCount: 1,
      value: '1234.50',
    });
  });

  it('names a back shipment by the collection place it goes to', () => {
    const blank = { firstname: null, surname: null, name: null, contactPerson: null, pickUpPlace: null };
    repo.upsertMany(
      'acc-a',
      [
        shipmentRecord(3, {
          recipient: { ...shipmentRecord(3).recipient, ...blank, type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
        }),
      ],
      now,
    );
    expect(repo.query('acc-a', {}).items[0]!.recipientName).toBe('WH-PRAHA');
  });

  it('keeps the text index in step with the records: a changed name is found under the new one only', () => {
    repo.upsertMany('acc-a', [shipmentRecord(1)], now);
    repo.upsertMany('acc-b', [shipmentRecord(1)], now);
    repo.upsertMany(
      'acc-a',
      [shipmentRecord(1, { recipient: { ...shipmentRecord(1).recipient, surname: 'Svobodová' } })],
      now,
    );
    expect(repo.query('acc-a', { text: 'dvořák' }).total).toBe(0);
    expect(repo.query('acc-a', { text: 'svobodova' }).items.map((s) => s.deliveryId)).toEqual([1]);
    expect(repo.query('acc-b', { text: 'dvořák' }).total).toBe(1);
    expect(repo.query('acc-b', { text: 'svobodova' }).total).toBe(0);
    expect(db.prepare('SELECT COUNT(*) AS n FROM shipment_search').get()).toEqual({ n: 2 });
  });

  it('reports the sync cursor, where the walk of recent shipments starts, and the older open ones', () => {
    expect(repo.maxDeliveryId('acc-a')).toBe(0);
    repo.upsertMany(
      'acc-a',
      [
        closedRecord(10, { created: '2026-10-01T10:00:00+01:00', state: 3 }),
        closedRecord(20, { created: '2026-10-02T10:00:00+01:00' }),
        shipmentRecord(25, { created: '2026-10-02T11:00:00+01:00' }),
        shipmentRecord(30, { created: '2026-11-21T10:00:00+01:00' }),
        closedRecord(40, { created: '2026-10-03T10:00:00+01:00', state: 10 }),
      ],
      now,
    );
    expect(repo.maxDeliveryId('acc-a')).toBe(40);
    expect(repo.count('acc-a')).toBe(5);
    expect(repo.recentFrom('acc-a', '2026-11-08')).toBe(30);
    expect(repo.recentFrom('acc-b', '2026-11-08')).toBe(0);
    // 20 (closed, unsent) and 25 (prepared) are old but may still change; 10 and 40 are settled.
    const later = new Date(now.getTime() + 60_000);
    expect(repo.staleOpenIds('acc-a', '2026-11-08', later, 10).sort()).toEqual([20, 25]);
    expect(repo.staleOpenIds('acc-a', '2026-11-08', now, 10)).toEqual([]); // stored just now
    expect(repo.staleOpenIds('acc-a', '2026-11-08', later, 1)).toHaveLength(1);
  });

  it('a state change that leaves the searched fields alone keeps the shipment findable by text, barcode and externalId', () => {
    repo.upsertMany('acc-a', [closedRecord(50, { ticketNote: 'Křehké, neklopit' }), closedRecord(51)], now);
    // Sent, then delivered: only the state moves, name, note and barcodes stay.
    expect(
      repo.upsertMany(
        'acc-a',
        [closedRecord(50, { state: 3, stateName: 'Doručená', ticketNote: 'Křehké, neklopit' })],
        now,
      ),
    ).toEqual([50]);
    expect(repo.get('acc-a', 50)).toMatchObject({ state: 3, version: 2 });
    expect(repo.query('acc-a', { text: 'neklopit' }).items.map((s) => [s.deliveryId, s.state])).toEqual([[50, 3]]);
    expect(repo.query('acc-a', { text: 'dvořák' }).total).toBe(2);
    expect(repo.query('acc-a', { text: 'křehké', states: [3] }).total).toBe(1);
    expect(repo.findByPackageBarcode('acc-a', 'PKG50-1').map((s) => s.state)).toEqual([3]);
    expect(repo.findByExternalId('acc-a', 'ORD-50').map((s) => s.state)).toEqual([3]);
    expect(repo.findByDeliveryNumber('acc-a', 'DR000000050CZ').map((s) => s.deliveryId)).toEqual([50]);
    // One text-index row per shipment, also after the change.
    expect(db.prepare('SELECT COUNT(*) AS n FROM shipment_search').get()).toEqual({ n: 2 });
    // A change of weight alone rewrites the package rows (the barcode is still found, with the new weight).
    const heavier = closedRecord(50, {
      state: 3,
      stateName: 'Doručená',
      ticketNote: 'Křehké, neklopit',
      packages: [{ barcode: 'PKG50-1', weight: '4.75', length: null, width: null, height: null }],
    });
    expect(repo.upsertMany('acc-a', [heavier], now)).toEqual([50]);
    expect(repo.findByPackageBarcode('acc-a', 'PKG50-1').map((s) => s.packages[0]!.weight)).toEqual(['4.75']);
    expect(
      db.prepare("SELECT weight FROM shipment_packages WHERE account_id = 'acc-a' AND delivery_id = 50").all(),
    ).toEqual([{ weight: '4.75' }]);
  });

  it('a close that gives a shipment its carrier number and barcodes makes it findable by them, and no longer by the old text', () => {
    repo.upsertMany('acc-a', [shipmentRecord(60, { ticketNote: 'Předat na vrátnici' }), shipmentRecord(61)], now);
    expect(repo.query('acc-a', { text: 'DR000000060' }).total).toBe(0);
    repo.upsertMany('acc-a', [closedRecord(60, { ticketNote: 'Zvonit dvakrát' }), shipmentRecord(61)], now);
    expect(repo.query('acc-a', { text: 'DR000000060' }).items.map((s) => s.deliveryId)).toEqual([60]);
    expect(repo.query('acc-a', { text: 'zvonit dvakrat' }).items.map((s) => s.deliveryId)).toEqual([60]);
    expect(repo.query('acc-a', { text: 'vrátnici' }).total).toBe(0);
    expect(repo.findByPackageBarcode('acc-a', 'PKG60-1').map((s) => s.deliveryId)).toEqual([60]);
    expect(repo.query('acc-a', { text: 'ORD-61' }).items.map((s) => s.deliveryId)).toEqual([61]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM shipment_search').get()).toEqual({ n: 2 });
  });

  it('stores a long list in slices: each call goes on where the last stopped, and together they store what one call would', () => {
    const records = [shipmentRecord(71), closedRecord(72), shipmentRecord(73, { externalId: 'Žluťoučký-73' })];
    // A deadline already passed: one shipment per call, whatever the machine.
    const first = repo.upsertUntil('acc-a', records, 0, 0, now);
    expect(first).toEqual({ changed: [71], next: 1 });
    expect(repo.count('acc-a')).toBe(1);
    expect(repo.upsertUntil('acc-a', records, 1, 0, now)).toEqual({ changed: [72], next: 2 });
    expect(repo.upsertUntil('acc-a', records, 2, Infinity, now)).toEqual({ changed: [73], next: 3 });
    expect(repo.findByExternalId('acc-a', 'Žluťoučký-73').map((s) => s.deliveryId)).toEqual([73]);
    expect(repo.findByPackageBarcode('acc-a', 'PKG72-1').map((s) => s.deliveryId)).toEqual([72]);
    // Stored again unchanged: nothing reported changed, all of it in one call.
    expect(repo.upsertUntil('acc-a', records, 0, Infinity, now)).toEqual({ changed: [], next: 3 });
    // At most `most` a call, the deadline still far.
    const more = [74, 75, 76].map((id) => shipmentRecord(id));
    expect(repo.upsertUntil('acc-a', more, 0, Infinity, now, 2)).toEqual({ changed: [74, 75], next: 2 });
    expect(repo.upsertUntil('acc-a', more, 2, Infinity, now, 2)).toEqual({ changed: [76], next: 3 });
  });

  it('writes the text index out once per stored slice, not once per shipment, and every shipment is found by its text', () => {
    // FTS5 writes its pending terms out (a new segment and its structure record, rows of the
    // index's own tables: sqlite.org/fts5.html "The %_data table") at a commit and at every
    // statement savepoint taken while it has pending terms. SQLite counts the rows those writes
    // change with the statements' own (total_changes()). The same 200 shipments stored in one
    // slice and one slice each: the second writes the index out 200 times.
    const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const records = (n: number) =>
      Array.from({ length: 200 }, (_, i) =>
        shipmentRecord(n + i, { externalId: `Šťovík-${n + i}`, ticketNote: `Příjemce ${n + i} u vrátnice` }),
      );
    const oneSlice = records(1000);
    let before = changes();
    expect(repo.upsertUntil('acc-a', oneSlice, 0, Infinity, now)).toEqual({
      changed: oneSlice.map((r) => r.deliveryId),
      next: 200,
    });
    const inOneSlice = changes() - before;
    const eachAlone = records(2000);
    before = changes();
    // A deadline already passed: one shipment a call.
    for (let i = 0; i < eachAlone.length; i++) repo.upsertUntil('acc-a', eachAlone, i, 0, now);
    const inSlicesOfOne = changes() - before;
    // At least one index write (two rows) per shipment fewer.
    expect(inSlicesOfOne - inOneSlice).toBeGreaterThanOrEqual(2 * 200);
    expect(repo.query('acc-a', { text: 'šťovík-1199' }).items.map((s) => s.deliveryId)).toEqual([1199]);
    expect(repo.query('acc-a', { text: 'příjemce 1007 u' }).items.map((s) => s.deliveryId)).toEqual([1007]);
    expect(repo.query('acc-a', { text: 'příjemce 2007 u' }).items.map((s) => s.deliveryId)).toEqual([2007]);

    // A changed text is written over its index row: found by the new text only.
    repo.upsertUntil(
      'acc-a',
      oneSlice.map((r) => ({ ...r, ticketNote: `Změněno ${r.deliveryId}` })),
      0,
      Infinity,
      now,
    );
    expect(repo.query('acc-a', { text: 'změněno 1042' }).items.map((s) => s.deliveryId)).toEqual([1042]);
    expect(repo.query('acc-a', { text: 'příjemce 1007 u' }).total).toBe(0);
    expect(db.prepare('SELECT count(*) FROM shipment_search').pluck().get()).toBe(400);
    db.prepare(`INSERT INTO shipment_search (shipment_search) VALUES ('integrity-check')`).run();
  });
});
