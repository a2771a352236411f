/**
 * Retention: with the station's clock moved by the test, old data leaves and nothing
 * unfinished, uncertain, unconfirmed or inside its window does; a run stopped part-way (a throw
 * between slices) leaves a consistent database, and the next run finishes the work.
 * The data is written through the store's own functions, as the desk writes it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createJournalRepo, type JournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createPrintJobsRepo, type PrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createLabelsRepo, type LabelsRepo } from '../../../electron/store/labelsRepo';
import { createDeskActionsRepo } from '../../../electron/store/deskActionsRepo';
import { createWeighRepo } from '../../../electron/store/weighRepo';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { createRetention, type RetentionOptions } from '../../../electron/retention/retention';
import { sliceSizer, SLICE_MS } from '../../../electron/base/slices';
import { createPhotosRepo } from '../../../electron/store/photosRepo';
import { photoPath, sweepPhotoFiles, writePhotoFile } from '../../../electron/camera/photoFiles';
import { createShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { createBatchItemsRepo } from '../../../electron/store/batchItemsRepo';
import { createStatisticsRepo } from '../../../electron/store/statisticsRepo';
import { createAuditTrailRepo } from '../../../electron/store/auditTrailRepo';
import type { JobState } from '../../../shared/contract/printing';
import { closedRecord } from '../../support/shipmentRecords';
import { searchIndexLeavesWritten } from '../../support/searchIndex';
import { steppableClock, type SteppableClock } from '../../support/steppableClock';

const DAY = 86_400_000;
const log = { info: () => undefined, error: () => undefined };

let dir: string;
let db: Db;
let clock: SteppableClock;
let journal: JournalRepo;
let jobs: PrintJobsRepo;
let labels: LabelsRepo;
let n = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-retention-'));
  db = openDatabase(path.join(dir, 'station.db'));
  clock = steppableClock();
  journal = createJournalRepo(db, createScanLogRepo(db));
  jobs = createPrintJobsRepo(db);
  labels = createLabelsRepo(db);
  n = 0;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function retention(over: Partial<RetentionOptions> = {}) {
  return createRetention({ db, settings: createSettingsRepo(db), clock, dataDir: dir, log, ...over });
}

/** A print job moved through `states` (the queue's own transitions), now. */
function job(states: JobState[], at = clock.now()) {
  const j = jobs.insert(
    {
      kind: 'print',
      printerId: 'zebra',
      format: 'zpl',
      payload: Buffer.from(`^XA^FDlabel ${++n}^XZ`),
      title: `Label ${n}`,
    },
    at,
  );
  for (const s of states) jobs.setState(j.id, s, at);
  return j.id;
}

/** A scan at the desk that closed its shipment and queued its label, whose job then went through `states`. */
function scan(states: JobState[], at = clock.now(), deliveryId?: number) {
  const { scanId, entry } = journal.receiveScan({ accountId: 'acc', code: `CODE-${++n}`, rawCode: null, at });
  journal.step([entry.id], 'resolved', at, { deliveryId: deliveryId ?? 1000 + n });
  journal.step([entry.id], 'close_requested', at);
  journal.step([entry.id], 'closed', at);
  const jobId = jobs.lazyTransaction(() => {
    const id = job([], at);
    journal.queued(entry.id, [id], at);
    return id;
  });
  for (const s of states) jobs.setState(jobId, s, at);
  journal.settleScanLog();
  return { scanId, entryId: entry.id, jobId };
}

