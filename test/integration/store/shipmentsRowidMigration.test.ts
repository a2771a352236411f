/**
 * Migration 17 on a copy of a big old database: a station at schema 16 with 10,000 cached
 * shipments (written by the store's own functions), its file copied as an upgrade finds it, then
 * opened by this station. Every row, package, index and search entry is still there, the cache is
 * a rowid table, and the file is smaller after the one VACUUM that switches it to incremental
 * auto-vacuum (52 MB against ~20 MB for 10,000 shipments).
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { m019ShipmentsRetention } from '../../../electron/store/migrations/019_shipments_retention';
import { m022ShipmentCounts } from '../../../electron/store/migrations/022_shipment_counts';
import { openSqlite } from '../../../electron/store/sqlite';
import { createShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { closedRecord, shipmentRecord } from '../../support/shipmentRecords';

const COUNT = 10_000;
let dir: string;
let oldFile: string;
let copy: string;

/** What a reader of the cache sees, independent of how the table stores it. */
function dump(db: Db) {
  return {
    shipments: db.prepare('SELECT * FROM shipments ORDER BY account_id, delivery_id').all(),
    packages: db.prepare('SELECT * FROM shipment_packages ORDER BY account_id, delivery_id, position').all(),
    indexes: db
      .prepare(
        `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('shipments', 'shipment_packages') AND sql IS NOT NULL ORDER BY name`,
      )
      .all(),
  };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-m017-'));
  oldFile = path.join(dir, 'old.db');
  copy = path.join(dir, 'copy.db');
  // A station as schema 16 left it: WAL, no auto-vacuum, the migrations up to 16.
  const db = openSqlite(oldFile);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations.slice(0, 16));
  // Today's store functions also keep the package barcodes of shipments the retention removed
  // (migration 19): its table and index are there while they write, and gone again, as at schema 16.
  m019ShipmentsRetention(db);
  // and the counts per account (migration 22), with its triggers.
  m022ShipmentCounts(db);
  const repo = createShipmentsRepo(db);
  const now = new Date('2026-01-05T09:00:00Z');
  const records = Array.from({ length: COUNT }, (_, i) =>
    i % 3 === 0
      ? closedRecord(1000 + i, { externalId: `ORDER-${i}`, ticketNote: 'x'.repeat(400) })
      : shipmentRecord(1000 + i, { externalId: `ORDER-${i}`, ticketNote: 'y'.repeat(400) }),
  );
  for (let i = 0; i < COUNT; i += 1000)
    repo.upsertMany(i < COUNT / 2 ? 'acc-a' : 'acc-b', records.slice(i, i + 1000), now);
  db.exec(
    'DROP INDEX shipments_final; DROP TABLE pruned_package_barcodes; DROP TRIGGER shipment_counts_insert; DROP TRIGGER shipment_counts_delete; DROP TABLE shipment_counts;',
  );
  db.close();
  copyFileSync(oldFile, copy);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 17 on a copy of a big schema-16 database', () => {
  it('keeps every shipment, package, index and search entry, as a rowid table, in a smaller file', () => {
    const old = openSqlite(oldFile, undefined, { readonly: true });
    const before = dump(old);
    const oldSql = (old.prepare(`SELECT sql FROM sqlite_master WHERE name = 'shipments'`).get() as { sql: string }).sql;
    old.close();
    expect(oldSql).toMatch(/WITHOUT ROWID/);
    expect(before.shipments).toHaveLength(COUNT);
    const sizeBefore = statSync(copy).size;

    const started = performance.now();
    const db = openDatabase(copy);
    const openMs = performance.now() - started;
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      const sql = (db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'shipments'`).get() as { sql: string }).sql;
      expect(sql).not.toMatch(/WITHOUT ROWID/);
      // A rowid table answers for its rowid; a WITHOUT ROWID one has none.
      expect(() => db.prepare('SELECT rowid FROM shipments LIMIT 1').get()).not.toThrow();
      // Everything as before, and the index migration 19 adds for the retention's walk; but the
      // list's index, which migration 31 drops (the rowid table's primary key has its own).
      const after = dump(db);
      expect({
        ...after,
        indexes: after.indexes.filter((i) => (i as { name: string }).name !== 'shipments_final'),
      }).toEqual({
        ...before,
        indexes: before.indexes.filter((i) => (i as { name: string }).name !== 'shipments_list'),
      });
      expect(after.indexes.map((i) => (i as { name: string }).name)).toContain('shipments_final');
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);

      // The store still finds what a worker scans or types.
      const repo = createShipmentsRepo(db);
      expect(repo.findByExternalId('acc-a', 'ORDER-42').map((s) => s.deliveryId)).toEqual([1042]);
      expect(repo.query('acc-b', { text: 'ORDER-9999' }).total).toBe(1);
      // The counts migration 22 makes from the rows an upgrade finds.
      expect(repo.query('acc-a', {}).total).toBe(COUNT / 2);
      expect(repo.query('acc-b', {}).total).toBe(COUNT / 2);
      // Packages still go with their shipment.
      db.prepare('DELETE FROM shipments WHERE account_id = ? AND delivery_id = ?').run('acc-a', 1000);
      expect(db.prepare(`SELECT count(*) AS n FROM shipment_packages WHERE delivery_id = 1000`).get()).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
    const sizeAfter = statSync(copy).size;
    expect(sizeAfter).toBeLessThan(sizeBefore * 0.8);
    console.log(
      `migration 17: ${COUNT} shipments, ${(sizeBefore / 1e6).toFixed(1)} MB -> ${(sizeAfter / 1e6).toFixed(1)} MB, migration and VACUUM ${openMs.toFixed(0)} ms`,
    );
  }, 120_000);
});
