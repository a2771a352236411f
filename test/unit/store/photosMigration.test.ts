/** Migration 18 (proof-of-packing photos): a station file from before gains the table; a row names its kind and file once. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { m018Photos } from '../../../electron/store/migrations/018_photos';

describe('migration 18: photos', () => {
  it('upgrades a station file from before; a photo is a scan or printed one, and one file is one photo', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, migrations.indexOf(m018Photos)));
    db.prepare(
      `INSERT INTO journal_entries (account_id, source, want, step, created_at, updated_at)
       VALUES ('a', 'scan', 'close_and_print', 'ended', '2026-11-01T08:00:00Z', '2026-11-01T08:00:00Z')`,
    ).run();
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    // The scan log row the photo's scan id names is not the point here.
    db.pragma('foreign_keys = OFF');
    const add = db.prepare(
      `INSERT INTO photos (entry_id, scan_id, kind, taken_at, file, bytes, width, height, desk)
       VALUES (1, 1, ?, '2026-11-26T08:00:00Z', ?, 100, 1280, 960, 'Desk 1')`,
    );
    add.run('scan', 'photos/2026-11-26/a.jpg');
    add.run('printed', 'photos/2026-11-26/b.jpg');
    expect(() => add.run('video', 'photos/2026-11-26/c.jpg')).toThrow(/CHECK/);
    expect(() => add.run('scan', 'photos/2026-11-26/a.jpg')).toThrow(/UNIQUE/);
    db.close();
  });
});
