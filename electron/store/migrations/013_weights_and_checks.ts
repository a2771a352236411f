import type { Migration } from './index';

/**
 * 13: weighing and label verification as parts of the journal. `journal_weights`: the
 * weight each package of a scan's shipment got before the close, and where it came from (the
 * scale, or the shipment's own weight when the worker skipped or the wait ran out); `updated_at`
 * is set once the service took the new weights (PUT), so a restart neither weighs nor updates
 * twice. `label_checks`: one row per closed scan whose labels the worker is to check (`seen`: the
 * package barcodes scanned so far); `verified_at` once every package's label was scanned
 * (unverified rows are listed at the end of the day).
 */
export const m013WeightsAndChecks: Migration = (db) => {
  db.exec(`
    CREATE TABLE journal_weights (
      entry_id INTEGER NOT NULL REFERENCES journal_entries(id),
      package_index INTEGER NOT NULL,
      kg TEXT,
      reading TEXT,
      source TEXT NOT NULL CHECK (source IN ('scale', 'skipped', 'timeout')),
      at TEXT NOT NULL,
      PRIMARY KEY (entry_id, package_index)
    ) STRICT;
    CREATE TABLE journal_weight_updates (
      entry_id INTEGER PRIMARY KEY REFERENCES journal_entries(id),
      outcome TEXT NOT NULL CHECK (outcome IN ('updated', 'within_tolerance')),
      at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE label_checks (
      entry_id INTEGER PRIMARY KEY REFERENCES journal_entries(id),
      account_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      barcodes TEXT NOT NULL,
      seen TEXT NOT NULL DEFAULT '[]',
      printed_at TEXT NOT NULL,
      verified_at TEXT,
      mismatches INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX label_checks_open ON label_checks (printed_at) WHERE verified_at IS NULL;
  `);
};
