import type { Migration } from './index';

/**
 * 21: a print job's label bytes move to a table of their own, `print_job_bytes`, one row a job,
 * deleted by the retention after the labels window (electron/store/retentionRepo.ts, kind
 * `labelBytes`). In the job's row, emptied in place (`payload = NULL`), they freed no page: SQLite
 * shrinks a cell where it stands and merges pages only when rows are deleted, so every page of
 * print_jobs stayed as it was and the incremental vacuum had nothing to hand back (a year at
 * 2,000 labels a day: print_jobs 988 MB before and after the retention). A deleted row of a table
 * of its own leaves whole pages free, as the kept labels' parts do.
 *
 * `print_jobs` is rebuilt without the column (a dropped column's bytes would stay on the same
 * half-empty pages): the SQLite "twelve steps" for a table change, with foreign keys off around the
 * transaction (`rebuildsTables`, migrations/index.ts) since print_job_events, journal_jobs,
 * desk_actions and reprint_of name the jobs; the ids, the AUTOINCREMENT counter and every index
 * stay. On a year's database this copies ~730,000 rows once, at the start.
 */
export const m021PrintJobBytes: Migration = Object.assign(
  (db: Parameters<Migration>[0]) => {
    const seq = db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'print_jobs'`).get();
    db.exec(`
      CREATE TABLE print_job_bytes (
        job_id INTEGER PRIMARY KEY REFERENCES print_jobs(id) ON DELETE CASCADE,
        bytes BLOB NOT NULL
      ) STRICT;
      INSERT INTO print_job_bytes (job_id, bytes) SELECT id, payload FROM print_jobs WHERE payload IS NOT NULL ORDER BY id;

      CREATE TABLE print_jobs_021 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('print')),
        printer_id TEXT,
        format TEXT CHECK (format IN ('zpl', 'pdf')),
        label_ref TEXT,
        label_size TEXT,
        title TEXT NOT NULL,
        scan_code TEXT,
        delivery_ids TEXT NOT NULL DEFAULT '[]',
        barcodes TEXT NOT NULL DEFAULT '[]',
        copies INTEGER NOT NULL DEFAULT 1,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'done', 'spooled', 'failed', 'uncertain', 'unconfirmed', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        reason_code TEXT,
        reason TEXT,
        next_retry_at TEXT,
        delivered INTEGER NOT NULL DEFAULT 0,
        reprint_of INTEGER REFERENCES print_jobs(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        counter_at INTEGER,
        counter_labels INTEGER
      ) STRICT;
      INSERT INTO print_jobs_021 (id, kind, printer_id, format, label_ref, label_size, title, scan_code, delivery_ids,
        barcodes, copies, state, attempts, reason_code, reason, next_retry_at, delivered, reprint_of, created_at,
        updated_at, finished_at, counter_at, counter_labels)
      SELECT id, kind, printer_id, format, label_ref, label_size, title, scan_code, delivery_ids,
        barcodes, copies, state, attempts, reason_code, reason, next_retry_at, delivered, reprint_of, created_at,
        updated_at, finished_at, counter_at, counter_labels FROM print_jobs ORDER BY id;
      DROP TABLE print_jobs;
      ALTER TABLE print_jobs_021 RENAME TO print_jobs;
      CREATE INDEX print_jobs_lane ON print_jobs (printer_id, state, id);
      CREATE INDEX print_jobs_state ON print_jobs (state, id);
      CREATE INDEX print_jobs_reprint_of ON print_jobs (reprint_of) WHERE reprint_of IS NOT NULL;
    `);
    // A job id is never reused, even past the last job left (the queue screen and the journal name jobs by id).
    if (
      seq &&
      db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'print_jobs'`).run(seq.seq).changes === 0
    )
      db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES ('print_jobs', ?)`).run(seq.seq);
  },
  { rebuildsTables: true },
);
