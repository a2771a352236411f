import type { Migration } from './index';

/**
 * 27: kept labels' parts and print jobs' bytes may be stored deflated (store/packedBytes.ts):
 * `size` is their length before, NULL for bytes kept as they are (every row written before).
 * Only new rows are deflated; the old ones leave with the labels window as before.
 */
export const m027PackedLabelBytes: Migration = (db) => {
  db.exec(`
    ALTER TABLE label_parts ADD COLUMN size INTEGER;
    ALTER TABLE print_job_bytes ADD COLUMN size INTEGER;
  `);
};
