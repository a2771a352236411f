/**
 * Events scale, as a page ends up showing them: the print queue and the line of
 * scans go to the page as gathered changes (electron/status/pageFeeds.ts), and a page that follows them
 * with the page's own code (renderer/src/state/followJobs.ts, followList.ts) shows what the
 * station's list calls show, also when it missed changes on the way (a connection lost). Real
 * parts: the composed station with its built-in virtual label printer, a real sandbox over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createShipmentsChangedFeed, SHIPMENTS_NAMED_MAX } from '../../../electron/status/pageFeeds';
import { createStation, type Station } from '../../../electron/station';
import { followJobs, type JobsView } from '../../../renderer/src/state/followJobs';
import { followList } from '../../../renderer/src/state/followList';
import type { JobsChange, JobView } from '../../../shared/contract/printing';
import type { PendingScan, PendingScans, PendingScansChange } from '../../../shared/contract/workflows';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { memoryLogger } from '../../support/memoryLogger';
import { waitFor } from '../printing/printingTestKit';

const dir = mkdtempSync(path.join(os.tmpdir(), 'station-page-feeds-'));
let sb: Sandbox | null = null;
let station: Station;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo', dataFile: path.join(dir, 'sandbox.db') });
  station = await createStation({
    dataDir: path.join(dir, 'station'),
    host: 'web',
    version: 'test',
    log: memoryLogger(),
    sandbox: sb,
    secrets: createMemorySecretStore(),
    printWaitMs: 2000,
    healthIntervalMs: 600_000,
  });
}, 60_000);

afterAll(async () => {
  await station?.close();
  await sb?.close();
});

async function call<T>(method: string, params: object = {}): Promise<T> {
  const r = await station.rpc.dispatch(method, params);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

/** A page following one view of the print queue, fed the station's frames unless told to miss them. */
function jobsPage(view: JobsView) {
  let shown: JobView[] = [];
  let missing = false;
  const follow = followJobs({
    view,
    request: async (params) => call<{ version: number; jobs: JobView[] }>('printing.queue.follow', params),
    publish: (list) => (shown = list),
  });
  station.rpc.onEvent((name, payload) => {
    if (name === 'printing.jobs' && !missing) follow.apply(payload as JobsChange);
  });
  return {
    shown: () => shown,
    load: () => follow.reload(),
    /** Frames from now on are lost, as with a dropped connection, until `back()`. */
    lose: () => (missing = true),
    back: () => (missing = false),
  };
}

/** What the queue screen shows of a job. */
const row = (j: JobView) => ({
  id: j.id,
  state: j.state,
  title: j.title,
  attempts: j.attempts,
  reason: j.reason,
  printer: j.printerId,
  updatedAt: j.updatedAt,
});

