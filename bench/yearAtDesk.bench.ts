/**
 * A year at a busy desk. A database as BENCH_YEAR_DAYS (365) days at BENCH_YEAR_LABELS_PER_DAY
 * (2,000) labels a day leave it, written through the station's own store functions
 * (harness/yearData.ts: cache row, scan log, journal and its steps, kept labels, print job with its
 * bytes and history, one transaction a day), against an empty database, in the same run, on the
 * same sandbox process and virtual printer, both holding the day's BENCH_YEAR_TODAY (600) other
 * orders. For each: the core's cold start (process start to "ready to scan": its web host up and
 * a first `station.status` answered; median of 3, the databases alternating; the files are in the
 * OS cache), the first sync after the start (`shipments.sync`, which brings the shipments scanned
 * next), scan -> label p50/p95 over BENCH_YEAR_SCANS (300) scans timed as scanToLabel does (the
 * cores' scans interleaved, so both meet the same load), then the print queue screen's (active
 * jobs, and "all") and the Shipments screen's first rows (the calls each screen makes on opening,
 * together, timed to the last answer; the first opening and the median of 5 more), a sync again
 * (nothing new), and the data folder's size on disk. Each year figure is also given as a ratio of
 * the empty database's (target: within 1.2x).
 *
 * Retention runs through `applyRetention(dataDir)` on a copy of the year's
 * folder, with the desk's default windows, to the end (as the hourly run would, in larger slices).
 * BENCH_YEAR_HISTORY_DAYS (default: the desk's 400) sets its history window: the journal, the scan
 * log and print jobs keep that many days (the shipments cache follows the labels window), so a run shorter than 400 days shows
 * what a desk in its steady state keeps (BENCH_YEAR_DAYS=60 BENCH_YEAR_HISTORY_DAYS=30). The year's shipments have deliveryIds below the service's (its counter is
 * moved past them), as a real desk's history is older than today's shipments; the service does
 * not hold them, so a sync walks only its own (today's) shipments on both databases.
 *
 * Last, scans while a retention run goes: the year's core (without retention so far) is told the
 * desk's windows over its contract, which starts the first run on its year in the background, and
 * BENCH_YEAR_RETENTION_RUN_SCANS (300; 0 leaves it out) scans are timed on it and on the empty
 * core, interleaved, while the run is under way (p95 target: within 1.2x of the empty one's).
 *
 * BENCH_CORE_PROF=DIR profiles each core's first sync and prints what took the time.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { systemClock } from '../electron/base/clock';
import { createRetention } from '../electron/retention/retention';
import { defaultRetentionSettings } from '../shared/contract/retention';
import { openDatabase } from '../electron/store/database';
import { createSettingsRepo } from '../electron/store/settingsRepo';
import { delivery as deliverySchema } from '../electron/api/schemas';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { closeShipments, insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, straceAvailable, type Core, type CoreFigures } from './harness/core';
import { timedScan } from './harness/timedScan';
import { startSandboxProcess, type SandboxProcess } from './harness/sandboxProcess';
import { fillYear } from './harness/yearData';
import { showProfile } from './harness/profileTop';
import { summarize } from './stats';

const DAYS = Number(process.env.BENCH_YEAR_DAYS ?? 365);
const PER_DAY = Number(process.env.BENCH_YEAR_LABELS_PER_DAY ?? 2000);
/** 300 and more: the empty database's queue holds a full page of the "all" view (300 jobs), as the year's does. */
const SCANS = Number(process.env.BENCH_YEAR_SCANS ?? 300);
const WARMUP = 5;
const SCREEN_REPEATS = 5;
const COLD_STARTS = 3;
/** The day's other orders at the service (prepared, synced by both cores): full screen pages on both. */
const TODAY = Number(process.env.BENCH_YEAR_TODAY ?? 600);
/** The year's first deliveryId; the service's counter is moved past the year's last. */
const FIRST_ID = 100_001;
/** The printer coreChild.ts sets up (every carrier routed to it). */
const PRINTER_ID = 'bench-zpl';
/** The retention's history window for the "with retention" copy (days; 30 is the least the setting takes). */
const HISTORY_DAYS = Number(process.env.BENCH_YEAR_HISTORY_DAYS ?? defaultRetentionSettings.historyDays);
/** Scans timed while a retention run goes on the year's database (0: not measured). */
const RETENTION_RUN_SCANS = Number(process.env.BENCH_YEAR_RETENTION_RUN_SCANS ?? 300);
/**
 * BENCH_YEAR_RETENTION_STRACE=1: both cores of the scans during a retention run go under strace
 * (harness/core.ts), and their disk syncs per scan are reported: what a scan's -wal sync carries
 * while the run writes.
 */
