import type { Migration } from './index';

/** 1: settings, a key/value table for what the user chooses (JSON values, never secrets). */
export const m001Settings: Migration = (db) => {
  db.exec(`CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`);
};
