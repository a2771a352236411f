import type { Migration } from './index';

/**
 * 24: the problem shelf. A hold is a desk action (`parcel_held`: who, where, when, the reason and the
 * worker's words); `shelf_holds` names the parcel it holds (the code as scanned, the cached shipment
 * when there was one) and, once it left the shelf, the desk action that ended it (`hold_ended`:
 * closed or released). A parcel is on the shelf while its hold has no end. `supervisor` marks the
 * operators who may release a parcel without closing it.
 */
export const m024ProblemShelf: Migration = (db) => {
  db.exec(`
    CREATE TABLE shelf_holds (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      code TEXT NOT NULL,
      delivery_id INTEGER,
      held_action_id INTEGER NOT NULL REFERENCES desk_actions(id),
      ended_action_id INTEGER REFERENCES desk_actions(id)
    ) STRICT;
    CREATE INDEX shelf_holds_on ON shelf_holds (account_id, delivery_id) WHERE ended_action_id IS NULL;
    ALTER TABLE operators ADD COLUMN supervisor INTEGER NOT NULL DEFAULT 0 CHECK (supervisor IN (0, 1));
  `);
};
