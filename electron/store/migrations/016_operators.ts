import type { Migration } from './index';

/**
 * 16: who packed it. `operators` are the workers a desk admin registered (a badge code, a PIN kept
 * only as a salted hash, or both); `removed_at` keeps a removed worker's name for the history.
 * A journal entry records the operator signed in when it began (a scan: the one who scanned) and the
 * desk's name; its steps are that person's even when the background finishes them later. What a
 * person does to something that already exists (a reprint and its reason, a job cancelled or sent
 * again, a parcel cancelled, a sign-in or sign-out) is a row of `desk_actions` with its own operator.
 */
export const m016Operators: Migration = (db) => {
  db.exec(`
    CREATE TABLE operators (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      badge TEXT,
      pin_hash TEXT,
      created_at TEXT NOT NULL,
      removed_at TEXT
    ) STRICT;
    CREATE UNIQUE INDEX operators_badge ON operators (badge) WHERE badge IS NOT NULL AND removed_at IS NULL;
    ALTER TABLE journal_entries ADD COLUMN operator_id INTEGER REFERENCES operators(id);
    ALTER TABLE journal_entries ADD COLUMN desk TEXT;
    CREATE TABLE desk_actions (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      desk TEXT NOT NULL,
      operator_id INTEGER REFERENCES operators(id),
      action TEXT NOT NULL,
      account_id TEXT,
      delivery_id INTEGER,
      entry_id INTEGER REFERENCES journal_entries(id),
      job_id INTEGER REFERENCES print_jobs(id),
      reason_code TEXT,
      note TEXT
    ) STRICT;
    CREATE INDEX desk_actions_delivery ON desk_actions (account_id, delivery_id) WHERE delivery_id IS NOT NULL;
    CREATE INDEX desk_actions_at ON desk_actions (at);
    CREATE INDEX journal_entries_created ON journal_entries (created_at);
  `);
};
