import type { Migration } from './index';

/**
 * 20: the carrier of a journal entry whose shipment left the cache. The shipment cache now follows
 * the labels window (retentionRepo.ts, kind `shipments`) while the journal keeps the history
 * window; the statistics count labels per carrier over the whole history, so the retention copies
 * the cached shipment's carrier (`agent`) onto the entries that name it before the row goes.
 * Null while the shipment is cached (the statistics read it there).
 */
export const m020JournalCarrier: Migration = (db) => {
  db.exec(`ALTER TABLE journal_entries ADD COLUMN carrier TEXT`);
};
