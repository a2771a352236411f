import type { Migration } from './index';

/**
 * 17: bounded data. Two changes:
 *
 * - `shipments` becomes a rowid table. As WITHOUT ROWID its ~1.2 KB rows live in the primary-key
 *   b-tree, whose cells SQLite keeps under about a quarter of a page, so almost every row spilled
 *   to an overflow page (52 MB for 10,000 shipments against ~20 MB as a rowid table). The rebuild
 *   keeps every row, column and index. `shipment_packages` references shipments with ON DELETE
 *   CASCADE, and foreign keys cannot be switched off inside the migration's transaction: dropping
 *   `shipments` first would delete every package. So the packages are set aside, their table is
 *   dropped and made again (unchanged) around the rebuild, and put back.
 * - Indexes the retention's deletes need (electron/retention): a deleted journal entry, scan or
 *   print job makes SQLite look for rows that still reference it, and without an index on the
 *   referring column each of those looks read a whole table.
 *
 * The switch to incremental auto-vacuum needs a VACUUM, which cannot run inside a transaction:
 * openDatabase does it once, right after the migrations (database.ts).
 */
export const m017Retention: Migration = (db) => {
  db.exec(`
    CREATE TEMP TABLE shipment_packages_017 AS SELECT * FROM main.shipment_packages;
    DROP TABLE shipment_packages;

    CREATE TABLE shipments_017 (
      account_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      external_id TEXT,
      delivery_number TEXT,
      state INTEGER NOT NULL,
      agent TEXT,
      delivery_type TEXT,
      collection_place TEXT,
      value TEXT,
      value_currency TEXT,
      cod TEXT,
      created TEXT,
      created_day TEXT,
      closed TEXT,
      search_text TEXT NOT NULL,
      data TEXT NOT NULL,
      etag TEXT,
      version INTEGER NOT NULL DEFAULT 1,
      synced_at TEXT NOT NULL,
      search_rowid INTEGER,
      PRIMARY KEY (account_id, delivery_id)
    ) STRICT;
    INSERT INTO shipments_017 SELECT account_id, delivery_id, external_id, delivery_number, state, agent, delivery_type,
      collection_place, value, value_currency, cod, created, created_day, closed, search_text, data, etag, version,
      synced_at, search_rowid FROM shipments ORDER BY account_id, delivery_id;
    DROP TABLE shipments;
    ALTER TABLE shipments_017 RENAME TO shipments;
    CREATE INDEX shipments_list ON shipments (account_id, delivery_id);
    CREATE INDEX shipments_external_id ON shipments (account_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX shipments_delivery_number ON shipments (account_id, delivery_number) WHERE delivery_number IS NOT NULL;
    CREATE INDEX shipments_created ON shipments (account_id, created_day, delivery_id);
    CREATE INDEX shipments_state ON shipments (account_id, state, delivery_id);
    CREATE INDEX shipments_agent ON shipments (account_id, agent, delivery_id);
    CREATE INDEX shipments_place ON shipments (account_id, collection_place, delivery_id);

    CREATE TABLE shipment_packages (
      account_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      position INTEGER NOT NULL,
      barcode TEXT,
      weight TEXT,
      PRIMARY KEY (account_id, delivery_id, position),
      FOREIGN KEY (account_id, delivery_id) REFERENCES shipments (account_id, delivery_id) ON DELETE CASCADE
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX shipment_packages_barcode ON shipment_packages (account_id, barcode) WHERE barcode IS NOT NULL;
    INSERT INTO shipment_packages SELECT account_id, delivery_id, position, barcode, weight FROM temp.shipment_packages_017;
    DROP TABLE temp.shipment_packages_017;

    -- Looks the retention's deletes make (see above).
    CREATE INDEX desk_actions_entry ON desk_actions (entry_id) WHERE entry_id IS NOT NULL;
    CREATE INDEX desk_actions_job ON desk_actions (job_id) WHERE job_id IS NOT NULL;
    CREATE INDEX journal_entries_scan ON journal_entries (scan_id) WHERE scan_id IS NOT NULL;
    CREATE INDEX print_jobs_reprint_of ON print_jobs (reprint_of) WHERE reprint_of IS NOT NULL;
    -- The scans still waiting for their label: what the start settles (journalRepo settleScanLog)
    -- without walking the whole history.
    CREATE INDEX scan_log_open ON scan_log (id) WHERE outcome IN ('pending', 'queued');
  `);
};
