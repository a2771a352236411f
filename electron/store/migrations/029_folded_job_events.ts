import type { Migration } from './index';

/**
 * 29: a print job's history past the labels window is one row, `print_job_history`: its events
 * (queued, sending, sent, done and any others, with their reasons) as a compact JSON list
 * (store/jobHistory.ts), folded by the retention (store/retentionRepo.ts, kind `jobEvents`) from
 * the rows of `print_job_events`, which are deleted. The queue screen's history of a job and the
 * parcel's trail read both (printJobsRepo.history, auditTrailRepo) and show the same steps at the
 * same times. A year at 2,000 labels a day kept four event rows and their index entries for each
 * of 730,000 jobs (163 MB); a folded job's history is some 60 bytes. It goes with its job (ON DELETE
 * CASCADE) after the history window.
 */
export const m029FoldedJobEvents: Migration = (db) => {
  db.exec(`
    CREATE TABLE print_job_history (
      job_id INTEGER PRIMARY KEY REFERENCES print_jobs (id) ON DELETE CASCADE,
      events TEXT NOT NULL
    ) STRICT;
  `);
};
