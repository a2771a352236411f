/**
 * Retention: the desk's old data leaves in the background, in small slices, and the
 * file gives the space back. A run takes each kind of data (electron/store/retentionRepo.ts) in
 * slices of about SLICE_MS (the rows sized by the last slice's time, never more than a bound),
 * each slice one short transaction, with a turn of the event loop between slices and the desk's
 * scans first, so a scan never waits behind more than one short slice. Then the freed pages are
 * handed back with `PRAGMA incremental_vacuum` a few hundred kilobytes at a time (the database is
 * in auto_vacuum=INCREMENTAL mode, store/database.ts).
 *
 * The time comes from the station's Clock; a run starts every hour (the first an hour after the
 * start: a desk's busiest moment is its start) and when the settings change.
 */
import { readdir, lstat } from 'node:fs/promises';
import path from 'node:path';
import {
  defaultRetentionSettings,
  retentionSettings,
  type RetentionSettings,
  type RetentionStatus,
} from '../../shared/contract/retention';
import type { Clock } from '../base/clock';
import { nextTurn, sliceSizer } from '../base/slices';
import type { Db } from '../store/database';
import { createRetentionRepo, type RetentionKind } from '../store/retentionRepo';
import type { SettingsRepo } from '../store/settingsRepo';

const SETTINGS_KEY = 'retention.settings';
const LAST_RUN_KEY = 'retention.lastRun';
const DAY_MS = 86_400_000;
/** The most rows one slice looks at: a short transaction (a scan waits behind one slice at most). */
const ROWS_PER_SLICE = 200;
/** The most pages handed back per step (4 KiB pages: 1 MiB). */
const VACUUM_PAGES_PER_STEP = 256;
const RUN_EVERY_MS = 60 * 60_000;

export interface RetentionOptions {
  db: Db;
  settings: SettingsRepo;
  clock: Clock;
  dataDir: string;
  log: { info(msg: string, meta?: object): void; error(msg: string, meta?: object): void };
  kinds?: readonly RetentionKind[];
  rowsPerSlice?: number;
  /** The camera's photos: their files swept after the rows went (days before `beforeDay`), and their usage for Status. */
  photos?: { sweep(beforeDay: string): Promise<number>; usage(): { count: number; bytes: number } };
  /** What runs between slices (a turn of the event loop); a test seam to stop a run part-way. */
  betweenSlices?: () => Promise<void>;
  /**
   * The write-ahead log's bound (store/checkpointer.ts): a run writes every page it frees and moves,
   * faster than checkpoints on another thread copy them back, so between slices the run waits for
   * a checkpoint whenever the -wal file has passed `limitBytes`. Without it the file grew to 2 GB
   * during a first run over a year of data.
   */
  wal?: { walBytes(): number; drain(): Promise<boolean>; limitBytes: number };
  /**
   * Scans at the desk (the scan lane, electron/workflows/scanToClose.ts): between slices the run
   * waits while one is on its way to its label, up to `scanWaitMs` a slice. A scan's steps then
   * never queue behind the run's slices, nor its commits behind their pages in the -wal file: on a
   * year's database a run in full swing made scans 3-4x slower (docs/benchmarks/yearAtDesk.md).
   * Bounded, so a desk that never stops scanning still sees the run go on, a slice at a time.
   */
  scans?: { inWork(): boolean };
  /** The longest a slice waits for the desk's scans (ms). */
  scanWaitMs?: number;
}

/** The longest the run waits for scans before its next slice: a slice every second under a steady stream of scans. */
const SCAN_WAIT_MS = 1000;
/** How often the run looks again whether a scan is still in work (ms). */
const SCAN_POLL_MS = 5;

/** Checkpoints a run waits for in a row before it stops (the next hour's run goes on). */
const WAL_DRAIN_TRIES = 20;

class WalNotDraining extends Error {}

/** Bytes of every file under `dir` (a file that vanishes meanwhile counts nothing). */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile())
      total += await lstat(p).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

