/**
 * Commits that allow no side effect (a cache row, kept labels, a print job's `sent` / `done`, the
 * `closed` step, a scan's logged outcome) do not wait for the disk. The database is in WAL mode:
 * commits are appended in order and each frame carries a checksum over all before it, so the next
 * FULL commit (the step that allows the next close or the next label's first byte) syncs them
 * together with itself, and a power cut can only lose a tail of such commits, never one without
 * the ones before it. What is lost that way is what the journal already recovers from: a close
 * whose answer is not on the disk is read at the service again, labels are fetched again, a job
 * found `sending` becomes `uncertain`. Every step that allows a side effect stays a FULL commit
 * (docs/ARCHITECTURE.md "A scan, step by step").
 */
import type { Db } from './sqlite';

/** SQLite's number for `synchronous = FULL` (NORMAL is 1). */
const FULL = 2;

type LazyCommit = <T>(fn: () => T) => T;

export function createLazyCommit(db: Db): LazyCommit {
  /** The level the database was opened with (FULL; a test seam may open it weaker), restored after each lazy commit. */
  const level = db.pragma('synchronous', { simple: true }) as number;
  // Only WAL keeps the order promised above (a rollback journal under NORMAL may not).
  const wal = db.pragma('journal_mode', { simple: true }) === 'wal';
  const lazy = db.prepare('PRAGMA synchronous = NORMAL');
  const restore = db.prepare(`PRAGMA synchronous = ${level}`);
  return <T>(fn: () => T): T => {
    // Inside an outer transaction the outer commit decides.
    if (db.inTransaction || level < FULL || !wal) return db.transaction(fn)();
    lazy.run();
    try {
      return db.transaction(fn)();
    } finally {
      restore.run();
    }
  };
}
