import type { Migration } from './index';

/**
 * 15: a print job keeps where the printer's label counter stood when its first label was to begin
 * (`counter_at`) and how many labels it prints (`counter_labels`), written with its `sending`
 * commit, before its first byte leaves. A job a crash or a lost connection
 * left uncertain is settled from the printer's counter: printed once it reached counter_at +
 * counter_labels. Null on printers without a counter and on every earlier job.
 */
export const m015JobLabelCounter: Migration = (db) => {
  db.exec(`
    ALTER TABLE print_jobs ADD COLUMN counter_at INTEGER;
    ALTER TABLE print_jobs ADD COLUMN counter_labels INTEGER;
  `);
};