const RETENTION_STRACE = process.env.BENCH_YEAR_RETENTION_STRACE === '1' && straceAvailable();
const ACTIVE_JOBS = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'unconfirmed'] as const;

/**
 * Applies the station's retention (electron/retention), with the desk's default labels window and
 * HISTORY_DAYS of history, to the data folder `dataDir` (a stopped station's) until nothing more
 * is due, reclaiming the space. Called on a copy of the year's folder: the year is measured
 * without retention too. Returns the shipments the cache holds after it.
 */
async function applyRetention(dataDir: string): Promise<number> {
  const db = openDatabase(path.join(dataDir, 'station.db'));
  try {
    // The desk's defaults (90 days of labels, 400 of history unless set), run to the end as the hourly run would.
    const retention = createRetention({
      db,
      settings: createSettingsRepo(db),
      clock: systemClock,
      dataDir,
      log: { info: () => undefined, error: () => undefined },
      rowsPerSlice: 2000,
      betweenSlices: () => Promise.resolve(),
    });
    retention.handlers['retention.set']({ ...defaultRetentionSettings, historyDays: HISTORY_DAYS });
    await retention.run();
    return db.prepare('SELECT count(*) FROM shipments').pluck().get() as number;
  } finally {
    db.close();
  }
}
/** True once applyRetention applies the station's retention (a full year's copy is some GB: made only then). */
const RETENTION_WIRED = true;

/**
 * Where a database's bytes are, by table: each index and each of a full-text index's shadow tables
 * counted with the table it serves (dbstat is compiled into better-sqlite3). In MB, largest first.
 */
