import type { Migration } from './index';

/**
 * 10: the durable journal of "close and print" (electron/workflows/closeAndPrint.ts). One entry
 * per shipment a path wants closed and/or printed; its step is committed before the side effect
 * the step allows (scan received -> resolved -> close requested -> closed -> queued), and its
 * print jobs are linked by id (journal_jobs), so a restart resumes every entry where it stopped.
 */
export const m010Journal: Migration = (db) => {
  db.exec(`
    CREATE TABLE journal_entries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('scan', 'batch', 'shipments', 'new_shipment', 'reprint')),
      scan_id INTEGER REFERENCES scan_log(id),
      code TEXT,
      delivery_id INTEGER,
      want TEXT NOT NULL CHECK (want IN ('close_and_print', 'print')),
      route TEXT,
      step TEXT NOT NULL CHECK (step IN ('received', 'resolved', 'close_requested', 'closed', 'queued', 'ended')),
      outcome TEXT,
      reason_code TEXT,
      reason TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_retry_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX journal_unfinished ON journal_entries (source, id) WHERE step NOT IN ('queued', 'ended');
    CREATE INDEX journal_delivery ON journal_entries (account_id, delivery_id) WHERE delivery_id IS NOT NULL;
    CREATE TABLE journal_jobs (
      entry_id INTEGER NOT NULL REFERENCES journal_entries(id),
      job_id INTEGER NOT NULL REFERENCES print_jobs(id),
      PRIMARY KEY (entry_id, job_id)
    ) STRICT;
    CREATE INDEX journal_jobs_job ON journal_jobs (job_id);
    CREATE TABLE journal_steps (
      entry_id INTEGER NOT NULL REFERENCES journal_entries(id),
      at TEXT NOT NULL,
      step TEXT NOT NULL,
      reason_code TEXT
    ) STRICT;
    CREATE INDEX journal_steps_entry ON journal_steps (entry_id);
  `);
};
