/**
 * Counts the commits of the station's database that waited for the disk: transactions committed
 * while `synchronous` is FULL (lazyCommit.ts lowers it to NORMAL around commits that need no sync).
 * better-sqlite3 has no commit hook, so the connection's `transaction` is wrapped once, before any
 * repository takes it; a single statement outside a transaction (rare on the station's paths) is
 * not counted. The metrics endpoint shows the count (label_station_disk_syncs_total).
 */
import type { Db } from './sqlite';

/** SQLite's number for `synchronous = FULL`. */
const FULL = 2;

type Tx = ((...args: unknown[]) => unknown) & Record<'deferred' | 'immediate' | 'exclusive' | 'default', unknown>;

export function countDiskSyncs(db: Db): () => number {
  let syncs = 0;
  const level = db.prepare('PRAGMA synchronous').pluck();
  const original = db.transaction.bind(db);
  const counting =
    (run: (...args: unknown[]) => unknown) =>
    (...args: unknown[]): unknown => {
      const outermost = !db.inTransaction;
      const result = run(...args);
      if (outermost && (level.get() as number) >= FULL) syncs++;
      return result;
    };
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = original(fn) as unknown as Tx;
    const wrapped = Object.assign(counting(tx), {
      deferred: counting(tx.deferred as Tx),
      immediate: counting(tx.immediate as Tx),
      exclusive: counting(tx.exclusive as Tx),
      default: counting(tx.default as Tx),
    });
    return wrapped;
  }) as Db['transaction'];
  return () => syncs;
}
