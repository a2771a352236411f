/**
 * The numbered schema migrations, oldest first: migration N brings user_version N-1 to N.
 * Never edit one that has shipped; add the next. Each has a test in test/unit/migrations.test.ts.
 */
import type Database from 'better-sqlite3';

export type Migration = (db: Database.Database) => void;

export const migrations: Migration[] = [
  // 1: settings, a key/value table for what the user chooses (JSON values, never secrets).
  (db) => {
    db.exec(`CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT`);
  },
];
