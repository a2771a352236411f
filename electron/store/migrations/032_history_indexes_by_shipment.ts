import type { Migration } from './index';

/**
 * 32: the journal's, the scan log's and the kept labels' index by shipment holds the deliveryId
 * alone, not the account's id before it. Every reader names both (`account_id = ? AND delivery_id
 * = ?`): the index finds the shipment's few rows and the account is checked on them, with the same
 * plans but one (the retention's look for a job's kept label, retentionRepo.ts, now by deliveryId).
 * The account's id is a UUID (36 bytes): a year at 2,000 labels a day kept 730,000 of it in each of
 * the first two indexes and 180,000 in the third, ~40 of each entry's ~55 bytes (~65 MB). A
 * deliveryId is the service's, one shipment's; two companies with the same one (two environments)
 * are told apart by the row, as before.
 */
export const m032HistoryIndexesByShipment: Migration = (db) => {
  db.exec(`
    DROP INDEX journal_delivery;
    CREATE INDEX journal_delivery ON journal_entries (delivery_id) WHERE delivery_id IS NOT NULL;
    DROP INDEX scan_log_delivery;
    CREATE INDEX scan_log_delivery ON scan_log (delivery_id) WHERE delivery_id IS NOT NULL;
    DROP INDEX label_shipments_delivery;
    CREATE INDEX label_shipments_delivery ON label_shipments (delivery_id);
  `);
};
