import type { Migration } from './index';

/**
 * 30: a settled journal entry's steps past the labels window are one row, `journal_history`: its
 * steps (received, resolved, close requested, closed, queued and the desk's notes, with their
 * reason codes) as a compact JSON list (store/journalHistory.ts), folded by the retention
 * (store/retentionRepo.ts, kind `journalSteps`) from the rows of `journal_steps`, which are deleted.
 * An entry still open (before `queued`, or its label waiting) is never folded: the journal's
 * recovery after a restart reads only those. The parcel's trail, the statistics and the workflows'
 * "closed here" read both forms. A year at 2,000 labels a day kept five step rows and their index
 * entries for each of 730,000 entries (~207 MB); a folded entry's steps are some 80 bytes. The row
 * leaves with its entry after the history window.
 */
export const m030FoldedJournalSteps: Migration = (db) => {
  db.exec(`
    CREATE TABLE journal_history (
      entry_id INTEGER PRIMARY KEY REFERENCES journal_entries (id) ON DELETE CASCADE,
      steps TEXT NOT NULL
    ) STRICT;
  `);
};
