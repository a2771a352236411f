import type { Migration } from './index';

/** 6: every scan at the desk, with its outcome (what happened to the parcel). */
export const m006ScanLog: Migration = (db) => {
  db.exec(`
    CREATE TABLE scan_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      code TEXT NOT NULL,
      raw_code TEXT,
      scanned_at TEXT NOT NULL,
      outcome TEXT NOT NULL,
      delivery_id INTEGER,
      matched_by TEXT,
      message TEXT
    ) STRICT;
    CREATE INDEX scan_log_account ON scan_log (account_id, id);
    CREATE INDEX scan_log_delivery ON scan_log (account_id, delivery_id) WHERE delivery_id IS NOT NULL;
  `);
};
