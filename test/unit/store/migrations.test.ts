import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('schema migrations', () => {
  it('bring an empty database to the latest version and record it', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(migrations.length);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(tables(db)).toContain('settings');
  });

  it('are idempotent: running again changes nothing', () => {
    const db = new Database(':memory:');
    migrate(db);
    const before = tables(db);
    migrate(db);
    expect(tables(db)).toEqual(before);
  });

  it('1 creates settings holding JSON values by key', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 1));
    db.prepare("INSERT INTO settings VALUES ('language', '\"cs\"', '2026-11-22T00:00:00Z')").run();
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('language')).toEqual({ value: '"cs"' });
  });

  it('upgrade a database written by an older station step by step', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 1));
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
  });

  it('refuse a database from a newer station instead of damaging it', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer station/);
  });
});
