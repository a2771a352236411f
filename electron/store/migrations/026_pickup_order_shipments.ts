import type { Migration } from './index';

/**
 * 26: a pick-up order's shipments are rows of their own (`pickup_order_shipments`), one per
 * shipment, instead of a JSON list in the order's row. Every close of the day returns the same
 * order (one row per carrier, place and day), so the list grew by one shipment a scan: at 20,000
 * scans a shift each close parsed, sorted and wrote back a 140 kB list, in the close's commit, on
 * the core's event loop (the longest stalls of a shift, and its write-ahead log's growth). A
 * shipment is now one insert. The orders' lists move over once, at the start.
 */
export const m026PickupOrderShipments: Migration = (db) => {
  db.exec(`
    CREATE TABLE pickup_order_shipments (
      order_id INTEGER NOT NULL REFERENCES pickup_orders (id) ON DELETE CASCADE,
      delivery_id INTEGER NOT NULL,
      PRIMARY KEY (order_id, delivery_id)
    ) STRICT, WITHOUT ROWID;
    INSERT OR IGNORE INTO pickup_order_shipments (order_id, delivery_id)
      SELECT o.id, j.value FROM pickup_orders o, json_each(o.delivery_ids) j;
    ALTER TABLE pickup_orders DROP COLUMN delivery_ids;
  `);
};
