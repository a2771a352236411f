/**
 * The journal's store: a scan and its entry are one commit; steps keep their history; jobs are
 * linked by id.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';

const t0 = new Date('2026-11-24T08:00:00Z');

function fresh() {
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'journal-')), 'station.db'));
  const scanLog = createScanLogRepo(db);
  return { db, scanLog, journal: createJournalRepo(db, scanLog), jobs: createPrintJobsRepo(db) };
}

describe('the journal store', () => {
  it('opens the station database in WAL mode at synchronous = NORMAL: a commit syncs nothing on the event loop', () => {
    const { db } = fresh();
    // 1 is NORMAL (0 OFF, 2 FULL, 3 EXTRA). What acts on a commit awaits the -wal file's sync
    // first (store/walSync.ts; on a lossy disk: test/integration/station/syncBeforeActing.test.ts).
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it("keeps a job's history through its sent / done (commits nothing waits for)", () => {
    const { db, jobs } = fresh();
    const job = jobs.insert(
      {
        kind: 'print',
        printerId: 'tiskárna-1',
        format: 'zpl',
        payload: Buffer.from('^XA^FDŽluťoučký kůň^FS^XZ'),
        title: 'Štítek 1',
      },
      t0,
    );
    jobs.setState(job.id, 'sending', t0, { attempt: true });
    jobs.setState(job.id, 'sent', t0, { delivered: true, noSideEffect: true });
    jobs.transaction(() => jobs.setState(job.id, 'done', t0, { delivered: true, noSideEffect: true }));
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(jobs.history(job.id).map((h) => h.state)).toEqual(['queued', 'sending', 'sent', 'done']);
  });

  it('commits a scan with its log row: both exist, or neither (a failed insert leaves no scan log row)', () => {
    const { db, journal, scanLog } = fresh();
    const { scanId, entry } = journal.receiveScan({
      accountId: 'a1',
      code: 'ŽLUŤOUČKÝ-1',
      rawCode: ']C1ŽLUŤOUČKÝ-1',
      at: t0,
    });
    expect(entry).toMatchObject({ scanId, source: 'scan', step: 'received', code: 'ŽLUŤOUČKÝ-1', deliveryId: null });
    expect(scanLog.get(scanId)).toMatchObject({ outcome: 'pending', code: 'ŽLUŤOUČKÝ-1' });
    // Break the entry insert: the scan log row of the same commit must not stay behind.
    db.exec('CREATE TRIGGER no_entries BEFORE INSERT ON journal_entries BEGIN SELECT RAISE(ABORT, "disk full"); END');
    const before = scanLog.recent('a1').length;
    expect(() => journal.receiveScan({ accountId: 'a1', code: 'X-2', rawCode: null, at: t0 })).toThrow(/disk full/);
    expect(scanLog.recent('a1').length).toBe(before);
  });

  it('keeps each step with its time, and answers which scans are unfinished in scan order', () => {
    const { journal } = fresh();
    const a = journal.receiveScan({ accountId: 'a1', code: 'A', rawCode: null, at: t0 }).entry;
    const b = journal.receiveScan({ accountId: 'a1', code: 'B', rawCode: null, at: t0 }).entry;
    journal.step([a.id], 'resolved', t0, { deliveryId: 101 });
    journal.step([a.id], 'close_requested', t0);
    journal.wait([a.id], t0, { reasonCode: 'service_network', reason: 'no answer', nextRetryAt: null });
    expect(journal.get(a.id)).toMatchObject({
      step: 'close_requested',
      deliveryId: 101,
      outcome: 'waiting',
      attempts: 1,
      nextRetryAt: null,
    });
    expect(journal.steps(a.id).map((s) => s.step)).toEqual(['received', 'resolved', 'close_requested']);
    expect(journal.unfinishedScans().map((e) => e.code)).toEqual(['A', 'B']);
    journal.wakeWaiting('scan', t0);
    expect(journal.get(a.id)!.nextRetryAt).toBe(t0.toISOString());
    journal.step([b.id], 'ended', t0, { outcome: 'not_found' });
    expect(journal.nextScan()!.id).toBe(a.id);
  });

  it('links print jobs to entries by id and tells a shipment this station closed from one closed elsewhere', () => {
    const { journal, jobs } = fresh();
    const [mine, other] = journal.begin(
      [
        { accountId: 'a1', source: 'batch', deliveryId: 7, want: 'close_and_print' },
        { accountId: 'a1', source: 'reprint', deliveryId: 8, want: 'print' },
      ],
      t0,
    );
    expect(mine!.step).toBe('resolved');
    expect(other!.step).toBe('closed');
    journal.step([mine!.id], 'close_requested', t0);
    journal.step([mine!.id], 'closed', t0);
    const job = jobs.insert(
      {
        kind: 'print',
        printerId: 'zebra',
        format: 'zpl',
        payload: Buffer.from('^XA^XZ'),
        title: 't',
        deliveryIds: [7],
      },
      t0,
    );
    journal.queued(mine!.id, [job.id], t0);
    expect(journal.jobIdsOf(mine!.id)).toEqual([job.id]);
    expect(journal.jobIdsOfShipment('a1', 7)).toEqual([job.id]);
    expect(journal.closedHere('a1', 7)).toBe(true);
    // A print of a shipment closed elsewhere starts at `closed` but was never closed here.
    expect(journal.closedHere('a1', 8)).toBe(false);
  });

  it('a label cancelled in the queue while nobody listened: the scan no longer counts as waiting after a restart; the latest scans and labels say so', () => {
    const { journal, jobs, scanLog } = fresh();
    const label = (title: string) =>
      jobs.insert({ kind: 'print', printerId: 'tiskárna-1', format: 'zpl', payload: Buffer.from('^XA^XZ'), title }, t0);
    const scans = ['ŽLUŤ-1', 'ŽLUŤ-2', 'ŽLUŤ-3'].map((code, i) => {
      const { scanId, entry } = journal.receiveScan({ accountId: 'a1', code, rawCode: null, at: t0 });
      journal.step([entry.id], 'resolved', t0, { deliveryId: 500 + i });
      const job = label(`Štítek ${code}`);
      journal.queued(entry.id, [job.id], t0);
      return { scanId, job };
    });
    // The worker cancelled the first label; a reprint's copy replaced the second (its label still prints).
    jobs.setState(scans[0]!.job.id, 'cancelled', t0, { reasonCode: 'cancelled_by_worker' });
    jobs.setState(scans[1]!.job.id, 'cancelled', t0, { reasonCode: 'replaced_by_reprint' });
    journal.settleScanLog();
    expect(scans.map((x) => scanLog.get(x.scanId)!.outcome)).toEqual(['print_cancelled', 'queued', 'queued']);
    expect(journal.latestScans('a1', 8).map((x) => [x.code, x.logOutcome, x.jobIds])).toEqual([
      ['ŽLUŤ-3', 'queued', [scans[2]!.job.id]],
      ['ŽLUŤ-2', 'queued', [scans[1]!.job.id]],
      ['ŽLUŤ-1', 'print_cancelled', [scans[0]!.job.id]],
    ]);
    expect(journal.latestScans('a1', 2)).toHaveLength(2);
    expect(journal.latestScans('jiná-firma', 8)).toEqual([]);
    // The last labels: newest first, never a cancelled one.
    expect(journal.latestLabels('a1', 3).map((l) => l.jobId)).toEqual([scans[2]!.job.id]);
  });

  it('a start settles the scans still open without walking the history: the settling reads start from the open scans', () => {
    const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'journal-')), 'station.db'));
    // The journal's own statements, as it prepares them.
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    (db as { prepare: typeof db.prepare }).prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    createJournalRepo(db, createScanLogRepo(db));
    const settling = prepared.filter((sql) => /^\s*UPDATE scan_log SET outcome = (CASE|'print_cancelled')/.test(sql));
    expect(settling).toHaveLength(2);
    for (const sql of settling) {
      const plan = (prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
      // The outer walk is over the open scans' (partial) index; nothing scans a whole table.
      expect(plan.join('\n')).toMatch(/(SCAN|SEARCH) scan_log USING (COVERING )?INDEX scan_log_open/);
      expect(plan.filter((d) => /^SCAN /.test(d) && !d.includes('INDEX scan_log_open'))).toEqual([]);
    }
  });

  it('the journal tick finds the unfinished entries without walking the history: through their own index', () => {
    const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'journal-')), 'station.db'));
    // The journal's own statements, as it prepares them.
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    (db as { prepare: typeof db.prepare }).prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    createJournalRepo(db, createScanLogRepo(db));
    // The scans' and the other paths' unfinished entries (the tick reads the latter every second).
    const unfinished = prepared.filter((sql) =>
      /FROM journal_entries .*WHERE source (=|<>) 'scan' AND step NOT IN/.test(sql),
    );
    expect(unfinished).toHaveLength(3);
    for (const sql of unfinished) {
      const plan = (
        prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('LIMIT ?') ? [10] : [])) as {
          detail: string;
        }[]
      ).map((r) => r.detail);
      expect(plan.join('\n')).toMatch(/(SCAN|SEARCH) journal_entries USING (COVERING )?INDEX journal_unfinished/);
      expect(plan.filter((d) => /^SCAN /.test(d) && !d.includes('INDEX journal_unfinished'))).toEqual([]);
    }
  });

  it('reads a reason code an older version stored and this one does not know as older_version_reason, with its sentence', () => {
    const { db, journal } = fresh();
    const { entry } = journal.receiveScan({ accountId: 'firma', code: 'ORD-Ž1', rawCode: null, at: t0 });
    // Written by an older station (its code is gone from this version's registry).
    db.prepare(`UPDATE journal_entries SET outcome = 'waiting', reason_code = ?, reason = ? WHERE id = ?`).run(
      'carrier_cutoff_passed',
      'Dopravce dnes už nepřebírá.',
      entry.id,
    );
    expect(journal.get(entry.id)).toMatchObject({
      reasonCode: 'older_version_reason',
      reason: 'Dopravce dnes už nepřebírá.',
    });
    expect(journal.latestScans('firma', 1)[0]?.reasonCode).toBe('older_version_reason');
  });
});