function tableSizes(dbFile: string): [string, number][] {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT coalesce(m.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes
         FROM dbstat d LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1`,
      )
      .all() as { name: string; bytes: number }[];
    const virtual = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
        .pluck()
        .all() as string[],
    );
    const byTable = new Map<string, number>();
    for (const r of rows) {
      // An FTS5 table's shadow tables (<name>_data, _idx, _content, _docsize, _config) are its own.
      const shadow = /^(.*)_(data|idx|content|docsize|config)$/.exec(r.name);
      const name = shadow && virtual.has(shadow[1]!) ? shadow[1]! : r.name;
      byTable.set(name, (byTable.get(name) ?? 0) + r.bytes / 2 ** 20);
    }
    return [...byTable].sort((a, b) => b[1] - a[1]);
  } finally {
    db.close();
  }
}

/** Bytes of every file under a folder (the database, its WAL and anything else the station keeps). */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}

async function api(sb: SandboxProcess, token: string, p: string): Promise<unknown> {
  const res = await fetch(sb.url + p, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The calls a screen makes on opening, together; ms to the last answer. */
async function timed(calls: () => Promise<unknown>[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(calls());
  return performance.now() - t0;
}

/** This process's garbage collections (start, ms): the benchmark's own pauses, which a screen's time includes. */
const benchGc: { start: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) benchGc.push({ start: e.startTime, ms: e.duration });
  if (benchGc.length > 10_000) benchGc.splice(0, 5_000);
}).observe({ entryTypes: ['gc'] });
const benchGcMs = (from: number, to: number) =>
  benchGc.filter((g) => g.start + g.ms > from && g.start < to).reduce((a, g) => a + g.ms, 0);

/**
 * A repeated opening with what happened in it: the time to the last answer, the core's CPU (all
 * threads) and collections, its event loop's longest delay, the events it pushed meanwhile (work
 * of its own: a sync, the queue's changes), and this process's collections.
 */
async function timedOpening(c: Core, calls: () => Promise<unknown>[]) {
  let events = 0;
  const off = c.onEvent(() => events++);
  await c.mark();
  const t0 = performance.now();
  const ms = await timed(calls);
  const core = await c.measure();
  off();
  return { ms, core, events, benchGcMs: benchGcMs(t0, t0 + ms) };
}

const queueScreen = (core: Core) => () => [
  core.call('printing.queue.follow', { states: [...ACTIVE_JOBS], limit: 500 }),
  core.call('printing.printers.list', {}),
];
const queueScreenAll = (core: Core) => () => [core.call('printing.queue.follow', { limit: 300 })];
const shipmentsScreen = (core: Core) => () => [
  core.call('shipments.query', { offset: 0, limit: 200 }),
  core.call('shipments.query', { limit: 500 }),
  core.call('collectionPlaces.list', {}),
];

/**
 * Scans while a retention run goes (the first on the year's database, as a desk whose retention is
 * switched on after a year: the longest run there is): the year's core started again and told the
 * desk's windows (`retention.set`, which starts a run in the background, in its slices), then
 * RETENTION_RUN_SCANS scans interleaved with the empty core's, timed as above while the run is
 * under way (`retention.get` says when it finished). The year's folder is changed: measured last.
 */
async function scansDuringRetention(
  sb: SandboxProcess,
  token: string,
  variants: Variant[],
  printer: Awaited<ReturnType<typeof startVirtualZplPrinter>>,
  out: Record<string, number>,
): Promise<void> {
  const pair = variants.filter((v) => v.name === 'empty' || v.name === 'year');
  await insertShipments(sb, token, RETENTION_RUN_SCANS + WARMUP, 'RUN-empty-');
  await insertShipments(sb, token, RETENTION_RUN_SCANS + WARMUP, 'RUN-year-');
  try {
    for (const v of pair) {
      v.core = await startCore({ sandbox: sb, printerPort: printer.port, dataDir: v.dir, strace: RETENTION_STRACE });
      const sync = await v.core.call('shipments.sync', {});
      if (sync.phase !== 'done') throw new Error(`${v.name}: sync ended ${sync.phase}: ${sync.error?.message}`);
    }
    const year = pair.find((v) => v.name === 'year')!.core!;
    const before = (await year.call('retention.get', {})).lastRun?.finishedAt ?? null;
    await year.call('retention.set', { ...defaultRetentionSettings, historyDays: HISTORY_DAYS });
    const running = async () => ((await year.call('retention.get', {})).lastRun?.finishedAt ?? null) === before;
    const times = new Map(pair.map((v) => [v.name, [] as number[]]));
    const from = Date.now() / 1000;
    let i = 0;
    for (; i < RETENTION_RUN_SCANS + WARMUP && (await running()); i++)
      for (const v of pair) {
        const ms = await timedScan(v.core!, printer, `RUN-${v.name}-${i + 1}`);
        if (i >= WARMUP) times.get(v.name)!.push(ms);
      }
    const to = Date.now() / 1000;
    for (const v of pair) {
      const syncs = v.core!.syncs(from, to);
      if (!syncs || i === 0) continue;
      out[`retention_run_${v.name}_disk_syncs_per_scan`] = syncs.count / i;
      out[`retention_run_${v.name}_disk_sync_ms_per_scan`] = syncs.ms / i;
    }
    out['retention_run_scans'] = Math.max(0, i - WARMUP);
    out['retention_run_still_running'] = (await running()) ? 1 : 0;
    if (i <= WARMUP) return;
    const e = summarize(times.get('empty')!);
    const y = summarize(times.get('year')!);
    out['retention_run_empty_scan_p50_ms'] = e.p50;
    out['retention_run_empty_scan_p95_ms'] = e.p95;
    out['retention_run_year_scan_p50_ms'] = y.p50;
    out['retention_run_year_scan_p95_ms'] = y.p95;
    out['year_retention_run_vs_empty_scan_p50_ratio'] = y.p50 / e.p50;
    out['year_retention_run_vs_empty_scan_p95_ratio'] = y.p95 / e.p95;
  } finally {
    for (const v of pair) {
      await v.core?.close();
      v.core = undefined;
    }
  }
}

/** A measured span's CPU by thread as figures: `<prefix>_cpu_ms_thread_<name>`. */
function putThreadsCpu(out: Record<string, number>, prefix: string, m: Pick<CoreFigures, 'threadsCpuMs'>): void {
  for (const [thread, ms] of Object.entries(m.threadsCpuMs))
    out[`${prefix}_cpu_ms_thread_${thread.replace(/[^A-Za-z0-9]+/g, '_')}`] = ms;
}

interface Variant {
  name: 'empty' | 'year' | 'year_retention';
  dir: string;
  core?: Core;
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-year-'));
  const sandboxFile = path.join(work, 'sandbox.db');
  let sb: SandboxProcess | null = null;
  const printer = await startVirtualZplPrinter();
  const variants: Variant[] = [
    { name: 'empty', dir: path.join(work, 'empty') },
    { name: 'year', dir: path.join(work, 'year') },
  ];
  try {
    // A sample of what the service answers for a closed shipment and its label.
    sb = await startSandboxProcess('none', { data: sandboxFile });
    let token = await sandboxToken(sb);
    const [sampleId] = await insertShipments(sb, token, 1, 'SAMPLE-');
    const closed: unknown = (await closeShipments(sb, token, [sampleId!]))[0];
    const zpl = (await api(sb, token, `/api/v3/deliveries/zpl?deliveryId=${sampleId}`)) as {
      data: { zplCodes: string[] }[];
    };
    const sample = { delivery: deliverySchema.parse(closed), zplCodes: zpl.data[0]!.zplCodes };
    await sb.close();
    // The service's next deliveryIds come after the year's.
    const sdb = new Database(sandboxFile);
    sdb
      .prepare(
        "INSERT INTO counters (name, value) VALUES ('deliveryId', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
      )
      .run(FIRST_ID + DAYS * PER_DAY + 1000);
    sdb.close();
    sb = await startSandboxProcess('none', { data: sandboxFile });
    token = await sandboxToken(sb);

    // Each data folder as a first start leaves it (the account, the printer, the routes).
    for (const v of variants)
      await (await startCore({ sandbox: sb, printerPort: printer.port, dataDir: v.dir })).close();
    const yearDir = variants[1]!.dir;
    const dbFile = path.join(yearDir, 'station', 'station.db');
    const adb = new Database(dbFile, { readonly: true });
    const accountId = (adb.prepare('SELECT id FROM accounts LIMIT 1').get() as { id: string } | undefined)?.id;
    adb.close();
    if (!accountId) throw new Error('the core made no account at its first start');
    const today = new Date();
    const made = fillYear({
      dbFile,
      accountId,
      printerId: PRINTER_ID,
      days: DAYS,
      labelsPerDay: PER_DAY,
      firstDeliveryId: FIRST_ID,
      endDay: today,
      sample,
      onDay: (day, labels, ms) => {
        if ((day + 1) % 10 === 0 || day + 1 === DAYS)
          process.stdout.write(`  year: day ${day + 1}/${DAYS}, ${labels} labels (${ms.toFixed(0)} ms the last day)\n`);
      },
    });
    out['year_days'] = DAYS;
    out['year_labels_per_day'] = PER_DAY;
    out['year_labels'] = made.labels;
    out['year_generation_s'] = made.ms / 1000;
    // Where the year's bytes are, by table with its indexes (the figures say what a size is made of).
    for (const [name, mb] of tableSizes(dbFile)) if (mb >= 1) out[`year_mb_in_${name}`] = mb;
    // The fill held this process's event loop for minutes: the HTTP client's idle connections to the
    // sandbox, closed by it meanwhile, are dropped by their timers before the next request.
    await new Promise((r) => setTimeout(r, 2_000));

    if (RETENTION_WIRED) {
      const retDir = path.join(work, 'year_retention');
      cpSync(yearDir, retDir, { recursive: true });
      const t0 = performance.now();
      out['year_retention_history_days'] = HISTORY_DAYS;
      out['year_retention_shipments'] = await applyRetention(path.join(retDir, 'station'));
      out['year_retention_apply_s'] = (performance.now() - t0) / 1000;
      for (const [name, mb] of tableSizes(path.join(retDir, 'station', 'station.db')))
        if (mb >= 1) out[`year_retention_mb_in_${name}`] = mb;
      // The run held this process's event loop as the fill did (its slices do not wait for a turn here).
      await new Promise((r) => setTimeout(r, 2_000));
      variants.push({ name: 'year_retention', dir: retDir });
    }
    out['year_retention_measured'] = RETENTION_WIRED ? 1 : 0;

    // Shipments to scan, one set per variant, and the day's other orders waiting (the screens show
    // full pages on both databases), all newer than the year's.
    const n = SCANS + WARMUP;
    for (const v of variants) await insertShipments(sb, token, n, `${v.name}-`);
    await insertShipments(sb, token, TODAY, 'TODAY-', 500);

    // Cold start to "ready to scan": the median of COLD_STARTS starts, the variants alternating.
    // The last start of each is followed at once by its first sync (it brings the shipments just
    // made): `shipments.sync` joins the sync the station starts by itself once its account is
    // usable, so each variant's figure is measured from the same point after its own start. (Three
    // starts first, then three syncs, gave the last-started core's sync its start-up sync's
    // remainder and the others none: the "first sync with retention 3.4x" of 2026-11-29.)
    const starts = new Map(variants.map((v) => [v.name, [] as number[]]));
    for (let r = 0; r < COLD_STARTS; r++)
      for (const v of variants) {
        if (r === 0) out[`${v.name}_size_before_mb`] = folderBytes(path.join(v.dir, 'station')) / 2 ** 20;
        const t0 = performance.now();
        const last = r === COLD_STARTS - 1;
        const profileDir = last ? process.env.BENCH_CORE_PROF : undefined;
        const core = await startCore({ sandbox: sb, printerPort: printer.port, dataDir: v.dir, profileDir });
        await core.call('station.status', {});
        starts.get(v.name)!.push(performance.now() - t0);
        if (!last) {
          await core.close();
          continue;
        }
        v.core = core;
        await core.mark();
        const t1 = performance.now();
        const sync = await core.call('shipments.sync', {});
        out[`${v.name}_sync_ms`] = performance.now() - t1;
        const c = await core.measure();
        out[`${v.name}_sync_core_cpu_ms`] = c.cpuMs;
        // Which thread spent it: the event loop's (`main`), or another (the checkpoint worker, the GC).
        putThreadsCpu(out, `${v.name}_sync`, c);
        out[`${v.name}_sync_gc_ms`] = c.gc.ms;
        out[`${v.name}_sync_gc_major_ms`] = c.gc.majorMs;
        showProfile(`${v.name} first sync`, c.profile, c.longestTask);
        if (sync.phase !== 'done') throw new Error(`${v.name}: sync ended ${sync.phase}: ${sync.error?.message}`);
      }
    for (const v of variants) out[`${v.name}_cold_start_ms`] = summarize(starts.get(v.name)!).p50;

    // Scan -> label, the variants' scans interleaved.
    const times = new Map(variants.map((v) => [v.name, [] as number[]]));
    for (let i = 0; i < n; i++)
      for (const v of variants) {
        const ms = await timedScan(v.core!, printer, `${v.name}-${i + 1}`);
        if (i >= WARMUP) times.get(v.name)!.push(ms);
      }
    out['scans'] = SCANS;
    for (const v of variants) {
      const s = summarize(times.get(v.name)!);
      out[`${v.name}_scan_p50_ms`] = s.p50;
      out[`${v.name}_scan_p95_ms`] = s.p95;
    }

    // The screens' first rows, after the scans (both queues hold the day's jobs): the first
    // opening, then the median of more.
    for (const v of variants) {
      const c = v.core!;
      const spans: CoreFigures[] = [];
      for (const [screen, calls] of [
        ['queue_screen', queueScreen(c)],
        ['queue_screen_all', queueScreenAll(c)],
        ['shipments_screen', shipmentsScreen(c)],
      ] as const) {
        await c.mark();
        out[`${v.name}_${screen}_first_ms`] = await timed(calls);
        const first = await c.measure();
        spans.push(first);
        // A first opening's own CPU, collections and reads: what a figure that misses did.
        out[`${v.name}_${screen}_first_cpu_ms`] = first.cpuMs; // all threads, to the microsecond
        out[`${v.name}_${screen}_first_gc_ms`] = first.gc.ms;
        out[`${v.name}_${screen}_first_read_calls`] = first.io.syscr;
        out[`${v.name}_${screen}_first_read_kb`] = first.io.rchar / 1024;
        out[`${v.name}_${screen}_first_storage_read_kb`] = first.io.readBytes / 1024;
        out[`${v.name}_${screen}_first_major_faults`] = first.io.majflt;
        // Each repeated opening on its own (its figures: timedOpening), so a median that misses
        // says whether the core worked longer, collected, did something else, or the benchmark did.
        const again: Awaited<ReturnType<typeof timedOpening>>[] = [];
        for (let i = 0; i < SCREEN_REPEATS; i++) {
          const o = await timedOpening(c, calls);
          again.push(o);
          spans.push(o.core);
        }
        const med = (f: (o: (typeof again)[number]) => number) => summarize(again.map(f)).p50;
        out[`${v.name}_${screen}_p50_ms`] = med((o) => o.ms);
        out[`${v.name}_${screen}_again_max_ms`] = Math.max(...again.map((o) => o.ms));
        out[`${v.name}_${screen}_again_cpu_p50_ms`] = med((o) => o.core.cpuMs);
        out[`${v.name}_${screen}_again_loop_max_ms`] = Math.max(...again.map((o) => o.core.loopMaxMs));
        out[`${v.name}_${screen}_again_gc_ms`] = again.reduce((a, o) => a + o.core.gc.ms, 0);
        out[`${v.name}_${screen}_again_events`] = again.reduce((a, o) => a + o.events, 0);
        out[`${v.name}_${screen}_again_bench_gc_ms`] = again.reduce((a, o) => a + o.benchGcMs, 0);
      }
      // The screens' CPU by thread: a figure that misses says whether the core did something else meanwhile.
      const threadsCpuMs: Record<string, number> = {};
      for (const m of spans)
        for (const [thread, ms] of Object.entries(m.threadsCpuMs))
          threadsCpuMs[thread] = (threadsCpuMs[thread] ?? 0) + ms;
      putThreadsCpu(out, `${v.name}_screens`, { threadsCpuMs });
      out[`${v.name}_screens_gc_ms`] = spans.reduce((a, m) => a + m.gc.ms, 0);
    }
    // A sync later in the day (nothing new at the service): the one a desk makes again and again.
    for (const v of variants) {
      const t0 = performance.now();
      await v.core!.call('shipments.sync', {});
      out[`${v.name}_sync_again_ms`] = performance.now() - t0;
    }
    for (const v of variants) {
      await v.core!.close();
      v.core = undefined;
      out[`${v.name}_size_mb`] = folderBytes(path.join(v.dir, 'station')) / 2 ** 20;
    }
    if (RETENTION_RUN_SCANS > 0) await scansDuringRetention(sb, token, variants, printer, out);

    out['year_kb_per_label'] =
      ((out['year_size_before_mb']! - out['empty_size_before_mb']!) * 1024) / Math.max(1, made.labels);
    // What a desk holds per label of its history with retention on (over every label made: the
    // figure a year at the desk's pace multiplies into its size).
    if (RETENTION_WIRED)
      out['year_retention_kb_per_label'] =
        ((out['year_retention_size_before_mb']! - out['empty_size_before_mb']!) * 1024) / Math.max(1, made.labels);
    // The year's figures against the empty database's.
    for (const v of variants.filter((x) => x.name !== 'empty'))
      for (const f of [
        'cold_start_ms',
        'sync_ms',
        'sync_again_ms',
        'queue_screen_first_ms',
        'queue_screen_p50_ms',
        'queue_screen_all_first_ms',
        'queue_screen_all_p50_ms',
        'shipments_screen_first_ms',
        'shipments_screen_p50_ms',
        'scan_p50_ms',
        'scan_p95_ms',
      ])
        if (out[`${v.name}_${f}`] !== undefined)
          out[`${v.name}_vs_empty_${f.replace(/_ms$/, '')}_ratio`] = out[`${v.name}_${f}`]! / out[`empty_${f}`]!;
  } finally {
    for (const v of variants) await v.core?.close();
    await printer.close();
    await sb?.close();
    // BENCH_YEAR_KEEP=1 leaves the data folders for a look with other tools (some GB).
    if (process.env.BENCH_YEAR_KEEP === '1') process.stdout.write(`  kept: ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
  return out;
}