describe('the print queue as a page follows it', () => {
  it('after a burst of gathered changes, shows what the station lists; a page that missed changes loads again', async () => {
    const changes: JobsChange[] = [];
    station.rpc.onEvent((name, payload) => {
      if (name === 'printing.jobs') changes.push(payload as JobsChange);
    });
    const all = jobsPage({ limit: 300 });
    const active = jobsPage({
      states: ['queued', 'sending', 'sent', 'failed', 'uncertain', 'unconfirmed'],
      limit: 500,
    });
    const lossy = jobsPage({ limit: 300 });
    await Promise.all([all.load(), active.load(), lossy.load()]);

    // 40 test labels at once on the built-in label printer: each job is queued, sent and done.
    // The lossy page misses every frame of the burst, as with a connection lost meanwhile.
    lossy.lose();
    const jobs = await Promise.all(
      Array.from({ length: 40 }, () => call<JobView>('printing.printers.testPrint', { printerId: 'virtual-zpl' })),
    );
    const core = async () => (await call<JobView[]>('printing.queue.list', { limit: 300 })).map(row);
    const untilDone = async (ids: number[]) => {
      const end = Date.now() + 30_000;
      while ((await core()).filter((j) => ids.includes(j.id) && j.state === 'done').length < ids.length) {
        if (Date.now() > end) throw new Error('the test labels did not print');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await untilDone(jobs.map((j) => j.id));
    // Back: the next change it gets is not the one after what it holds, so it loads its list again.
    lossy.back();
    jobs.push(await call<JobView>('printing.printers.testPrint', { printerId: 'virtual-zpl' }));
    const ids = jobs.map((j) => j.id);
    await untilDone(ids);
    const expected = await core();

    // Each page ends where the station is: every row, its state, attempts and time.
    await waitFor(() => JSON.stringify(all.shown().map(row)) === JSON.stringify(expected), 10_000);
    await waitFor(() => JSON.stringify(lossy.shown().map(row)) === JSON.stringify(expected), 10_000);
    // The active view: the printed jobs have left it.
    await waitFor(() => active.shown().every((j) => !ids.includes(j.id)), 10_000);
    expect(
      all
        .shown()
        .filter((j) => ids.includes(j.id))
        .map((j) => j.state),
    ).toEqual(ids.map(() => 'done'));

    // A change names the job and its state; nothing a job never changes rides along.
    const entries = changes.flatMap((c) => c.jobs).filter((e) => ids.includes(e.id));
    expect(entries.every((e) => Object.keys(e).sort().join() === 'id,state')).toBe(true);
    // Each job once per state it passed through at most (queued, sending, sent, done), never more.
    for (const id of ids) expect(entries.filter((e) => e.id === id).length).toBeLessThanOrEqual(4);
    // The versions count the changes one by one: a page can tell when it missed one.
    expect(changes.map((c) => c.version)).toEqual(changes.map((_, i) => changes[0]!.version + i));
  }, 60_000);
});

describe('the line of scans as a page follows it', () => {
  it('a page that missed changes loads the line again and shows what the station lists', async () => {
    let shown: PendingScan[] = [];
    let missing = false;
    let loads = 0;
    const line = followList<PendingScan, number>({
      load: async () => {
        loads++;
        const r = await call<PendingScans>('scan.pending');
        return { version: r.version, list: r.scans };
      },
      key: (p) => p.scanId,
      publish: (list) => (shown = list.sort((a, b) => a.scanId - b.scanId)),
    });
    station.rpc.onEvent((name, payload) => {
      if (name === 'scan.pending' && !missing) line.apply(payload as PendingScansChange);
    });
    await line.reload();
    const loadsAtStart = loads;

    // The service is away: the scans wait in line, the page misses some of the changes.
    const port = sb!.port;
    await sb!.close();
    sb = null;
    const codes = Array.from({ length: 30 }, (_, i) => `ŠTÍTEK-ČEKÁ-${i + 1}`);
    await call('scan.submit', { code: codes[0] });
    missing = true;
    for (const code of codes.slice(1, 15)) await call('scan.submit', { code });
    await new Promise((r) => setTimeout(r, 600));
    missing = false;
    for (const code of codes.slice(15)) await call('scan.submit', { code });

    const onScreen = (l: PendingScan[]) =>
      l.map((p) => ({ scanId: p.scanId, code: p.code, state: p.state, reason: p.reason?.code ?? null }));
    let whole: PendingScans | null = null;
    await waitFor(
      () => {
        void call<PendingScans>('scan.pending').then((w) => (whole = w));
        return (
          whole !== null &&
          whole.scans.length === codes.length &&
          JSON.stringify(onScreen(shown)) === JSON.stringify(onScreen(whole.scans))
        );
      },
      20_000,
      100,
    );
    expect(shown.map((p) => p.code)).toEqual(codes);
    expect(loads).toBeGreaterThan(loadsAtStart); // it noticed the gap and loaded the line again

    sb = await startSandbox({ port, dataFile: path.join(dir, 'sandbox.db') });
    station.workflows.scanToClose.wake();
    await waitFor(() => shown.length === 0, 60_000, 100);
  }, 120_000);
});

describe('shipments.changed in a burst', () => {
  it('one event per account per window naming every changed shipment; too many to name says "all"', async () => {
    const sent: { accountId: string; deliveryIds: number[]; all?: boolean }[] = [];
    const feed = createShipmentsChangedFeed((e) => sent.push(e), 50);
    // A close per scan: 300 shipments of one company, 30 of another, one by one.
    for (let i = 1; i <= 300; i++) feed.changed('firma-š', [i]);
    for (let i = 1; i <= 30; i++) feed.changed('firma-ž', [1000 + i]);
    await waitFor(() => sent.flatMap((e) => e.deliveryIds).length === 330, 2000);
    expect(sent.length).toBeLessThan(10);
    expect(new Set(sent.filter((e) => e.accountId === 'firma-š').flatMap((e) => e.deliveryIds))).toEqual(
      new Set(Array.from({ length: 300 }, (_, i) => i + 1)),
    );
    expect(new Set(sent.filter((e) => e.accountId === 'firma-ž').flatMap((e) => e.deliveryIds)).size).toBe(30);

    // A sync of thousands: the page reloads what it shows instead of reading a list of ids.
    sent.length = 0;
    feed.changed('firma-š', [1]);
    for (let i = 0; i < 10; i++)
      feed.changed(
        'firma-š',
        Array.from({ length: 100 }, (_, k) => 5000 + i * 100 + k),
      );
    await waitFor(() => sent.some((e) => e.all), 2000);
    expect(sent.find((e) => e.all)).toEqual({ accountId: 'firma-š', deliveryIds: [], all: true });
    expect(sent.every((e) => e.all || e.deliveryIds.length <= SHIPMENTS_NAMED_MAX)).toBe(true);
    feed.stop();
  });
});
