/** Migration 19 (the shipment cache's retention): a station file from before keeps its shipments and gains the walk's index and the pruned barcodes. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { m019ShipmentsRetention } from '../../../electron/store/migrations/019_shipments_retention';

describe('migration 19: shipments retention', () => {
  it('upgrades a station file from before; the walk reads only delivered, returned and cancelled shipments', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, migrations.indexOf(m019ShipmentsRetention)));
    const add = db.prepare(
      `INSERT INTO shipments (account_id, delivery_id, state, search_text, data, synced_at) VALUES ('a', ?, ?, '', '{}', '2025-01-01T00:00:00Z')`,
    );
    for (const [id, state] of [
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
      [6, 5],
      [7, 6],
      [8, 10],
    ])
      add.run(id, state);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare('SELECT count(*) FROM shipments').pluck().get()).toBe(8);
    const walked = db
      .prepare(
        'SELECT delivery_id FROM shipments INDEXED BY shipments_final WHERE state IN (3, 4, 5, 6, 10) ORDER BY delivery_id',
      )
      .pluck()
      .all();
    expect(walked).toEqual([4, 5, 6, 7, 8]);
    const keep = db.prepare('INSERT INTO pruned_package_barcodes (account_id, barcode, delivery_id) VALUES (?, ?, ?)');
    keep.run('a', 'PKG4-1', 4);
    expect(() => keep.run('a', 'PKG4-1', 4)).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });
});
