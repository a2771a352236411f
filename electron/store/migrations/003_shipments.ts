import type { Migration } from './index';

/**
 * 3: the shipment cache. One row per (account, deliveryId): the columns the station filters and
 * looks up by, plus the whole record as JSON in `data`. Package barcodes get their own table so a
 * scanned label barcode is one index probe. `sync_pages` keeps the ETag of every page of the
 * sync's cursor walk (spec "GET /api/v3/deliveries": 304 for the same filter when nothing changed).
 * `shipment_search` (FTS5 trigram) serves the list's free-text filter.
 * Money and weights are TEXT holding exact decimals; account_id keeps companies apart.
 */
export const m003Shipments: Migration = (db) => {
  db.exec(`
    CREATE TABLE shipments (
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
    ) STRICT, WITHOUT ROWID;
    -- Free-text search of the list (substring, any case): a trigram index over search_text.
    -- search_rowid links a shipment to its row here (FTS5 indexes only its rowid and MATCH).
    CREATE VIRTUAL TABLE shipment_search USING fts5(account_id UNINDEXED, delivery_id UNINDEXED, body, tokenize = 'trigram');
    -- Covering list order without reading the records (deep pages of the virtualised list).
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

    CREATE TABLE sync_pages (
      account_id TEXT NOT NULL,
      page_key TEXT NOT NULL,
      after_delivery_id INTEGER NOT NULL,
      etag TEXT NOT NULL,
      last_delivery_id INTEGER NOT NULL,
      item_count INTEGER NOT NULL,
      fetched_at TEXT NOT NULL,
      PRIMARY KEY (account_id, page_key)
    ) STRICT;

    CREATE TABLE sync_state (
      account_id TEXT PRIMARY KEY,
      cursor INTEGER NOT NULL,
      last_complete_at TEXT
    ) STRICT;
  `);
};
