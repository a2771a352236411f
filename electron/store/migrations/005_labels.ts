import type { Migration } from './index';

/**
 * 5: labels fetched at close time, so reprints work offline. A label document is what one
 * request returned: a PDF (which may cover several shipments, spec "GET tickets") or the ZPL of
 * one shipment (one part per package, spec "ZPL item"). `variant` is the size or print format
 * and start position ('zpl:10x15', 'pdf:single', 'pdf:default@3').
 */
export const m005Labels: Migration = (db) => {
  db.exec(`
    CREATE TABLE label_documents (
      -- AUTOINCREMENT: a replaced document's id is never reused (print jobs may still name it).
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('pdf', 'zpl')),
      variant TEXT NOT NULL,
      created TEXT,
      fetched_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE label_parts (
      document_id INTEGER NOT NULL REFERENCES label_documents (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (document_id, position)
    ) STRICT;

    CREATE TABLE label_shipments (
      document_id INTEGER NOT NULL REFERENCES label_documents (id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      PRIMARY KEY (document_id, delivery_id)
    ) STRICT;
    CREATE INDEX label_shipments_delivery ON label_shipments (account_id, delivery_id);
  `);
};
