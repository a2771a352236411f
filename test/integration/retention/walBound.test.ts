/**
 * The write-ahead log stays bounded while the retention runs (issue 40: turning retention on over
 * most of a year grew station.db-wal to 1.5–2.1 GB, and it stayed that size until the station
 * stopped). Real parts: station.db opened as the station opens it (WAL, synchronous = NORMAL,
 * journal_size_limit), the real checkpoint worker thread, the retention over scans written through
 * the store's own functions, with label bytes of a real size interleaved with their jobs, steps
 * and scans (as a desk writes them), so freeing them moves pages and writes the log.
 *
 * The bound here is 2 MB rather than the station's 64 MB (WAL_SIZE_LIMIT_BYTES) so the test needs
 * 60 MB of labels instead of a year; the rule is the same: SQLite cuts the -wal file back to
 * journal_size_limit on the first commit after the log restarts (sqlite.org/pragma.html
 * #pragma_journal_size_limit), and the log restarts only after a checkpoint copied all of it
 * (sqlite.org/wal.html "Checkpointing"), which the run waits for whenever the file passed the bound.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRetention } from '../../../electron/retention/retention';
import { startCheckpointer, type Checkpointer } from '../../../electron/store/checkpointer';
import { openDatabase, WAL_SIZE_LIMIT_BYTES, type Db } from '../../../electron/store/database';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { steppableClock } from '../../support/steppableClock';

const DAY = 86_400_000;
const BOUND = 2 * 1024 * 1024;
const LABELS = 20_000;
const log = { info: () => undefined, error: () => undefined };

let dir: string;
let file: string;
let db: Db;
let checkpointer: Checkpointer;

const walBytes = () => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

/** A desk's scans with their printed labels (3 KB of ZPL each), days ago. */
function fillDesk(at: Date) {
  const journal = createJournalRepo(db, createScanLogRepo(db));
  const jobs = createPrintJobsRepo(db);
  // Bytes that do not deflate (as a label's image field may not): 3 KB on the disk each (store/packedBytes.ts).
  const label = randomBytes(3000);
  db.transaction(() => {
    for (let n = 0; n < LABELS; n++) {
      const { entry } = journal.receiveScan({ accountId: 'acc', code: `ORD-${n}`, rawCode: null, at });
      journal.step([entry.id], 'resolved', at, { deliveryId: 1000 + n });
      journal.step([entry.id], 'closed', at);
      const j = jobs.insert(
        { kind: 'print', printerId: 'zebra', format: 'zpl', payload: label, title: `Štítek ${n}` },
        at,
      );
      journal.queued(entry.id, [j.id], at);
      for (const s of ['sending', 'sent', 'done'] as const) jobs.setState(j.id, s, at);
    }
  })();
  journal.settleScanLog();
  db.pragma('wal_checkpoint(TRUNCATE)');
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-walbound-'));
  file = path.join(dir, 'station.db');
  db = openDatabase(file);
});
afterEach(async () => {
  await checkpointer?.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the write-ahead log while the retention runs', () => {
  it('the station opens its database with the log cut back to its bound after each restart', () => {
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
  });

  it('stays near its bound through a run that frees 60 MB of labels, and is cut back to it afterwards', async () => {
    const clock = steppableClock();
    fillDesk(clock.now());
    db.pragma(`journal_size_limit = ${BOUND}`);
    checkpointer = startCheckpointer(db, { file, intervalMs: 250 });
    const pagesBefore = db.pragma('page_count', { simple: true }) as number;
    let largest = 0;
    const retention = createRetention({
      db,
      settings: createSettingsRepo(db),
      clock,
      dataDir: dir,
      log,
      wal: { walBytes: checkpointer.walBytes, drain: checkpointer.drain, limitBytes: BOUND },
      betweenSlices: async () => {
        largest = Math.max(largest, walBytes());
        await new Promise((r) => setImmediate(r));
      },
    });
    clock.advance(91 * DAY);
    await retention.run();
    largest = Math.max(largest, walBytes());
    // The labels went and their pages went back to the disk: the run did its work.
    expect(db.prepare('SELECT count(*) AS n FROM print_job_bytes').get()).toEqual({ n: 0 });
    expect(db.pragma('page_count', { simple: true }) as number).toBeLessThan(pagesBefore / 2);
    // Never far past the bound: one slice (200 rows) or one step of the vacuum (1 MB) over it.
    expect(largest).toBeLessThan(BOUND + 3 * 1024 * 1024);
    // And not left large: the next commit after the last checkpoint cuts the file back.
    await checkpointer.drain();
    createSettingsRepo(db).set('walbound.probe', { at: 1 }, clock.now());
    expect(walBytes()).toBeLessThanOrEqual(BOUND);
  }, 180_000);
});
