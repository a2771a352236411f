/**
 * The journal's promise over a power cut, kept off the event loop. The database commits at
 * `synchronous = NORMAL` (database.ts): in WAL mode a commit only appends its frames to the -wal
 * file, which stays consistent over a power cut but may lose its newest commits ("WAL mode is
 * always consistent with synchronous=NORMAL, but WAL mode does lose durability": SQLite's
 * `PRAGMA synchronous`). A commit at FULL made the same frames durable with an fsync inside the
 * commit, on the core's event loop (60 % of the worst stall of the shift benchmark).
 *
 * Here the -wal file is synced by libuv's thread pool instead (`fdatasync`), and what acts on a
 * commit waits for it first: `durable()` resolves once every commit made so far is on the disk.
 * The side effects that wait are the close request and every other change asked of the service
 * (api/core.ts), a label's first byte (queue/printQueue.ts), a scan's acknowledgement
 * (workflows/scan/receive.ts, batch mode's collect) and every answer of the RPC server after a
 * call that committed (rpc/rpcServer.ts: the set-ups Settings saves). WAL frames are appended in
 * order with checksums over all before them, so one sync covers every commit before it, and
 * waiters share a sync (group commit): one in flight covers those who committed before it began;
 * later ones share the next.
 *
 * Commits that allow no side effect (lazyCommit.ts) are not owed a sync: they ride on the next one.
 * Commits are counted by wrapping the connection's `transaction` once (better-sqlite3 has no commit
 * hook), before any repository takes it; a write outside a transaction is seen by SQLite's
 * total_changes() moving, and owed a sync too.
 */
import * as fs from 'node:fs';
import type { Db } from './sqlite';

type Tx = ((...args: unknown[]) => unknown) & Record<'deferred' | 'immediate' | 'exclusive' | 'default', unknown>;

export interface WalSync {
  /** Resolves once every commit made so far (but lazy ones, which need not) is on the disk. */
  durable(): Promise<void>;
  /** Runs `fn`; if it committed anything owed a sync, its result waits for the sync. */
  afterCommits<T>(fn: () => Promise<T>): Promise<T>;
  /** Syncs of the -wal file so far (the metrics). */
  syncs(): number;
  /** Closes the file handle after a sync in flight (before the connection closes; the last one deletes the file). */
  close(): Promise<void>;
}

interface Tracker {
  lazy: number;
}
const trackers = new WeakMap<Db, Tracker>();

/** Runs `commit` as a commit no side effect waits on (lazyCommit.ts): it is owed no sync of its own. */
export function lazily<T>(db: Db, commit: () => T): T {
  const t = trackers.get(db);
  if (!t) return commit();
  t.lazy++;
  try {
    return commit();
  } finally {
    t.lazy--;
  }
}

export function trackWal(db: Db, walFile: string): WalSync {
  const tracker: Tracker = { lazy: 0 };
  trackers.set(db, tracker);
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  /** Commits owed a sync so far, and how many of them the last finished sync covered. */
  let owed = 0;
  let synced = 0;
  let changesSeen = totalChanges.get() as number;
  /** A write outside the tracked transactions since the last look is owed a sync too. */
  const foldUntracked = (): void => {
    const now = totalChanges.get() as number;
    if (now !== changesSeen) owed++;
    changesSeen = now;
  };

  const original = db.transaction.bind(db);
  // A plain function, so the transaction's `this` reaches `fn` as better-sqlite3 passes it.
  const counting = (run: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const outermost = !db.inTransaction;
      if (!outermost) return run.apply(this, args);
      foldUntracked();
      try {
        const result = run.apply(this, args);
        if (!tracker.lazy) owed++;
        return result;
      } finally {
        // A rolled-back transaction's rows still count in total_changes(): seen, owed nothing.
        changesSeen = totalChanges.get() as number;
      }
    };
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = original(fn) as unknown as Tx;
    return Object.assign(counting(tx), {
      deferred: counting(tx.deferred as Tx),
      immediate: counting(tx.immediate as Tx),
      exclusive: counting(tx.exclusive as Tx),
      default: counting(tx.default as Tx),
      database: db,
    });
  }) as Db['transaction'];

  let fd: number | null = null;
  let syncs = 0;
  let running: Promise<void> | null = null;
  let runningCovers = 0;
  let next: { promise: Promise<void>; resolve(): void; reject(err: unknown): void } | null = null;

  function fdatasync(): Promise<void> {
    return new Promise((resolve, reject) => {
      try {
        // The file exists once anything was committed (WAL mode); opened for writing, as Windows'
        // FlushFileBuffers needs. An fsync of any descriptor of a file syncs the file.
        fd ??= fs.openSync(walFile, 'r+');
      } catch (err) {
        reject(named(err));
        return;
      }
      fs.fdatasync(fd, (err) => (err ? reject(named(err)) : resolve()));
    });
  }
  /** The path on the error, so the storage-failure check knows it is the data folder's disk. */
  const named = (err: unknown): Error => {
    const e = err instanceof Error ? err : new Error(String(err));
    if (!('path' in e)) Object.assign(e, { path: walFile });
    return e;
  };

  function startSync(): Promise<void> {
    const covers = owed;
    runningCovers = covers;
    const run = fdatasync()
      .then(() => {
        synced = Math.max(synced, covers);
        syncs++;
      })
      .finally(() => {
        running = null;
        const waiting = next;
        next = null;
        if (waiting) startSync().then(waiting.resolve, waiting.reject);
      });
    running = run;
    return run;
  }

  function durable(): Promise<void> {
    foldUntracked();
    if (synced >= owed) return Promise.resolve();
    if (!running) return startSync();
    if (runningCovers >= owed) return running;
    // The sync in flight began before this commit: the next one, shared by all who come meanwhile.
    if (!next) {
      let resolve!: () => void;
      let reject!: (err: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      next = { promise, resolve, reject };
    }
    return next.promise;
  }

  return {
    durable,
    async afterCommits(fn) {
      foldUntracked();
      const before = owed;
      try {
        return await fn();
      } finally {
        foldUntracked();
        // A failed call's answer waits too: what it committed before it failed is told as well.
        if (owed !== before) await durable();
      }
    },
    syncs: () => syncs,
    async close() {
      while (running) await running.catch(() => undefined);
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}
