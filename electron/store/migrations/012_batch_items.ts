import type { Migration } from './index';

/**
 * 12: the batch list (Station screen, F5) is kept on the disk: a code the worker collected is
 * acknowledged by appearing in the list, so a crash or a restart must not drop it. Rows leave
 * when the batch closes them (in the commit that creates their journal entries) or when the
 * worker removes them.
 */
export const m012BatchItems: Migration = (db) => {
  db.exec(`
    CREATE TABLE batch_items (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      code TEXT NOT NULL UNIQUE,
      scan_id INTEGER REFERENCES scan_log(id),
      item TEXT NOT NULL
    ) STRICT;
  `);
};
