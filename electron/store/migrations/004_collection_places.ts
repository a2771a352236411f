import type { Migration } from './index';

/**
 * 4: the company's collection places (spec "Collection place" record), per account. A place the
 * service no longer lists as active is kept with active = 0 so old shipments still show its name.
 */
export const m004CollectionPlaces: Migration = (db) => {
  db.exec(`
    CREATE TABLE collection_places (
      account_id TEXT NOT NULL,
      identificator TEXT NOT NULL,
      name TEXT,
      email TEXT,
      phone TEXT,
      contact_person TEXT,
      state TEXT,
      city TEXT,
      street TEXT,
      postal_code TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      synced_at TEXT NOT NULL,
      PRIMARY KEY (account_id, identificator)
    ) STRICT;
  `);
};