const count = (table: string, where = '1') =>
  (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;
const exists = (table: string, id: number) => count(table, `id = ${id}`) === 1;

function consistent() {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(db.pragma('foreign_key_check')).toEqual([]);
  // The shipments' text index agrees with its table (FTS5 raises an error otherwise).
  db.prepare(`INSERT INTO shipment_search (shipment_search) VALUES ('integrity-check')`).run();
}

describe('retention', () => {
  it('after 90 days empties the label bytes of printed jobs only, and drops kept labels; the history stays', async () => {
    const printed = job(['sending', 'sent', 'done']);
    const spooled = job(['sending', 'sent', 'spooled']);
    const uncertain = job(['sending', 'uncertain']);
    const unconfirmed = job(['sending', 'sent', 'unconfirmed']);
    const failed = job(['sending', 'failed']);
    const waiting = job([]);
    const cancelled = job(['cancelled']);
    const oldDoc = labels.save(
      { accountId: 'acc', variant: { format: 'zpl', size: '10x15' }, deliveryIds: [1], parts: [Buffer.from('old')] },
      clock.now(),
    );
    const oldScan = scan(['sending', 'sent', 'done']);

    clock.advance(89 * DAY);
    const recentDoc = labels.save(
      { accountId: 'acc', variant: { format: 'zpl', size: '10x15' }, deliveryIds: [2], parts: [Buffer.from('new')] },
      clock.now(),
    );
    const recent = job(['sending', 'sent', 'done']);
    await retention().run();
    // Day 89: nothing is old enough.
    expect(jobs.payload(printed)).not.toBeNull();
    expect(labels.get(oldDoc)).not.toBeNull();

    clock.advance(2 * DAY);
    await retention().run();
    expect(jobs.payload(printed)).toBeNull();
    expect(jobs.payload(spooled)).toBeNull();
    expect(jobs.payload(oldScan.jobId)).toBeNull();
    for (const kept of [uncertain, unconfirmed, failed, waiting, cancelled, recent])
      expect(jobs.payload(kept)?.toString()).toMatch(/^\^XA\^FDlabel \d+\^XZ$/);
    expect(labels.get(oldDoc)).toBeNull();
    expect(labels.get(recentDoc)?.parts[0]?.toString()).toBe('new');
    // The printed job's row, the journal and the scan log are history (400 days): still there.
    expect(jobs.get(printed)?.state).toBe('done');
    expect(exists('journal_entries', oldScan.entryId)).toBe(true);
    expect(exists('scan_log', oldScan.scanId)).toBe(true);
    consistent();
  });

  it('after 400 days removes finished history and keeps what is unfinished, uncertain, unconfirmed or recent', async () => {
    const deskActions = createDeskActionsRepo(db, () => ({ desk: 'Desk 1', operator: null }));
    const weigh = createWeighRepo(db);
    const done = scan(['sending', 'sent', 'done']);
    const uncertain = scan(['sending', 'uncertain']);
    const unconfirmed = scan(['sending', 'sent', 'unconfirmed']);
    const unverified = scan(['sending', 'sent', 'done']);
    weigh.expectCheck({
      entryId: unverified.entryId,
      accountId: 'acc',
      deliveryId: 1,
      barcodes: ['PKG1'],
      printedAt: clock.now(),
    });
    const verified = scan(['sending', 'sent', 'done']);
    weigh.expectCheck({
      entryId: verified.entryId,
      accountId: 'acc',
      deliveryId: 2,
      barcodes: ['PKG2'],
      printedAt: clock.now(),
    });
    weigh.seenLabel(
      weigh.openChecks('acc').find((c) => c.entryId === verified.entryId)!,
      'PKG2',
      clock.now(),
    );
    // A scan still waiting for its close (the service was down) and a lone pending scan.
    const unfinished = journal.receiveScan({ accountId: 'acc', code: 'WAITING', rawCode: null, at: clock.now() });
    const reprinted = job(['sending', 'sent', 'done']);
    const reprint = deskActions.record({ action: 'reprint', at: clock.now(), jobId: reprinted, reasonCode: 'damaged' });

    clock.advance(401 * DAY);
    const recent = scan(['sending', 'sent', 'done']);
    const removed = await retention().run();

    for (const gone of [done, verified]) {
      expect(exists('journal_entries', gone.entryId)).toBe(false);
      expect(exists('scan_log', gone.scanId)).toBe(false);
      expect(exists('print_jobs', gone.jobId)).toBe(false);
      expect(count('journal_steps', `entry_id = ${gone.entryId}`)).toBe(0);
      expect(count('print_job_events', `job_id = ${gone.jobId}`)).toBe(0);
    }
    expect(count('label_checks', `entry_id = ${verified.entryId}`)).toBe(0);
    expect(exists('desk_actions', reprint)).toBe(false);
    expect(exists('print_jobs', reprinted)).toBe(false);
    for (const kept of [uncertain, unconfirmed, unverified, recent]) {
      expect(exists('journal_entries', kept.entryId)).toBe(true);
      expect(exists('scan_log', kept.scanId)).toBe(true);
      expect(exists('print_jobs', kept.jobId)).toBe(true);
    }
    expect(jobs.get(uncertain.jobId)?.state).toBe('uncertain');
    expect(jobs.get(unconfirmed.jobId)?.state).toBe('unconfirmed');
    expect(exists('journal_entries', unfinished.entry.id)).toBe(true);
    expect(exists('scan_log', unfinished.scanId)).toBe(true);
    // Rows removed or emptied: 2 entries, 2 scans, 3 jobs, 1 desk action, the label bytes and the
    // history (folded into one row) of the 4 printed old jobs, and the steps (folded likewise) of
    // the 2 settled old entries.
    expect(removed).toBe(2 + 2 + 3 + 1 + 4 + 4 + 2);
    consistent();
  });

  it('after the labels window (90 days) drops delivered, returned and cancelled shipments from the cache, keeps those the service can still change or unfinished work names, and keeps their carrier for the statistics', async () => {
    const shipments = createShipmentsRepo(db);
    const deskActions = createDeskActionsRepo(db, () => ({ desk: 'Desk 1', operator: null }));
    const batch = createBatchItemsRepo(db);
    const scanLog = createScanLogRepo(db);
    const statistics = createStatisticsRepo(db);
    const cached = (accountId: string, id: number) => shipments.get(accountId, id) !== null;
    const t0 = clock.now().toISOString();
    /** A shipment as the sync stores it now, in `state`, created and closed at `at` (the test's start). */
    const store = (id: number, state: number, accountId = 'acc', at = t0, agent = 'CP') =>
      shipments.upsertMany(
        accountId,
        [{ ...closedRecord(id, { state, created: at, closed: at }), agent }],
        clock.now(),
      );
    // What the service no longer changes (spec "States and transitions"): delivered, returned, cancelled.
    const final = { delivered: 101, returned: 102, delivered2: 103, returned2: 104 };
    for (const [i, id] of Object.values(final).entries()) store(id, 3 + i);
    store(105, 10);
    // What it still changes: prepared, closed and not sent, sent.
    store(110, 0);
    store(111, 1);
    store(112, 2);
    // Delivered long ago, but named by unfinished work: an entry still being closed, a label still
    // in the printer's queue, a line of the batch list, a scan not yet settled.
    store(120, 3);
    const waiting = journal.receiveScan({ accountId: 'acc', code: 'ORD-120', rawCode: null, at: clock.now() });
    journal.step([waiting.entry.id], 'resolved', clock.now(), { deliveryId: 120 });
    store(122, 3);
    jobs.insert(
      {
        kind: 'print',
        printerId: 'zebra',
        format: 'zpl',
        payload: Buffer.from('^XA^XZ'),
        title: 'Label',
        deliveryIds: [122],
      },
      clock.now(),
    );
    store(123, 3);
    batch.collect(
      {
        code: 'ORD-123',
        deliveryId: 123,
        carrier: 'CP',
        collectionPlace: 'PLACE-1',
        recipientName: 'Jan Dvořák',
        status: 'closed',
        message: null,
      },
      () => scanLog.record({ accountId: 'acc', code: 'ORD-123', scannedAt: clock.now() }),
    );
    // Delivered long ago and named only by history, which stays for the history window: a scan
    // that closed it and printed its label (its journal entry and scan log line), a reprint.
    store(121, 3, 'acc', t0, 'PPL');
    const printed = scan(['sending', 'sent', 'done'], clock.now(), 121);
    store(124, 3);
    deskActions.record({
      action: 'reprint',
      at: clock.now(),
      accountId: 'acc',
      deliveryId: 124,
      reasonCode: 'damaged',
    });
    // Delivered long ago and stored again in the window (a scan that asked the service again).
    store(125, 3);
    // Delivered long ago and scanned in the window, the scan not settled yet.
    store(126, 3);
    // Another company's only shipment: the newest of its account stays (an account emptied would
    // make the next sync walk the service from its first shipment).
    store(300, 3, 'other');

    clock.advance(70 * DAY);
    deskActions.record({
      action: 'reprint',
      at: clock.now(),
      accountId: 'acc',
      deliveryId: 121,
      reasonCode: 'damaged',
    });
    store(125, 3);
    scanLog.record({ accountId: 'acc', code: 'ORD-126', scannedAt: clock.now(), outcome: 'pending', deliveryId: 126 });
    clock.advance(21 * DAY);
    store(400, 1, 'acc', clock.now().toISOString());
    await retention().run();
    consistent();

    for (const id of [...Object.values(final), 105, 121, 124]) expect(cached('acc', id)).toBe(false);
    for (const id of [110, 111, 112, 120, 122, 123, 125, 126, 400]) expect(cached('acc', id)).toBe(true);
    expect(cached('other', 300)).toBe(true);
    // Gone with its package rows and its search row: the list's text filter finds nothing of it.
    expect(count('shipment_packages', 'delivery_id = 101')).toBe(0);
    expect(shipments.query('acc', { text: 'ORD-101' }).total).toBe(0);
    expect(shipments.query('acc', { text: 'ORD-110' }).total).toBe(1);
    expect(count('shipment_search')).toBe(count('shipments'));
    // Its package barcode is kept aside: a scan of the parcel's label can still be looked up.
    expect(shipments.prunedByPackageBarcode('acc', 'PKG101-1')).toEqual([101]);
    // The history that named 121 stays, and the statistics still count its label for its carrier.
    expect(exists('journal_entries', printed.entryId)).toBe(true);
    expect(exists('scan_log', printed.scanId)).toBe(true);
    const entry = statistics.entries(new Date(Date.parse(t0) - DAY), clock.now()).find((e) => e.id === printed.entryId);
    expect(entry?.carrier).toBe('PPL');

    // A shipment delivered after that run (below ids that stay) leaves once its window has passed too.
    store(112, 3);
    clock.advance(91 * DAY);
    store(401, 1, 'acc', clock.now().toISOString());
    await retention().run();
    consistent();
    expect(cached('acc', 112)).toBe(false);
    expect(cached('acc', 111)).toBe(true);
    expect(cached('acc', 110)).toBe(true);
  });

  it('removes camera photos after the labels window, rows and files, and files a crash left without a row; a kept photo keeps its scan', async () => {
    const photos = createPhotosRepo(db);
    const withPhotos = (over: Partial<RetentionOptions> = {}) =>
      retention({
        photos: {
          sweep: (beforeDay) => sweepPhotoFiles(dir, beforeDay, (f) => photos.named(f)),
          usage: () => photos.usage(),
        },
        ...over,
      });
    /** A scan with its photo written as the camera writes it (file, then row). */
    const photographed = async () => {
      const s = scan(['sending', 'sent', 'done']);
      const takenAt = clock.now();
      const file = photoPath(takenAt, s.scanId, 'scan', 1);
      await writePhotoFile(dir, file, Buffer.from('a jpeg stand-in'));
      const id = photos.insert({
        entryId: s.entryId,
        scanId: s.scanId,
        kind: 'scan',
        takenAt: takenAt.toISOString(),
        file,
        bytes: 15,
        width: 1280,
        height: 720,
        desk: 'Stůl 1',
        operatorId: null,
      });
      return { ...s, id, file: path.join(dir, file) };
    };
    const old = await photographed();
    // A photo whose row a power cut took (the file was on the disk first).
    const orphan = path.join(dir, photoPath(clock.now(), 999, 'scan', 1));
    await writePhotoFile(dir, path.relative(dir, orphan), Buffer.from('no row'));
    clock.advance(60 * DAY);
    const recent = await photographed();
    clock.advance(31 * DAY);

    expect((await withPhotos().status()).photos).toEqual({ count: 2, bytes: 30 });
    await withPhotos().run();
    consistent();
    expect(exists('photos', old.id)).toBe(false);
    expect(existsSync(old.file)).toBe(false);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(path.dirname(old.file))).toBe(false);
    expect(exists('photos', recent.id)).toBe(true);
    expect(existsSync(recent.file)).toBe(true);
    // The history of the old scan stays (400 days): only its photo went.
    expect(exists('journal_entries', old.entryId)).toBe(true);
    expect((await withPhotos().status()).photos).toEqual({ count: 1, bytes: 15 });

    // Photos kept forever, history 30 days: the photographed scan's entry and scan stay with the photo.
    withPhotos().handlers['retention.set']({ labelsDays: 0, historyDays: 30 });
    clock.advance(400 * DAY);
    await withPhotos().run();
    consistent();
    expect(exists('photos', recent.id)).toBe(true);
    expect(exists('journal_entries', recent.entryId)).toBe(true);
    expect(exists('scan_log', recent.scanId)).toBe(true);
    expect(exists('journal_entries', old.entryId)).toBe(false);
  });

  it('keeps everything when a window is 0 (keep forever)', async () => {
    const r = retention();
    r.handlers['retention.set']({ labelsDays: 0, historyDays: 0 });
    await r.run();
    const done = scan(['sending', 'sent', 'done']);
    clock.advance(5000 * DAY);
    expect(await r.run()).toBe(0);
    expect(jobs.payload(done.jobId)).not.toBeNull();
    expect(exists('journal_entries', done.entryId)).toBe(true);
  });

  it('refuses settings a person could not mean: fractions, negative days, a window shorter than its minimum', () => {
    const r = retention();
    expect(() => r.handlers['retention.set']({ labelsDays: 1.5, historyDays: 400 })).toThrow();
    expect(() => r.handlers['retention.set']({ labelsDays: -1, historyDays: 400 })).toThrow();
    expect(() => r.handlers['retention.set']({ labelsDays: 3, historyDays: 400 })).toThrow();
    expect(() => r.handlers['retention.set']({ labelsDays: 90, historyDays: 4000 })).toThrow();
    expect(r.settings()).toEqual({ labelsDays: 90, historyDays: 400 });
  });

  it('a run stopped between two slices leaves every row whole, and the next run finishes', async () => {
    const old = Array.from({ length: 30 }, () => scan(['sending', 'sent', 'done']));
    const keptOld = [scan(['sending', 'uncertain']), scan(['sending', 'sent', 'unconfirmed'])];
    clock.advance(401 * DAY);
    const recent = scan(['sending', 'sent', 'done']);

    const entries = count('journal_entries');
    const crashing = retention({
      rowsPerSlice: 4,
      // Dies after the first slice of the journal that removed entries, between two slices.
      betweenSlices: async () => {
        if (count('journal_entries') < entries) throw new Error('the station died here');
      },
    });
    await expect(crashing.run()).rejects.toThrow('the station died here');
    consistent();
    // Part of the work is done; every old entry is either wholly there or wholly gone.
    const left = old.filter((o) => exists('journal_entries', o.entryId));
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(old.length);
    for (const o of left) {
      expect(exists('scan_log', o.scanId)).toBe(true);
      expect(exists('print_jobs', o.jobId)).toBe(true);
      expect(count('journal_jobs', `entry_id = ${o.entryId}`)).toBe(1);
      // Its steps, as rows or folded past the labels window.
      expect(journal.steps(o.entryId).length).toBeGreaterThan(0);
    }

    // A new station (a restart) runs again and finishes.
    await retention({ rowsPerSlice: 4 }).run();
    consistent();
    for (const o of old) {
      expect(exists('journal_entries', o.entryId)).toBe(false);
      expect(exists('scan_log', o.scanId)).toBe(false);
      expect(exists('print_jobs', o.jobId)).toBe(false);
    }
    for (const k of [...keptOld, recent]) {
      expect(exists('journal_entries', k.entryId)).toBe(true);
      expect(exists('print_jobs', k.jobId)).toBe(true);
    }
    // The next run finds nothing more to do.
    expect(await retention({ rowsPerSlice: 4 }).run()).toBe(0);
  });

  it('slices are sized by the time of the last one: a long slice halves the next, short ones grow it up to the bound', () => {
    const s = sliceSizer(200);
    expect(s.size()).toBe(16); // a first slice of each kind is small: its rows' cost is not known yet
    s.took(10 * SLICE_MS);
    expect(s.size()).toBe(8);
    for (let i = 0; i < 10; i++) s.took(10 * SLICE_MS);
    expect(s.size()).toBe(1); // never none: the run goes on, a row at a time
    for (let i = 0; i < 40; i++) s.took(0);
    expect(s.size()).toBe(200);
    s.took(SLICE_MS); // about right: kept
    expect(s.size()).toBe(200);
    expect(sliceSizer(4).size()).toBe(4);
  });

  it('a run gives way to a scan on its way to its label: no slice while it is in work, the rest after it', async () => {
    const old = Array.from({ length: 30 }, () => scan(['sending', 'sent', 'done']));
    clock.advance(401 * DAY);
    let inWork = true;
    let slices = 0;
    const r = retention({
      rowsPerSlice: 4,
      scans: { inWork: () => inWork },
      scanWaitMs: 60_000,
      betweenSlices: () => new Promise<void>((done) => setImmediate(() => (slices++, done()))),
    });
    const run = r.run();
    // Many turns of the event loop and timers later: the first slice went, and the run waits.
    await new Promise((done) => setTimeout(done, 150));
    expect(slices).toBe(1);
    expect(old.filter((o) => exists('journal_entries', o.entryId)).length).toBeGreaterThan(old.length - 5);
    // The scan has its label: the run goes on and finishes.
    inWork = false;
    await run;
    expect(slices).toBeGreaterThan(1);
    for (const o of old) expect(exists('journal_entries', o.entryId)).toBe(false);
  });

  it('a desk that never stops scanning still sees the run finish, a slice per wait; a stop ends the wait', async () => {
    const old = Array.from({ length: 12 }, () => scan(['sending', 'sent', 'done']));
    clock.advance(401 * DAY);
    await retention({ rowsPerSlice: 4, scans: { inWork: () => true }, scanWaitMs: 10 }).run();
    for (const o of old) expect(exists('journal_entries', o.entryId)).toBe(false);

    const more = Array.from({ length: 12 }, () => scan(['sending', 'sent', 'done']));
    clock.advance(401 * DAY);
    const waiting = retention({ rowsPerSlice: 4, scans: { inWork: () => true }, scanWaitMs: 600_000 });
    const run = waiting.run();
    await new Promise((done) => setTimeout(done, 50));
    // The station closes (its database next): the run stops at once, not after its ten-minute wait.
    await waiting.stop();
    await run;
    expect(more.filter((o) => exists('journal_entries', o.entryId)).length).toBeGreaterThan(0);
  });

  it('a run stopped between two slices of the shipment cache leaves each shipment whole or wholly gone, and the next run finishes', async () => {
    const shipments = createShipmentsRepo(db);
    const at = clock.now().toISOString();
    const old = Array.from({ length: 30 }, (_, i) => closedRecord(100 + i, { state: 3, created: at, closed: at }));
    shipments.upsertMany('acc', old, clock.now());
    clock.advance(401 * DAY);
    shipments.upsertMany('acc', [closedRecord(500, { created: clock.now().toISOString() })], clock.now());
    const before = count('shipments');
    const crashing = retention({
      rowsPerSlice: 4,
      betweenSlices: async () => {
        if (count('shipments') < before) throw new Error('the station died here');
      },
    });
    await expect(crashing.run()).rejects.toThrow('the station died here');
    consistent();
    const left = old.filter((s) => shipments.get('acc', s.deliveryId) !== null);
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(old.length);
    for (const s of old) {
      const there = left.includes(s);
      // Cached with its package and its search row, or gone with its barcode set aside.
      expect(count('shipment_packages', `delivery_id = ${s.deliveryId}`)).toBe(there ? 1 : 0);
      expect(shipments.query('acc', { text: s.externalId! }).total).toBe(there ? 1 : 0);
      expect(shipments.prunedByPackageBarcode('acc', `PKG${s.deliveryId}-1`)).toEqual(there ? [] : [s.deliveryId]);
    }

    await retention({ rowsPerSlice: 4 }).run();
    consistent();
    for (const s of old) expect(shipments.get('acc', s.deliveryId)).toBeNull();
    expect(shipments.get('acc', 500)).not.toBeNull();
    expect(await retention({ rowsPerSlice: 4 }).run()).toBe(0);
  });

  it('a desk clock once set ahead does not stall the walk: rows it stamped in the future stay until their time, the older rows after them go', async () => {
    const doc = (id: number, at: Date) =>
      labels.save(
        {
          accountId: 'acc',
          variant: { format: 'zpl', size: '10x15' },
          deliveryIds: [id],
          parts: [Buffer.from(`č. ${id}`)],
        },
        at,
      );
    // Two years: past both windows (a clock ahead by less delays the rows after them by as much).
    const yearAhead = () => new Date(clock.now().getTime() + 730 * DAY);
    const before = doc(1, clock.now());
    const beforeScan = scan(['sending', 'sent', 'done']);
    // For a while the desk's clock ran two years ahead: these rows have lower ids than the next ones
    // but later times.
    const ahead = [doc(2, yearAhead()), doc(3, yearAhead())];
    const aheadScan = scan(['sending', 'sent', 'done'], yearAhead());
    // The clock put right again.
    const after = [doc(4, clock.now()), doc(5, clock.now())];
    const afterScans = [scan(['sending', 'sent', 'done']), scan(['sending', 'sent', 'done'])];

    clock.advance(91 * DAY);
    await retention().run();
    expect(labels.get(before)).toBeNull();
    for (const id of after) expect(labels.get(id)).toBeNull();
    for (const id of ahead) expect(labels.get(id)?.parts[0]?.toString()).toMatch(/^č\. \d$/);

    clock.advance(310 * DAY);
    await retention().run();
    expect(exists('journal_entries', beforeScan.entryId)).toBe(false);
    for (const s of afterScans) {
      expect(exists('journal_entries', s.entryId)).toBe(false);
      expect(exists('scan_log', s.scanId)).toBe(false);
    }
    // 401 days on, the rows stamped two years ahead are still in the future by their stamps.
    expect(exists('journal_entries', aheadScan.entryId)).toBe(true);
    expect(jobs.get(aheadScan.jobId)?.state).toBe('done');

    // Once their own time is past the windows they go too: the held cursor looked at them again.
    clock.advance(730 * DAY);
    await retention().run();
    for (const id of ahead) expect(labels.get(id)).toBeNull();
    expect(exists('journal_entries', aheadScan.entryId)).toBe(false);
    consistent();
  });

  it('hands the freed pages back to the file system', async () => {
    for (let i = 0; i < 60; i++) scan(['sending', 'sent', 'done']);
    db.prepare(`UPDATE print_job_bytes SET bytes = randomblob(40000)`).run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.pragma('page_count', { simple: true }) as number;
    clock.advance(401 * DAY);
    await retention().run();
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(db.pragma('page_count', { simple: true }) as number).toBeLessThan(pages / 4);
  });

  it('after the labels window hands back the pages of label bytes of a real size while the jobs and their history stay', async () => {
    // A shipping label in ZPL is some 1–2 KB: it fits inside a 4 KB page beside other rows, where
    // emptying it in place frees no page (the file stayed as large); deleted as a row of its own, it does.
    const LABEL = 1200;
    const made = Array.from({ length: 600 }, () => job(['sending', 'sent', 'done']));
    db.prepare(`UPDATE print_job_bytes SET bytes = randomblob(${LABEL})`).run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    clock.advance(91 * DAY);
    await retention().run();
    for (const id of made) {
      expect(jobs.payload(id)).toBeNull();
      expect(jobs.get(id)?.state).toBe('done');
      expect(jobs.history(id).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
    }
    const labelPages = (made.length * LABEL) / pageSize;
    expect(pages - (db.pragma('page_count', { simple: true }) as number)).toBeGreaterThan(0.8 * labelPages);
  });

  it("keeps a printed shipment's labels once: the done job reads its kept label byte for byte, for as long as its own copy stayed before", async () => {
    const parts = [
      '^XA^CI28^FDBalík 1/2 Příjemce Jiří Dvořák^FS^XZ',
      '^XA^CI28^FDBalík 2/2 Příjemce Jiří Dvořák^FS^XZ',
    ];
    /** A shipment's labels kept at close time and its print job as zplPrintJobs makes it, moved through `states`. */
    const printedShipment = (deliveryId: number, states: JobState[], zpl = parts) => {
      labels.save(
        {
          accountId: 'acc',
          variant: { format: 'zpl', size: 'default' },
          deliveryIds: [deliveryId],
          parts: zpl.map((p) => Buffer.from(p)),
        },
        clock.now(),
      );
      const j = jobs.insert(
        {
          kind: 'print',
          printerId: 'zebra',
          format: 'zpl',
          payload: Buffer.from(zpl.join('\n')),
          labelRef: `zpl:${deliveryId}`,
          title: `Zásilka ${deliveryId}`,
        },
        clock.now(),
      );
      for (const st of states) jobs.setState(j.id, st, clock.now());
      return j.id;
    };
    const sent = Buffer.from(parts.join('\n'));
    const printed = printedShipment(5001, ['sending', 'sent', 'done']);
    const waiting = printedShipment(5002, []);
    // Its labels were fetched again since (a changed shipment): the job's own bytes are not the kept ones.
    const changed = printedShipment(5003, ['sending', 'sent', 'done']);
    labels.save(
      {
        accountId: 'acc',
        variant: { format: 'zpl', size: 'default' },
        deliveryIds: [5003],
        parts: [Buffer.from('^XA^XZ')],
      },
      clock.now(),
    );
    // Printed 80 days after its labels were kept (a reprint from the kept labels, months later).
    const lateDoc = labels.latestFor('acc', 5001)!.id;
    clock.advance(80 * DAY);
    const late = jobs.insert(
      { kind: 'print', printerId: 'zebra', format: 'zpl', payload: sent, labelRef: 'zpl:5001', title: 'Zásilka 5001' },
      clock.now(),
    ).id;
    for (const st of ['sending', 'sent', 'done'] as const) jobs.setState(late, st, clock.now());

    await retention().run();
    const ownCopy = (id: number) => count('print_job_bytes', `job_id = ${id}`);
    expect(ownCopy(printed)).toBe(0);
    expect(ownCopy(late)).toBe(0);
    expect(ownCopy(waiting)).toBe(1);
    expect(ownCopy(changed)).toBe(1);
    for (const id of [printed, late, waiting]) {
      expect(jobs.payload(id)?.equals(sent)).toBe(true);
      expect(jobs.get(id)?.bytes).toBe(sent.length);
    }
    // Fetched once more: the label a job prints from stays for its reprints, the newest serves new prints.
    labels.save(
      {
        accountId: 'acc',
        variant: { format: 'zpl', size: 'default' },
        deliveryIds: [5001],
        parts: [Buffer.from('^XA^FDnew^XZ')],
      },
      clock.now(),
    );
    expect(jobs.payload(printed)?.equals(sent)).toBe(true);
    expect(labels.latestFor('acc', 5001)?.parts[0]?.toString()).toBe('^XA^FDnew^XZ');

    // Past the labels window of the first job (91 days) the late job's label stays: it printed 11 days ago.
    clock.advance(11 * DAY);
    await retention().run();
    expect(jobs.payload(printed)?.equals(sent)).toBe(true);
    expect(jobs.payload(late)?.equals(sent)).toBe(true);
    expect(labels.get(lateDoc)).not.toBeNull();
    // Once the late job is past the window too, its label and the bytes go, as its own copy went before.
    clock.advance(80 * DAY);
    await retention().run();
    expect(jobs.payload(printed)).toBeNull();
    expect(jobs.payload(late)).toBeNull();
    expect(labels.get(lateDoc)).toBeNull();
    expect(jobs.get(late)?.state).toBe('done');
    consistent();
  });

  it('keeps the label a job still waiting prints from, however old; once the job is printed, as long as its own copy stayed', async () => {
    const parts = ['^XA^CI28^FDBalík 1/1 Příjemce Žofie Křížová^FS^XZ'];
    const documentId = labels.save(
      {
        accountId: 'acc',
        variant: { format: 'zpl', size: 'default' },
        deliveryIds: [6001],
        parts: parts.map((p) => Buffer.from(p)),
      },
      clock.now(),
    );
    const sent = Buffer.from(parts.join('\n'));
    // Queued from the label kept a moment before (labelJobs), then its printer off for months.
    const waiting = jobs.insert(
      {
        kind: 'print',
        printerId: 'zebra',
        format: 'zpl',
        payload: sent,
        labelRef: 'zpl:6001',
        title: 'Zásilka 6001',
        labelDocumentId: documentId,
      },
      clock.now(),
    ).id;
    jobs.setState(waiting, 'failed', clock.now(), {
      reasonCode: 'offline',
      reason: 'Tiskárna je vypnutá',
      nextRetryAt: clock.now().toISOString(),
    });
    clock.advance(120 * DAY);
    await retention().run();
    expect(createPrintJobsRepo(db).payload(waiting)?.equals(sent)).toBe(true);
    for (const st of ['sending', 'sent', 'done'] as const) jobs.setState(waiting, st, clock.now());
    clock.advance(89 * DAY);
    await retention().run();
    expect(createPrintJobsRepo(db).payload(waiting)?.equals(sent)).toBe(true);
    clock.advance(2 * DAY);
    await retention().run();
    expect(labels.get(documentId)).toBeNull();
    expect(jobs.get(waiting)?.state).toBe('done');
    consistent();
  });

  it("folds a printed job's history past the labels window into one row: the queue screen's job history and the parcel's trail are the same", async () => {
    const trail = createAuditTrailRepo(db);
    const plain = scan(['sending', 'sent', 'done']);
    // A job the printer held up: out of paper, retried, moved to another printer, then printed.
    const held = scan([]);
    const at = (min: number) => new Date(clock.now().getTime() + min * 60_000);
    jobs.setState(held.jobId, 'sending', at(1), { attempt: true });
    jobs.setState(held.jobId, 'failed', at(1), {
      reasonCode: 'paper_out',
      reason: 'Došel papír v tiskárně „Zebra – balírna"',
    });
    jobs.setState(held.jobId, 'queued', at(3), { reasonCode: 'moved_by_worker', reason: 'Přesunuto na Zebra 2' });
    jobs.setState(held.jobId, 'sending', at(3), { attempt: true });
    jobs.setState(held.jobId, 'sent', at(3));
    jobs.setState(held.jobId, 'done', at(4));
    const parcels = [plain, held].map(
      (x) => db.prepare('SELECT delivery_id FROM journal_entries WHERE id = ?').pluck().get(x.entryId) as number,
    );
    const seen = () => ({
      histories: [plain, held].map((x) => jobs.history(x.jobId)),
      trails: parcels.map((d) => trail.ofDelivery('acc', d)),
    });
    const before = seen();
    expect(before.histories[1]!.map((e) => e.state)).toEqual([
      'queued',
      'sending',
      'failed',
      'queued',
      'sending',
      'sent',
      'done',
    ]);

    clock.advance(89 * DAY);
    await retention().run();
    expect(count('print_job_history')).toBe(0);
    clock.advance(2 * DAY);
    await retention().run();
    expect(count('print_job_events', `job_id IN (${plain.jobId}, ${held.jobId})`)).toBe(0);
    expect(count('print_job_history')).toBe(2);
    expect(seen()).toEqual(before);

    // A change after the fold (a worker confirms the old job printed) follows the folded history.
    jobs.setState(plain.jobId, 'done', clock.now(), {
      reasonCode: 'confirmed_by_worker',
      reason: 'Štítek potvrzen ručně',
    });
    const changed = jobs.history(plain.jobId);
    expect(changed.map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done', 'done']);
    expect(changed.slice(0, 4)).toEqual(before.histories[0]);
    clock.advance(91 * DAY);
    await retention().run();
    expect(jobs.history(plain.jobId)).toEqual(changed);
    // Past the history window the job goes with its folded history.
    clock.advance(400 * DAY);
    await retention().run();
    expect(jobs.get(plain.jobId)).toBeUndefined();
    expect(count('print_job_history')).toBe(0);
    consistent();
  });

  it("folds a settled journal entry's steps past the labels window into one row: the parcel's trail, the old day's statistics and 'closed here' are the same; an open entry keeps its rows and resumes", async () => {
    const trail = createAuditTrailRepo(db);
    const stats = createStatisticsRepo(db);
    const day0 = clock.now();
    const at = (min: number) => new Date(day0.getTime() + min * 60_000);
    // A parcel weighed on the scale, closed by this desk, printed.
    const plain = scan(['sending', 'sent', 'done'], at(1));
    journal.note(plain.entryId, 'weighed', at(2), null);
    // A parcel whose close answer was lost: the close was found by a read (maybe another desk's).
    const { entry: byRead } = journal.receiveScan({ accountId: 'acc', code: 'ŽLUŤOUČKÝ-1', rawCode: null, at: at(3) });
    journal.step([byRead.id], 'resolved', at(3), { deliveryId: 5001 });
    journal.step([byRead.id], 'close_requested', at(4));
    journal.step([byRead.id], 'closed', at(6), { reasonCode: 'close_confirmed_by_search' });
    journal.step([byRead.id], 'ended', at(7), {
      outcome: 'not_printed',
      reasonCode: 'printer_not_found',
      reason: 'Tiskárna „Zebra" je vypnutá',
    });
    // A scan still at work when the desk stopped: resolved, its close never asked.
    const { entry: open } = journal.receiveScan({ accountId: 'acc', code: 'PŘÍLIŠ-2', rawCode: null, at: at(8) });
    journal.step([open.id], 'resolved', at(8), { deliveryId: 5002 });
    const plainParcel = db
      .prepare('SELECT delivery_id FROM journal_entries WHERE id = ?')
      .pluck()
      .get(plain.entryId) as number;
    const dayEnd = new Date(day0.getTime() + DAY);
    const seen = () => ({
      trails: [plainParcel, 5001, 5002].map((d) => trail.ofDelivery('acc', d)),
      day: stats.entries(day0, dayEnd),
      steps: [plain.entryId, byRead.id, open.id].map((id) => journal.steps(id)),
      closedHere: [plainParcel, 5001].map((d) => journal.closedHere('acc', d)),
      foundByRead: [plain.entryId, byRead.id].map((id) => journal.closeFoundByRead(id)),
    });
    const before = seen();
    expect(before.closedHere).toEqual([true, false]);
    expect(before.foundByRead).toEqual([false, true]);
    expect(before.day.map((e) => e.closedAt)).toEqual([at(1).toISOString(), at(6).toISOString(), null]);

    clock.advance(89 * DAY);
    await retention().run();
    expect(count('journal_history')).toBe(0);
    clock.advance(2 * DAY);
    await retention().run();
    expect(count('journal_steps', `entry_id IN (${plain.entryId}, ${byRead.id})`)).toBe(0);
    expect(count('journal_history')).toBe(2);
    expect(seen()).toEqual(before);
    // The open entry keeps its rows, and the journal's recovery finds it where it stopped.
    expect(count('journal_steps', `entry_id = ${open.id}`)).toBe(2);
    expect(journal.unfinishedScans().map((e) => [e.id, e.step])).toEqual([[open.id, 'resolved']]);

    // A note after the fold follows the folded steps.
    journal.note(plain.entryId, 'label_verified', clock.now());
    const noted = journal.steps(plain.entryId);
    expect(noted.map((x) => x.step).slice(-2)).toEqual(['weighed', 'label_verified']);
    clock.advance(91 * DAY);
    await retention().run();
    expect(journal.steps(plain.entryId)).toEqual(noted);
    expect(stats.entries(day0, dayEnd)).toEqual(before.day);
    // Past the history window the entry goes with its folded steps.
    journal.step([open.id], 'ended', clock.now(), { outcome: 'not_found' });
    // A minute past the window, not on its edge: the clock's real milliseconds may not move between
    // the step and the run, and an entry changed exactly at the cutoff stays.
    clock.advance(400 * DAY + 60_000);
    await retention().run();
    expect(journal.get(plain.entryId)).toBeNull();
    expect(count('journal_history')).toBe(0);
    consistent();
  });

  it('merges the text index once the shipments it dropped reach a quarter of the cache: the index shrinks with the cache, and a stop in the merge leaves it to the next run', async () => {
    const shipments = createShipmentsRepo(db);
    const searchMb = () =>
      db
        .prepare(`SELECT sum(pgsize) / 1048576.0 FROM dbstat WHERE name LIKE 'shipment_search%'`)
        .pluck()
        .get() as number;
    const at = clock.now().toISOString();
    const old = Array.from({ length: 3000 }, (_, i) =>
      closedRecord(10_000 + i, {
        state: 3,
        created: at,
        closed: at,
        externalId: `OBJ-${i}`,
        ticketNote: `Žluťoučký kůň ${i}`,
      }),
    );
    for (let i = 0; i < old.length; i += 500) shipments.upsertMany('acc', old.slice(i, i + 500), clock.now());
    clock.advance(91 * DAY);
    const recent = Array.from({ length: 600 }, (_, i) =>
      closedRecord(20_000 + i, {
        created: clock.now().toISOString(),
        externalId: `NEW-${i}`,
        ticketNote: `Příliš ${i}`,
      }),
    );
    shipments.upsertMany('acc', recent, clock.now());
    const before = searchMb();
    const found = (text: string) => shipments.query('acc', { text }).total;
    const recentFinds = ['NEW-599', 'Příliš 42', 'NEW-1'].map(found);

    // Stopped after a few steps of the merge (the shipments are gone by then).
    let stepsAfter = 0;
    const stopped = retention({
      betweenSlices: async () => {
        if (count('shipments') === recent.length && ++stepsAfter > 3) throw new Error('the station stopped here');
      },
    });
    await expect(stopped.run()).rejects.toThrow('the station stopped here');
    consistent();
    expect(count('shipments')).toBe(recent.length);

    await retention().run();
    consistent();
    // 600 of 3,600 shipments left: their index is well under half of what it was (it stayed as
    // large, 3,000 rows deleted inside it, before the merge).
    expect(searchMb()).toBeLessThan(before * 0.4);
    expect(['NEW-599', 'Příliš 42', 'NEW-1'].map(found)).toEqual(recentFinds);
    expect(recentFinds.every((n) => n > 0)).toBe(true);
    expect(found('OBJ-1')).toBe(0);
  });

  it("takes the text index rows of a slice's shipments out with one write of the index, not one per shipment", async () => {
    const shipments = createShipmentsRepo(db);
    const at = clock.now().toISOString();
    const old = Array.from({ length: 300 }, (_, i) =>
      closedRecord(10_000 + i, { state: 3, created: at, closed: at, ticketNote: `Žluťoučký kůň ${i}` }),
    );
    shipments.upsertMany('acc', old, clock.now());
    clock.advance(91 * DAY);
    // Enough recent ones that the removed stay under a quarter of the cache: no merge follows.
    const recent = Array.from({ length: 1000 }, (_, i) =>
      closedRecord(20_000 + i, { created: clock.now().toISOString(), ticketNote: `Příliš ${i}` }),
    );
    shipments.upsertMany('acc', recent, clock.now());
    const before = searchIndexLeavesWritten(db);

    await retention().run();
    consistent();
    expect(count('shipments')).toBe(recent.length);
    // Slices of 16 to 50 shipments: 21 leaf pages when written; one write per shipment was 300.
    expect(searchIndexLeavesWritten(db) - before).toBeLessThan(60);
    expect(shipments.query('acc', { text: 'kůň 7' }).total).toBe(0);
    expect(shipments.query('acc', { text: 'příliš 7' }).total).toBeGreaterThan(0);
  });

  it('the Status answer gives the data folder size and the windows', async () => {
    const s = await retention().handlers['retention.get']();
    expect(s.settings).toEqual({ labelsDays: 90, historyDays: 400 });
    expect(s.dataFolderBytes).toBeGreaterThan(4096);
    expect(s.lastRun).toBeNull();
  });
});
