/**
 * Crash, the whole chain: scan -> close at the service -> labels fetched -> print job -> TCP label
 * printer, with the real station core in a child process (fixtures/stationChild.ts) killed with
 * SIGKILL at random moments, over 100 times, on one data folder. Around it, in this process: a
 * real sandbox (latency on the close and on the ZPL fetch, to widen the windows between steps)
 * and a real TCP listener as the label printer.
 *
 * The test plays the worker: a scan the station acknowledged is never scanned again (the worker
 * saw it taken); a scan never acknowledged may be scanned again later. After a last run that is
 * not killed (settle, quit), per shipment, from the service, the printer and the station's SQLite:
 *   - lost scans: an acknowledged scan (or a code collected into a batch) without a final outcome;
 *   - lost labels: a shipment closed at the service with a package label that never came out and
 *     no print job flagged for the worker (uncertain / unconfirmed);
 *   - unflagged duplicates: a package label that came out twice with nothing flagged (uncertain /
 *     unconfirmed job, or a worker's reprint);
 *   - PRAGMA integrity_check is ok after every kill.
 *
 * Replay: the seed is printed; CRASH_SEED=<n> repeats the same choices (kill points depend on
 * timing too). CRASH_KILLS (default 105) and CRASH_SHIPMENTS (default 800) size the run;
 * CRASH_KEEP=1 keeps the station's data folder for a look at station.db afterwards.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { orderItem, sandboxFault, sandboxToken } from '../../support/sandboxShipments';

const repoRoot = path.resolve(__dirname, '../../..');
// Inside node_modules so the bundle resolves its packages (better-sqlite3 is native) from the project.
const outDir = path.join(repoRoot, 'node_modules', '.cache', `station-crash-${process.pid}`);
const childFile = path.join(outDir, 'stationChild.mjs');

const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
const KILLS = Number(process.env.CRASH_KILLS ?? 105);
const SHIPMENTS = Number(process.env.CRASH_SHIPMENTS ?? 800);
const PRINT_WAIT_MS = 400;
/** A run that neither readies nor ends in this long is killed and counted as hung. */
const RUN_WATCHDOG_MS = 15_000;
/**
 * A guard, not a plan: the killed runs stop after this long even with fewer kills (the kills
 * assertion then fails and says so) rather than run into the test's time limit. An idle 2-core
 * machine needs about 100 s for 105 kills.
 */
const LOOP_BUDGET_MS = Number(process.env.CRASH_BUDGET_MS ?? 210_000);

/** mulberry32: small, seedable, good enough to pick kill points. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), chance: (p: number) => next() < p };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let sandbox: Sandbox;
let printer: VirtualZplPrinter;
let token: string;
let dataDir: string;

async function api(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(sandbox.url + p, {
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** CR-1 ... CR-n, prepared; every fourth has two packages and every ninth three, so a label per package is checked. */
async function insertCrashShipments(count: number): Promise<Map<number, string>> {
  const byId = new Map<number, string>();
  for (let start = 1; start <= count; start += 250) {
    const items = [];
    for (let n = start; n < Math.min(start + 250, count + 1); n++) {
      const packageCount = n % 9 === 0 ? 3 : n % 4 === 0 ? 2 : 1;
      items.push({ ...orderItem(`CR-${n}`, n), packages: Array.from({ length: packageCount }, (_, k) => ({ weight: `${k + 1},5` })) });
    }
    const body = await api('POST', '/api/v3/deliveries', { deliveries: items });
    for (const d of body.data as { deliveryId: number; externalId: string }[]) byId.set(d.deliveryId, d.externalId);
  }
  return byId;
}

interface ServiceShipment {
  deliveryId: number;
  externalId: string;
  deliveryState: number;
  packages: { barcode: string | null }[];
}

