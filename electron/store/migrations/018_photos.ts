import type { Migration } from './index';

/**
 * 18: proof of packing. A desk camera's still of the open parcel, taken when its scan was received
 * (`scan`) and, if the desk wants it, when its label was printed (`printed`). The JPEG itself is a
 * file in the data folder (`file`, relative to it: photos/YYYY-MM-DD/…jpg); the row links it to the
 * scan's journal entry, whose account and delivery say which parcel it shows (a scan's delivery is
 * known only after its lookup, so it is read through the entry, never copied). Desk and operator
 * are those at the desk when the photo was taken.
 */
export const m018Photos: Migration = (db) => {
  db.exec(`
    CREATE TABLE photos (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      entry_id INTEGER NOT NULL REFERENCES journal_entries(id),
      scan_id INTEGER NOT NULL REFERENCES scan_log(id),
      kind TEXT NOT NULL CHECK (kind IN ('scan', 'printed')),
      taken_at TEXT NOT NULL,
      file TEXT NOT NULL UNIQUE,
      bytes INTEGER NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      desk TEXT NOT NULL,
      operator_id INTEGER REFERENCES operators(id)
    ) STRICT;
    CREATE INDEX photos_entry ON photos (entry_id);
    CREATE INDEX photos_taken ON photos (taken_at);
    CREATE INDEX photos_scan ON photos (scan_id);
  `);
};
