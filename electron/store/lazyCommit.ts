/**
 * Commits that allow no side effect (a cache row, kept labels, a print job's `sent` / `done`, the
 * `closed` step, a scan's logged outcome) are owed no sync of the write-ahead log (walSync.ts):
 * nothing waits for them. The database is in WAL mode: commits are appended in order and each
 * frame carries a checksum over all before it, so the next sync (before the next close or the
 * next label's first byte) takes them with it, and a power cut can only lose a tail of such
 * commits, never one without the ones before it. What is lost that way is what the journal
 * already recovers from: a close whose answer is not on the disk is read at the service again,
 * labels are fetched again, a job found `sending` becomes `uncertain`. Every step that allows a
 * side effect is owed a sync, awaited before the effect (docs/ARCHITECTURE.md "A scan, step by step").
 */
import type { Db } from './sqlite';
import { lazily } from './walSync';

type LazyCommit = <T>(fn: () => T) => T;

export function createLazyCommit(db: Db): LazyCommit {
  // Inside an outer transaction the outer commit decides (walSync.ts counts outermost commits only).
  return <T>(fn: () => T): T => lazily(db, () => db.transaction(fn)());
}