async function serviceShipments(ids: number[]): Promise<ServiceShipment[]> {
  const out: ServiceShipment[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const body = await api('GET', `/api/v3/deliveries?deliveryId=${chunk.join(',')}&fields=deliveryId,externalId,deliveryState,packages`);
    out.push(...(body.data as ServiceShipment[]));
  }
  return out;
}

/** Each run: the close and the ZPL fetch slowed by 30-80 ms, so kills land between the steps. */
async function setLatency(r: ReturnType<typeof rng>): Promise<void> {
  await sandboxFault(sandbox, null);
  await sandboxFault(sandbox, { path: '/api/v3/deliveries', method: 'PATCH', latencyMs: r.int(30, 80) });
  await sandboxFault(sandbox, { path: '/api/v3/deliveries/zpl', method: 'GET', latencyMs: r.int(30, 80) });
}

/** The package barcode of a printed ZPL label (the ^BC field, ^FH_ hex escapes undone). */
function barcodeOf(zpl: string): string | null {
  const m = /\^BC[^\n]*?\^FD(.*?)\^FS/.exec(zpl);
  return m ? m[1]!.replace(/_([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : null;
}

// ------------------------------------------------------------------ one child

interface Child {
  proc: ChildProcessByStdio<Writable, Readable, Readable>;
  lines: string[];
  stderr(): string;
  /** Resolves with the first line matching, or null when the child ended first. */
  waitLine(pred: (l: string) => boolean, timeoutMs?: number): Promise<string | null>;
  onLine(fn: (l: string) => void): void;
  send(line: string): boolean;
  /** Lets a loaded child start the station (it loads its modules while the previous run goes on). */
  begin(): Promise<boolean>;
  kill(): void;
  killedByTest(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startChild(): Child {
  const proc = spawn(process.execPath, ['--enable-source-maps', childFile], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CRASH_DATA_DIR: dataDir,
      CRASH_SANDBOX: JSON.stringify({ url: sandbox.url, demo: sandbox.demo }),
      CRASH_PRINTER_PORT: String(printer.port),
      CRASH_PRINT_WAIT_MS: String(PRINT_WAIT_MS),
    },
  });
  const lines: string[] = [];
  const listeners: ((l: string) => void)[] = [];
  let out = '';
  let err = '';
  let killed = false;
  let ended = false;
  proc.stdin.on('error', () => undefined); // EPIPE after a kill
  proc.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      lines.push(line);
      for (const l of [...listeners]) l(line);
    }
  });
  proc.stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    if (err.length > 200_000) err = err.slice(-100_000);
  });
  // 'close': the process has exited and its stdout is read to the end (every ack it wrote is seen).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => {
      ended = true;
      for (const l of [...listeners]) l('\u0000exit');
      resolve({ code, signal });
    }),
  );
  const onLine = (fn: (l: string) => void) => listeners.push(fn);
  return {
    proc,
    lines,
    stderr: () => err,
    onLine,
    waitLine(pred, timeoutMs = RUN_WATCHDOG_MS) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(null), timeoutMs);
        const fn = (l: string) => {
          if (l === '\u0000exit') done(null);
          else if (pred(l)) done(l);
        };
        const done = (v: string | null) => {
          clearTimeout(timer);
          const i = listeners.indexOf(fn);
          if (i >= 0) listeners.splice(i, 1);
          resolve(v);
        };
        listeners.push(fn);
      });
    },
    send(line) {
      if (ended || killed || proc.exitCode !== null) return false;
      proc.stdin.write(`${line}\n`);
      return true;
    },
    async begin() {
      const loaded = await this.waitLine((l) => l === 'loaded');
      return loaded !== null && this.send('start');
    },
    kill() {
      if (ended || killed) return;
      killed = true;
      proc.kill('SIGKILL');
    },
    killedByTest: () => killed,
    exited,
  };
}

