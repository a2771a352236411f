import type { Migration } from './index';

/**
 * 8: end of day. Collection protocols the station created (spec "POST /api/v2/collection-protocols":
 * the PDF is kept so a reprint works offline) with the shipments they cover, and the pick-up orders
 * closes returned (spec "PATCH /api/v3/deliveries": `data.collectionOrders`).
 */
export const m008EndOfDay: Migration = (db) => {
  db.exec(`
    CREATE TABLE collection_protocols (
      account_id TEXT NOT NULL,
      protocol_id INTEGER NOT NULL,
      agent TEXT NOT NULL,
      collection_place TEXT NOT NULL,
      created TEXT NOT NULL,
      pdf BLOB NOT NULL,
      last_job_id INTEGER,
      stored_at TEXT NOT NULL,
      PRIMARY KEY (account_id, protocol_id)
    ) STRICT;

    CREATE TABLE collection_protocol_shipments (
      account_id TEXT NOT NULL,
      protocol_id INTEGER NOT NULL,
      delivery_id INTEGER NOT NULL,
      PRIMARY KEY (account_id, protocol_id, delivery_id),
      FOREIGN KEY (account_id, protocol_id) REFERENCES collection_protocols (account_id, protocol_id) ON DELETE CASCADE
    ) STRICT;
    CREATE INDEX collection_protocol_shipments_delivery ON collection_protocol_shipments (account_id, delivery_id);

    CREATE TABLE pickup_orders (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      agent TEXT NOT NULL,
      collection_place TEXT NOT NULL,
      scheduled TEXT NOT NULL,
      received_at TEXT NOT NULL,
      delivery_ids TEXT NOT NULL,
      -- Every close of the pair returns the order again: one row per carrier, place and day.
      UNIQUE (account_id, agent, collection_place, scheduled)
    ) STRICT;
  `);
};