export function createRetention(opts: RetentionOptions) {
  const repo = createRetentionRepo(opts.db, opts.kinds);
  const rows = opts.rowsPerSlice ?? ROWS_PER_SLICE;
  const turn = opts.betweenSlices ?? nextTurn;
  /** A turn of the event loop, the desk's scans first, and a checkpoint whenever the log passed its bound. */
  const scanWaitMs = opts.scanWaitMs ?? SCAN_WAIT_MS;
  const between = async () => {
    await turn();
    if (opts.scans?.inWork()) {
      const until = performance.now() + scanWaitMs;
      while (!stopping && opts.scans.inWork() && performance.now() < until)
        await new Promise((r) => setTimeout(r, SCAN_POLL_MS));
    }
    const wal = opts.wal;
    if (!wal || wal.walBytes() <= wal.limitBytes) return;
    for (let i = 0; i < WAL_DRAIN_TRIES; i++) {
      // Copied whole: the next slice's commit restarts the log and cuts the file back.
      if (await wal.drain()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new WalNotDraining('the write-ahead log cannot be checkpointed (a long reader?); the next run goes on');
  };
  let running: Promise<number> | null = null;
  let stopping = false;

  function settings(): RetentionSettings {
    const parsed = retentionSettings.safeParse(opts.settings.get(SETTINGS_KEY) ?? defaultRetentionSettings);
    return parsed.success ? parsed.data : defaultRetentionSettings;
  }

  async function runOnce(): Promise<number> {
    const s = settings();
    const now = opts.clock.now();
    repo.beginRun();
    let removed = 0;
    for (const kind of repo.kinds) {
      const days = kind.window === 'labels' ? s.labelsDays : s.historyDays;
      if (days === 0) continue;
      const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
      const sizer = sliceSizer(Math.min(rows, kind.maxRowsPerSlice ?? rows));
      for (;;) {
        if (stopping) return removed;
        const r = sizer.timed((n) => repo.slice(kind.name, cutoff, n, opts.clock.now()));
        removed += r.removed;
        await between();
        if (r.done) break;
      }
    }
    if (!stopping && repo.searchMergeDue()) {
      while (!stopping && repo.searchMergeStep(opts.clock.now())) await between();
    }
    if (opts.photos && s.labelsDays > 0 && !stopping) {
      // A day's folder goes once the whole day is past the window.
      const beforeDay = new Date(now.getTime() - s.labelsDays * DAY_MS).toISOString().slice(0, 10);
      removed += await opts.photos.sweep(beforeDay);
    }
    const pages = sliceSizer(VACUUM_PAGES_PER_STEP);
    while (!stopping && repo.freePages() > 0) {
      pages.timed((n) => repo.vacuumStep(n));
      await between();
    }
    if (stopping) return removed;
    opts.settings.set(LAST_RUN_KEY, { finishedAt: opts.clock.now().toISOString(), removed }, opts.clock.now());
    if (removed) opts.log.info('retention removed old data', { removed });
    return removed;
  }

  const retention = {
    settings,
    /** One run (or the one under way): resolves with the rows it removed or emptied. */
    run(): Promise<number> {
      if (!running) {
        running = runOnce()
          .catch((err: unknown) => {
            if (!(err instanceof WalNotDraining)) throw err;
            opts.log.error('the retention run stopped: its write-ahead log is not being checkpointed', {
              walBytes: opts.wal?.walBytes(),
            });
            return 0;
          })
          .finally(() => {
            running = null;
          });
      }
      return running;
    },
    /** Runs every hour on the station's clock; returns the stop. */
    start(): () => void {
      return opts.clock.setInterval(() => {
        retention
          .run()
          .catch((err: unknown) =>
            opts.log.error('the retention run failed', { error: err instanceof Error ? err.message : String(err) }),
          );
      }, RUN_EVERY_MS);
    },
    /** Lets a run under way stop after its current slice (before the database closes). */
    async stop(): Promise<void> {
      stopping = true;
      await running?.catch(() => undefined);
    },
    async status(): Promise<RetentionStatus> {
      return {
        settings: settings(),
        dataFolderBytes: await folderBytes(opts.dataDir),
        photos: opts.photos?.usage() ?? { count: 0, bytes: 0 },
        lastRun: opts.settings.get<{ finishedAt: string; removed: number }>(LAST_RUN_KEY) ?? null,
      };
    },
    handlers: {
      'retention.get': () => retention.status(),
      'retention.set': (next: RetentionSettings): RetentionSettings => {
        const s = retentionSettings.parse(next);
        opts.settings.set(SETTINGS_KEY, s, opts.clock.now());
        // A shorter window applies now, in the background.
        retention
          .run()
          .catch((err: unknown) =>
            opts.log.error('the retention run failed', { error: err instanceof Error ? err.message : String(err) }),
          );
        return s;
      },
    },
  };
  return retention;
}

export type Retention = ReturnType<typeof createRetention>;
