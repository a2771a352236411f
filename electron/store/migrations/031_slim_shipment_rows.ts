import type { Migration } from './index';

/**
 * 31: a slimmer shipment cache row. A year at 2,000 labels a day keeps ~180,000 shipments in the
 * cache (the labels window), each some 1.3 KB in its row and 0.5 KB in its indexes.
 *
 * - `shipments_list` goes: since migration 17 made `shipments` a rowid table, its primary key has
 *   an index of its own on the very same columns (account_id, delivery_id), which serves the list's
 *   order, the newest deliveryId and the address book as this one did (the same plans; ~55 bytes a
 *   shipment).
 * - From this version on, a row's `data` holds no field its columns hold (deliveryId, order and
 *   shipment numbers, state, carrier, transport, collection place, value, currency, cash on
 *   delivery, created, closed; shipmentsRepo.ts): some 270 of its ~1,000 bytes. A row written
 *   before reads the same (the columns always held the same values) and leaves with the labels
 *   window; nothing is rewritten here. The version itself keeps an older station, which would read
 *   those fields from `data`, off a database written by this one (database.ts `migrate`).
 */
export const m031SlimShipmentRows: Migration = (db) => {
  db.exec(`DROP INDEX IF EXISTS shipments_list;`);
};