// ------------------------------------------------------------------ the test

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [path.join(__dirname, 'fixtures', 'stationChild.ts')],
    outfile: childFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages load from node_modules (better-sqlite3, keytar and zpl-renderer-js are native or wasm).
    packages: 'external',
    external: ['better-sqlite3', 'zpl-renderer-js', 'keytar'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  sandbox = await startSandbox({ port: 0, seed: 'demo' });
  printer = await startVirtualZplPrinter();
  token = await sandboxToken(sandbox);
  dataDir = mkdtempSync(path.join(tmpdir(), 'station-crash-chain-'));
});

/** The next child, loading its modules while the current run goes on. */
let standby: Child | null = null;
function nextChild(another = true): Child {
  const c = standby ?? startChild();
  standby = another ? startChild() : null;
  return c;
}

afterAll(async () => {
  if (standby) {
    standby.kill();
    await standby.exited;
  }
  await printer?.close();
  await sandbox?.close();
  rmSync(outDir, { recursive: true, force: true });
  // CRASH_KEEP=1 keeps the station's data folder (its path is printed) to look into a failure.
  if (dataDir && !process.env.CRASH_KEEP) rmSync(dataDir, { recursive: true, force: true });
});

describe('crash of the whole chain (scan, close, labels, print queue, printer)', () => {
  it(`over ${KILLS} SIGKILLs: no acknowledged scan lost, no closed shipment without its labels, no unflagged duplicate, the database intact`, async () => {
    const started = Date.now();
    console.log(`crash chain: seed=${SEED} (CRASH_SEED=${SEED} to replay the choices; CRASH_KEEP=1 keeps ${dataDir})`);
    const r = rng(SEED); // the runs' plans: kill mode and moment, scans, batches
    const picks = rng(SEED ^ 0x5bd1e995); // which codes (how many a run takes depends on when it dies)
    const externalById = await insertCrashShipments(SHIPMENTS);
    const deliveryIds = [...externalById.keys()];
    const dbFile = path.join(dataDir, 'station.db');

    // The worker's view: codes still to scan; what the station acknowledged (never scanned again).
    const pool = [...externalById.values()];
    const acked = new Map<number, string>(); // scanId -> code
    const collected = new Set<string>(); // codes the batch list showed
    let kills = 0;
    let killsMidWork = 0;
    const crashes: { run: number; code: number | null; signal: string | null; stderr: string }[] = [];
    const hung: number[] = [];
    const integrity: { run: number; result: string }[] = [];
    let readyMs: number[] = [];
    const allReadyMs: number[] = [];
    let runs = 0;

    const takeCode = (): string | null => (pool.length ? pool.splice(picks.int(0, pool.length - 1), 1)[0]! : null);

    async function checkIntegrity(run: number): Promise<void> {
      if (!existsSync(dbFile)) return;
      try {
        const db = new Database(dbFile, { readonly: true, fileMustExist: true });
        try {
          const result = String(db.pragma('integrity_check', { simple: true }));
          if (result !== 'ok') integrity.push({ run, result });
        } finally {
          db.close();
        }
      } catch (err) {
        integrity.push({ run, result: `could not open: ${(err as Error).message}` });
      }
    }

    /** One run killed at a random moment: during start-up, after a random number of acks, or after a random time. */
    async function killedRun(run: number): Promise<void> {
      await setLatency(r);
      const mode = r.chance(0.2) ? 'startup' : r.chance(0.5) ? 'acks' : 'time';
      const withBatch = r.chance(0.2);
      const scans = r.int(2, 8);
      const batchAt = r.int(0, scans);
      const batchSize = r.int(5, 20);
      const ackTarget = r.int(1, scans + (withBatch ? batchSize : 0));
      const typicalStart = readyMs.length ? readyMs.reduce((a, b) => a + b, 0) / readyMs.length : 500;
      const startupKillMs = r.int(0, Math.round(typicalStart * 1.2));
      const timeKillMs = r.int(0, 1200);
      const afterAckMs = r.int(0, 150);
      const tailKillMs = r.int(0, 500);
      const gaps = Array.from({ length: scans }, () => (r.chance(0.3) ? 0 : r.int(5, 150)));

      const child = nextChild();
      const begun = await child.begin();
      const t0 = Date.now();
      const inFlight = new Set<string>();
      let acks = 0;
      let workSeen = false;
      const timers: NodeJS.Timeout[] = [];
      const killIn = (ms: number) => timers.push(setTimeout(() => child.kill(), ms));
      child.onLine((l) => {
        const [what, a, b] = l.split(' ');
        if (what === 'ack') {
          acked.set(Number(a), b!);
          inFlight.delete(b!);
        } else if (what === 'collected') {
          collected.add(a!);
          inFlight.delete(a!);
        } else return;
        workSeen = true;
        if (++acks === ackTarget && mode === 'acks') killIn(afterAckMs);
      });
      const watchdog = setTimeout(() => {
        if (!child.killedByTest()) hung.push(run);
        child.kill();
      }, RUN_WATCHDOG_MS);

      if (mode === 'startup') killIn(startupKillMs);
      const ready = begun && (await child.waitLine((l) => l === 'ready'));
      if (ready) {
        readyMs = [...readyMs.slice(-19), Date.now() - t0];
        allReadyMs.push(Date.now() - t0);
        if (mode === 'time') killIn(timeKillMs);
        for (let i = 0; i <= scans; i++) {
          if (withBatch && i === batchAt) {
            const codes = Array.from({ length: batchSize }, takeCode).filter((c): c is string => c !== null);
            codes.forEach((c) => inFlight.add(c));
            if (codes.length && child.send(`batch ${codes.join(' ')}`)) await child.waitLine((l) => l.startsWith('batch-'));
          }
          if (i === scans) break;
          const code = takeCode();
          if (code === null) break;
          inFlight.add(code);
          if (!child.send(`scan ${code}`)) break;
          await sleep(gaps[i]!);
        }
        // The stream is over; the kill comes anyway, a little later (work may still be in flight).
        killIn(tailKillMs);
      }
      const { code, signal } = await child.exited;
      clearTimeout(watchdog);
      timers.forEach(clearTimeout);
      if (child.killedByTest() && signal === 'SIGKILL') {
        kills++;
        if (workSeen) killsMidWork++;
      } else {
        crashes.push({ run, code, signal, stderr: child.stderr().slice(-4000) });
      }
      // Never acknowledged: the worker did not see them taken and may scan them again.
      pool.push(...inFlight);
      await checkIntegrity(run);
    }

    const maxRuns = Math.ceil(KILLS * 1.5);
    while (kills < KILLS && runs < maxRuns && Date.now() - started < LOOP_BUDGET_MS) await killedRun(++runs);

    // The last run: not killed; what the batch list shows is closed (the worker sees it), then everything settles.
    let finalState = 'not started';
    let finalStderr = '';
    // Started again only when it does not come up (a crash at start-up is counted, then tried again).
    let retry = true;
    for (let attempt = 1; attempt <= 3 && retry; attempt++) {
      await sandboxFault(sandbox, null);
      const child = nextChild(attempt < 3);
      const begun = await child.begin();
      const step = async (cmd: string | null, pred: (l: string) => boolean, timeoutMs: number) => {
        if (cmd !== null) child.send(cmd);
        return child.waitLine(pred, timeoutMs);
      };
      const ready = begun && (await step(null, (l) => l === 'ready', 20_000));
      retry = !ready;
      const closed = ready && (await step('closebatch', (l) => l.startsWith('batch-closed') || l.startsWith('batch-error'), 20_000));
      const settled = closed && (await step('settle', (l) => l === 'settled' || l.startsWith('settle-timeout'), 40_000));
      if (settled) child.send('quit');
      const quitTimer = setTimeout(() => child.kill(), settled ? 15_000 : 0);
      const { code, signal } = await child.exited;
      clearTimeout(quitTimer);
      finalStderr = child.stderr().slice(-4000);
      finalState = !ready ? `no ready (exit ${code ?? signal})` : !closed ? 'no batch answer' : !settled ? 'no settle answer' : settled !== 'settled' ? settled : code !== 0 ? `quit exit ${code ?? signal}` : 'ok';
      if (finalState !== 'ok') crashes.push({ run: runs + attempt, code, signal, stderr: `final run: ${finalState}\n${finalStderr}` });
      await checkIntegrity(runs + attempt);
    }
    if (standby) {
      standby.kill();
      await standby.exited;
      standby = null;
    }
    // The printer's last bytes: a job is done when the printer said so, but give the socket a moment.
    await sleep(200);

    // ---------------------------------------------------------------- the verdict
    const shipments = await serviceShipments(deliveryIds);
    const byBarcode = new Map<string, number>();
    for (const s of shipments) for (const p of s.packages) if (p.barcode) byBarcode.set(p.barcode, s.deliveryId);
    const printedByBarcode = new Map<string, number>();
    let unknownLabels = 0;
    for (const l of printer.printed()) {
      const bc = barcodeOf(l.zpl);
      if (bc === null || !byBarcode.has(bc)) unknownLabels++;
      else printedByBarcode.set(bc, (printedByBarcode.get(bc) ?? 0) + 1);
    }

    // What the station kept; a station that never came up has no database: every count then says so.
    let integrityFinal = 'no database';
    const scanRows = new Map<number, { code: string; outcome: string }>();
    let jobs: Record<string, unknown>[] = [];
    const flaggedJobIds = new Set<number>();
    let closeJobsLeft: number | string = 'n/a';
    if (existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        integrityFinal = String(db.pragma('integrity_check', { simple: true }));
        for (const row of db.prepare('SELECT id, code, outcome FROM scan_log').all() as { id: number; code: string; outcome: string }[]) scanRows.set(row.id, row);
        // Read as loosely as the schema allows: the print queue's tables are being reworked.
        jobs = (db.prepare('SELECT * FROM print_jobs').all() as Record<string, unknown>[]).filter((j) => j.kind === undefined || j.kind === 'print');
        if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'print_job_events'").get()) {
          for (const e of db.prepare("SELECT DISTINCT job_id FROM print_job_events WHERE state IN ('uncertain', 'unconfirmed')").all() as { job_id: number }[]) flaggedJobIds.add(e.job_id);
        }
        try {
          closeJobsLeft = (db.prepare("SELECT count(*) AS n FROM print_jobs WHERE kind = 'close-and-print' AND state NOT IN ('done', 'cancelled')").get() as { n: number }).n;
        } catch {
          // no close-and-print jobs in this schema
        }
      } finally {
        db.close();
      }
    }
    const lastRowOfCode = new Map<string, { id: number; outcome: string }>();
    for (const [id, row] of scanRows) if ((lastRowOfCode.get(row.code)?.id ?? -1) < id) lastRowOfCode.set(row.code, { id, outcome: row.outcome });

    const jobsOf = new Map<number, Record<string, unknown>[]>();
    for (const j of jobs) for (const id of JSON.parse(String(j.delivery_ids ?? '[]')) as number[]) jobsOf.set(id, [...(jobsOf.get(id) ?? []), j]);
    const flagged = (deliveryId: number) =>
      (jobsOf.get(deliveryId) ?? []).some((j) => ['uncertain', 'unconfirmed'].includes(String(j.state)) || flaggedJobIds.has(Number(j.id)) || j.reprint_of != null);

    // Lost scans: acknowledged (or collected into a batch) and still without an outcome.
    const lostScanIds = [...acked].filter(([id]) => !scanRows.has(id) || scanRows.get(id)!.outcome === 'pending');
    const lostBatchCodes = [...collected].filter((c) => !lastRowOfCode.has(c) || lastRowOfCode.get(c)!.outcome === 'pending');
    const lostScans = lostScanIds.length + lostBatchCodes.length;

    const closedShipments = shipments.filter((s) => s.deliveryState !== 0 && s.deliveryState !== 10);
    const lostLabels: string[] = [];
    const duplicates: string[] = [];
    const noJob: string[] = [];
    for (const s of closedShipments) {
      const counts = s.packages.map((p) => (p.barcode ? printedByBarcode.get(p.barcode) ?? 0 : 0));
      const isFlagged = flagged(s.deliveryId);
      if (counts.some((n) => n === 0) && !isFlagged) {
        lostLabels.push(`${s.externalId}(${s.deliveryId}) printed ${counts.join('+')} of ${s.packages.length}`);
        if (!jobsOf.has(s.deliveryId)) noJob.push(s.externalId);
      }
      if ((counts.reduce((a, b) => a + b, 0) > s.packages.length || counts.some((n) => n > 1)) && !isFlagged) {
        duplicates.push(`${s.externalId}(${s.deliveryId}) printed ${counts.join('+')}`);
      }
    }
    const jobStates: Record<string, number> = {};
    for (const j of jobs) jobStates[String(j.state)] = (jobStates[String(j.state)] ?? 0) + 1;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    console.log(
      `crash chain: kills=${kills} scans acked=${acked.size + collected.size} closed=${closedShipments.length} lost scans=${lostScans} lost labels=${lostLabels.length} unflagged duplicates=${duplicates.length}`,
    );
    console.log(
      `crash chain detail: seed=${SEED} runs=${runs}+final kills mid-work=${killsMidWork} crashes=${crashes.length} hung=${hung.length} ` +
        `acked scans=${acked.size} batch codes=${collected.size} lost scan acks=${lostScanIds.length} lost batch codes=${lostBatchCodes.length} ` +
        `codes never scanned=${pool.length} closed without any print job=${noJob.length} labels printed=${printer.printed().length} unknown labels=${unknownLabels} ` +
        `print jobs=${JSON.stringify(jobStates)} close-and-print left=${closeJobsLeft} integrity failures=${integrity.length} final=${finalState} ` +
        `start-up avg=${Math.round(allReadyMs.reduce((a, b) => a + b, 0) / Math.max(1, allReadyMs.length))}ms time=${seconds}s`,
    );

    const sample = (list: string[]) => list.slice(0, 10).join('; ') + (list.length > 10 ? ` ... (${list.length})` : '');
    const crashText = crashes.map((c) => `run ${c.run}: exit ${c.code ?? c.signal}\n${c.stderr}`).slice(0, 3).join('\n---\n');
    expect.soft(crashes, `the child crashed or failed ${crashes.length} times by itself (seed ${SEED}):\n${crashText}`).toEqual([]);
    expect.soft(hung, `runs that hung (seed ${SEED})`).toEqual([]);
    expect.soft(finalState, `the final run (seed ${SEED}):\n${finalStderr}`).toBe('ok');
    expect.soft(kills, `kills (seed ${SEED})`).toBeGreaterThanOrEqual(Math.min(KILLS, 100));
    expect.soft(killsMidWork, 'kills after the station acknowledged work').toBeGreaterThanOrEqual(Math.floor(kills / 4));
    expect.soft(integrity, `integrity_check after kills (seed ${SEED})`).toEqual([]);
    expect.soft(integrityFinal).toBe('ok');
    expect.soft(lostScans, `lost scans (seed ${SEED}): scanIds ${lostScanIds.slice(0, 10).map(([id, c]) => `${id}:${c}`).join(', ')}; batch codes ${lostBatchCodes.slice(0, 10).join(', ')}`).toBe(0);
    expect.soft(lostLabels.length, `lost labels (seed ${SEED}): ${sample(lostLabels)}`).toBe(0);
    expect.soft(duplicates.length, `unflagged duplicates (seed ${SEED}): ${sample(duplicates)}`).toBe(0);
  }, 330_000);
});
