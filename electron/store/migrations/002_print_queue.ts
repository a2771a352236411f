import type { Migration } from './index';

/**
 * Printers and the durable print queue. A job row is committed before its first byte leaves;
 * print_job_events keeps each job's history for the queue screen.
 */
export const mPrintQueue: Migration = (db) => {
  db.exec(`CREATE TABLE printers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    connection TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`);
  db.exec(`CREATE TABLE print_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('print')),
    printer_id TEXT,
    format TEXT CHECK (format IN ('zpl', 'pdf')),
    payload BLOB,
    label_ref TEXT,
    label_size TEXT,
    title TEXT NOT NULL,
    scan_code TEXT,
    delivery_ids TEXT NOT NULL DEFAULT '[]',
    barcodes TEXT NOT NULL DEFAULT '[]',
    copies INTEGER NOT NULL DEFAULT 1,
    state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'done', 'failed', 'uncertain', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    reason_code TEXT,
    reason TEXT,
    next_retry_at TEXT,
    delivered INTEGER NOT NULL DEFAULT 0,
    reprint_of INTEGER REFERENCES print_jobs(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
  ) STRICT`);
  db.exec(`CREATE INDEX print_jobs_lane ON print_jobs (printer_id, state, id)`);
  db.exec(`CREATE INDEX print_jobs_state ON print_jobs (state, id)`);
  db.exec(`CREATE TABLE print_job_events (
    job_id INTEGER NOT NULL REFERENCES print_jobs(id),
    at TEXT NOT NULL,
    state TEXT NOT NULL,
    reason_code TEXT,
    reason TEXT
  ) STRICT`);
  db.exec(`CREATE INDEX print_job_events_job ON print_job_events (job_id)`);
};
