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
  // Read afresh each time: a prepared `PRAGMA synchronous` answers the level it was prepared at
  // (SQLite compiles the value into the statement). Microseconds beside the commit's own fsync.
  const level = () => db.pragma('synchronous', { simple: true }) as number;
  const original = db.transaction.bind(db);
  // A plain function, so the transaction's `this` reaches `fn` as better-sqlite3 passes it.
  const counting = (run: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const outermost = !db.inTransaction;
      const result = run.apply(this, args);
      if (outermost && level() >= FULL) syncs++;
      return result;
    };
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = original(fn) as unknown as Tx;
    const wrapped = Object.assign(counting(tx), {
      deferred: counting(tx.deferred as Tx),
      immediate: counting(tx.immediate as Tx),
      exclusive: counting(tx.exclusive as Tx),
      default: counting(tx.default as Tx),
      database: db,
    });
    return wrapped;
  }) as Db['transaction'];
  return () => syncs;
}
