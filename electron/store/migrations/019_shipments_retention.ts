import type { Migration } from './index';

/**
 * 19: the shipment cache's retention (electron/store/retentionRepo.ts, kind `shipments`).
 *
 * - `shipments_final`: the retention walks only shipments the service can no longer change
 *   (delivered 3/5, returned 4/6, cancelled 10), in deliveryId order (ids rise with time). A
 *   partial index: the open and in-transit shipments, which stay, are never read by the walk.
 * - `pruned_package_barcodes`: the package barcodes of shipments the retention removed. The
 *   service cannot be searched by package barcode (spec "GET /api/v3/deliveries": no such
 *   filter), so without them a parcel scanned by its package label a year later could not be
 *   found again; with them the lookup asks the service for that deliveryId. A few dozen bytes a
 *   package against the ~2 KB of a cached shipment with its search row.
 */
export const m019ShipmentsRetention: Migration = (db) => {
  db.exec(`
    CREATE INDEX shipments_final ON shipments (delivery_id, account_id) WHERE state IN (3, 4, 5, 6, 10);
    CREATE TABLE pruned_package_barcodes (
      account_id TEXT NOT NULL,
      barcode TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      PRIMARY KEY (account_id, barcode, delivery_id)
    ) STRICT, WITHOUT ROWID;
  `);
};
