/**
 * Checkpoints station.db's write-ahead log off the core's thread, so the core's
 * event loop never blocks on it. SQLite's automatic checkpoint runs inside whichever commit crosses 1,000 WAL
 * pages and copies those pages into the database file with fsyncs: that commit held the core's
 * event loop for tens of milliseconds during a sync. Here the core's connection never checkpoints
 * (wal_autocheckpoint = 0) and a worker thread (checkpointWorker.cjs) with its own connection runs
 * PASSIVE checkpoints, which never wait for or block the core's writer.
 *
 * Durability is unchanged: a commit is on the disk in the WAL once its sync is done, before
 * anything acts on it (walSync.ts), and a crash or power cut during or between checkpoints loses nothing —
 * on the next open SQLite replays the committed frames from the WAL. A checkpoint only moves pages
 * that are already durable. What must not happen is an ever-growing WAL (every read then walks a
 * bigger index, and turning checkpoints off outright made the sync slower): if the worker cannot
 * start or dies, the core's connection checkpoints automatically again; if the WAL still passes
 * limitBytes (the worker stuck), the core checkpoints it itself, and says so in the log.
 *
 * Opt-in: only the station's runtime starts it (wireStore.ts); tests and tools that open a database
 * with openDatabase get SQLite's automatic checkpoints as before.
 */
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './sqlite';

/** SQLite's default wal_autocheckpoint, in pages: the threshold the worker keeps too. */
const AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointerOptions {
  /** The database file the core's connection `db` has open. */
  file: string;
  /** The better-sqlite3 binding the core uses (sqlite.ts; undefined: node_modules'). */
  nativeBinding?: string;
  log?: { warn(message: string, fields?: Record<string, unknown>): void };
  /** How often the worker looks at the WAL's size (ms). */
  intervalMs?: number;
  /** A WAL this big means the worker is not keeping up: the core checkpoints (bytes). */
  limitBytes?: number;
}

export interface Checkpointer {
  /** Final checkpoint (the WAL emptied) and the worker's connection closed; before db.close(). */
  stop(): Promise<void>;
  /** The -wal file's size now (bytes; 0 when there is none). */
  walBytes(): number;
  /**
   * A checkpoint now on the worker's thread (the core's event loop runs meanwhile); true when it
   * copied the whole log, so the next commit restarts it (and journal_size_limit cuts the file).
   * Without a worker (fallen back, stopped) true at once: the core's own automatic checkpoints run.
   */
  drain(): Promise<boolean>;
}

