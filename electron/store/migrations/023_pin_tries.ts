import type { Migration } from './index';

/**
 * 23: a worker's wrong PINs in a row and the end of their wait, kept with the worker. In memory
 * they were gone with a restart, so a station stopped and started again (or a core the supervisor
 * restarted) gave five more guesses at once; a lock now outlives the process that set it.
 */
export const m023PinTries: Migration = (db) => {
  db.exec(`
    ALTER TABLE operators ADD COLUMN pin_wrong_in_row INTEGER NOT NULL DEFAULT 0 CHECK (pin_wrong_in_row >= 0);
    ALTER TABLE operators ADD COLUMN pin_locked_until TEXT;
  `);
};