/** Where the worker file is: beside this module, or in app.asar.unpacked when packaged. */
function checkpointWorkerFile(): string {
  const file = fileURLToPath(new URL('./checkpointWorker.cjs', import.meta.url));
  // A worker thread loads its file with plain Node file access, which cannot read inside app.asar.
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

function walFileStat(file: string): { size: number; mtimeMs: number } {
  try {
    // stat, never open: closing a descriptor of a database file in this process would drop
    // SQLite's POSIX locks on it.
    const s = statSync(`${file}-wal`);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return { size: 0, mtimeMs: -1 };
  }
}

export function startCheckpointer(db: Db, opts: CheckpointerOptions): Checkpointer {
  const log = opts.log;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const limitBytes = opts.limitBytes ?? 64 * 1024 * 1024;
  const workerFile = checkpointWorkerFile();
  if (!existsSync(workerFile)) {
    log?.warn('WAL checkpoints stay on the core thread: the checkpoint worker file is missing', { file: workerFile });
    return { stop: async () => {}, walBytes: () => walFileStat(opts.file).size, drain: () => Promise.resolve(true) };
  }

  let worker: Worker | null = null;
  /** When the worker last finished a look at the WAL (it says so every interval). */
  let lastWorkerTick = Date.now();
  let stopping = false;
  let onStopped: ((msg: { error?: string }) => void) | null = null;
  /** Drains asked of the worker, by id, with what settles each. */
  const drains = new Map<number, (whole: boolean) => void>();
  let drainId = 0;
  /** The worker is gone while the station runs: the core's connection checkpoints again. */
  const fallBack = (reason: string) => {
    if (!worker) return;
    worker = null;
    for (const settle of drains.values()) settle(true);
    drains.clear();
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    log?.warn('the WAL checkpoint worker stopped; the core checkpoints the database itself again', { reason });
  };

  worker = new Worker(workerFile, {
    workerData: {
      file: opts.file,
      nativeBinding: opts.nativeBinding,
      thresholdBytes: AUTOCHECKPOINT_PAGES * pageSize,
      intervalMs: opts.intervalMs ?? 250,
    },
  });
  worker.unref();
  worker.on(
    'message',
    (msg: { kind: string; message?: string; error?: string; id?: number; log?: number; checkpointed?: number }) => {
      if (msg.kind === 'tick') lastWorkerTick = Date.now();
      else if (msg.kind === 'drained') {
        drains.get(msg.id ?? -1)?.(msg.log !== undefined && msg.log >= 0 && msg.log === msg.checkpointed);
        drains.delete(msg.id ?? -1);
      } else if (msg.kind === 'stopped') onStopped?.(msg);
      else if (msg.kind === 'error') log?.warn('a WAL checkpoint in the worker failed', { error: msg.message });
    },
  );
  worker.on('error', (err) => {
    if (stopping) onStopped?.({ error: err.message });
    else fallBack(err.message);
  });
  worker.on('exit', (code) => {
    if (stopping) onStopped?.({ error: `exit ${code}` });
    else fallBack(`exit ${code}`);
  });
  // Only now: a commit of the core no longer checkpoints (a worker that fails to load its
  // connection exits, and fallBack turns the automatic checkpoints back on).
  db.pragma('wal_autocheckpoint = 0');

  // The bound: a WAL file past limitBytes that is still written while the worker has not been
  // heard from for 5 s (stuck, or gone) is checkpointed here, on the core's thread (PASSIVE).
  let lastGuardMtime = -1;
  const guard = setInterval(() => {
    if (!db.open) return;
    const { size, mtimeMs } = walFileStat(opts.file);
    if (size < limitBytes || mtimeMs === lastGuardMtime || Date.now() - lastWorkerTick < 5000) return;
    lastGuardMtime = mtimeMs;
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    log?.warn('the WAL outgrew its bound; the core checkpointed it itself', {
      walBytes: size,
      frames: r?.log,
      checkpointed: r?.checkpointed,
      worker: worker !== null,
    });
  }, 1000);
  guard.unref();

  return {
    walBytes: () => walFileStat(opts.file).size,
    drain() {
      const w = worker;
      if (!w || stopping) return Promise.resolve(true);
      const id = ++drainId;
      return new Promise<boolean>((resolve) => {
        // A worker stuck behind a long write answers late: the caller goes on after 10 s anyway.
        const late = setTimeout(() => {
          drains.delete(id);
          resolve(false);
        }, 10_000);
        late.unref();
        drains.set(id, (whole) => {
          clearTimeout(late);
          resolve(whole);
        });
        w.postMessage({ kind: 'drain', id });
      });
    },
    stop() {
      clearInterval(guard);
      for (const settle of drains.values()) settle(true);
      drains.clear();
      const w = worker;
      if (!w || stopping) return Promise.resolve();
      stopping = true;
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = (msg: { error?: string }) => {
          if (done) return;
          done = true;
          clearTimeout(timeout);
          worker = null;
          if (msg.error)
            log?.warn('the final WAL checkpoint failed; the database closes with its WAL', { error: msg.error });
          void w.terminate().then(
            () => resolve(),
            () => resolve(),
          );
        };
        onStopped = finish;
        // A worker stuck in a checkpoint does not hold up closing: the core's own close (the last
        // connection) checkpoints what is left.
        const timeout = setTimeout(() => finish({ error: 'the checkpoint worker did not answer within 10 s' }), 10_000);
        w.postMessage({ kind: 'stop' });
      });
    },
  };
}
