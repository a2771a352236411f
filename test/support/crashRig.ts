/**
 * What the whole-chain crash tests share (test/integration/station/crashChain.test.ts: SIGKILL;
 * powerCut.test.ts: a power cut on a lossy FUSE file system): the station child
 * (fixtures/stationChild.ts, bundled with esbuild), a real sandbox with the CR-n shipments and a
 * real TCP listener as the label printer, the worker's view of what the station acknowledged, and
 * the verdict per scan and per print job, read from the service, the printer and the station's SQLite:
 *   - lost scans: an acknowledged scan (or a code collected into a batch) not closed at the service
 *     (every scanned code is a valid prepared shipment), or without a final outcome;
 *   - lost labels: a package label of a shipment closed at the service that never came out, with
 *     no print job holding it flagged for the worker (uncertain / unconfirmed, or a reprint);
 *   - unflagged duplicates: a package label that came out more often than the flagged jobs
 *     holding it allow;
 *   - PRAGMA integrity_check.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../electron/printing/virtualZplPrinter';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { bundleChild } from './childBundle';
import { orderItem, sandboxFault, sandboxToken } from './sandboxShipments';

const repoRoot = path.resolve(__dirname, '../..');

/** mulberry32: small, seedable, good enough to pick kill points. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The package barcode of a printed ZPL label (the ^BC field, ^FH_ hex escapes undone). */
export function barcodeOf(zpl: string): string | null {
  const m = /\^BC[^\n]*?\^FD(.*?)\^FS/.exec(zpl);
  return m ? m[1]!.replace(/_([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : null;
}

// ------------------------------------------------------------------ the child, bundled

/** Bundles fixtures/stationChild.ts; `remove()` deletes the bundle. */
export async function buildStationChild(name: string): Promise<{ childFile: string; remove(): void }> {
  // zpl-renderer-js is wasm: loaded from node_modules, not bundled.
  const child = await bundleChild(
    path.join(repoRoot, 'test', 'integration', 'station', 'fixtures', 'stationChild.ts'),
    name,
    { external: ['zpl-renderer-js'] },
  );
  return { childFile: child.file, remove: child.remove };
}

export interface Child {
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

export interface ChildOptions {
  childFile: string;
  dataDir: string;
  sandbox: Sandbox;
  printerPort: number;
  printWaitMs: number;
  /** waitLine's default time limit. */
  watchdogMs: number;
  env?: Record<string, string>;
}

export function startChild(o: ChildOptions): Child {
  const proc = spawn(process.execPath, ['--enable-source-maps', o.childFile], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CRASH_DATA_DIR: o.dataDir,
      CRASH_SANDBOX: JSON.stringify({ url: o.sandbox.url, demo: o.sandbox.demo }),
      CRASH_PRINTER_PORT: String(o.printerPort),
      CRASH_PRINT_WAIT_MS: String(o.printWaitMs),
      ...o.env,
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
    waitLine(pred, timeoutMs = o.watchdogMs) {
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

/** The next child, loading its modules while the current run goes on. */
export function childSupply(start: () => Child) {
  let standby: Child | null = null;
  return {
    next(another = true): Child {
      const c = standby ?? start();
      standby = another ? start() : null;
      return c;
    },
    async stop(): Promise<void> {
      if (!standby) return;
      standby.kill();
      await standby.exited;
      standby = null;
    },
  };
}

// ------------------------------------------------------------------ the service and the printer

export interface Rig {
  sandbox: Sandbox;
  printer: VirtualZplPrinter;
  api(method: string, p: string, body?: unknown): Promise<any>;
  /** CR-1 ... CR-n, prepared; every fourth has two packages and every ninth three, so a label per package is checked. */
  insertShipments(count: number): Promise<Map<number, string>>;
  serviceShipments(ids: number[]): Promise<ServiceShipment[]>;
  /** Each run: the close and the ZPL fetch slowed by 30-80 ms, so kills land between the steps. */
  setLatency(r: Rng): Promise<void>;
  clearFaults(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceShipment {
  deliveryId: number;
  externalId: string;
  deliveryState: number;
  packages: { barcode: string | null }[];
}

export async function startRig(): Promise<Rig> {
  const sandbox = await startSandbox({ port: 0, seed: 'demo' });
  const printer = await startVirtualZplPrinter();
  const token = await sandboxToken(sandbox);
  async function api(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(sandbox.url + p, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  }
  return {
    sandbox,
    printer,
    api,
    async insertShipments(count) {
      const byId = new Map<number, string>();
      for (let start = 1; start <= count; start += 250) {
        const items = [];
        for (let n = start; n < Math.min(start + 250, count + 1); n++) {
          const packageCount = n % 9 === 0 ? 3 : n % 4 === 0 ? 2 : 1;
          items.push({
            ...orderItem(`CR-${n}`, n),
            packages: Array.from({ length: packageCount }, (_, k) => ({ weight: `${k + 1},5` })),
          });
        }
        const body = await api('POST', '/api/v3/deliveries', { deliveries: items });
        for (const d of body.data as { deliveryId: number; externalId: string }[]) byId.set(d.deliveryId, d.externalId);
      }
      return byId;
    },
    async serviceShipments(ids) {
      const out: ServiceShipment[] = [];
      for (let i = 0; i < ids.length; i += 100) {
        const chunk = ids.slice(i, i + 100);
        const body = await api(
          'GET',
          `/api/v3/deliveries?deliveryId=${chunk.join(',')}&fields=deliveryId,externalId,deliveryState,packages`,
        );
        out.push(...(body.data as ServiceShipment[]));
      }
      return out;
    },
    async setLatency(r) {
      await sandboxFault(sandbox, null);
      await sandboxFault(sandbox, { path: '/api/v3/deliveries', method: 'PATCH', latencyMs: r.int(30, 80) });
      await sandboxFault(sandbox, { path: '/api/v3/deliveries/zpl', method: 'GET', latencyMs: r.int(30, 80) });
    },
    clearFaults: () => sandboxFault(sandbox, null),
    async close() {
      await printer.close();
      await sandbox.close();
    },
  };
}

// ------------------------------------------------------------------ the database and the verdict

/** PRAGMA integrity_check of a station.db (read only): null when ok or when there is no file yet. */
export function integrityProblem(dbFile: string): string | null {
  if (!existsSync(dbFile)) return null;
  try {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const result = String(db.pragma('integrity_check', { simple: true }));
      return result === 'ok' ? null : result;
    } finally {
      db.close();
    }
  } catch (err) {
    return `could not open: ${(err as Error).message}`;
  }
}

export interface Verdict {
  shipments: ServiceShipment[];
  closedShipments: ServiceShipment[];
  integrityFinal: string;
  /** Acknowledged scans not closed at the service (or whose scan log row is missing or pending): `scanId:code how it ended`. */
  lostScanIds: [number, string][];
  lostBatchCodes: string[];
  lostScans: number;
  lostLabels: string[];
  /** The deliveryIds of `lostLabels`' shipments. */
  lostDeliveryIds: number[];
  /** What station.db holds of each shipment of `lostLabels` (journal entries with their steps, print jobs with their events): the first look when one fails. */
  lostDetail: string[];
  duplicates: string[];
  /** Closed shipments with a lost label and no print job at all. */
  noJob: string[];
  unknownLabels: number;
  jobStates: Record<string, number>;
}

/** A print job as station.db keeps it (read loosely: only what the verdict needs). */
export interface JobRow {
  id: number;
  state: string;
  barcodes: string[];
  reprintOf: number | null;
  /** Why it is in its state (`held_closed_elsewhere`: held for the worker's word). */
  reasonCode?: string | null;
  nextRetryAt?: string | null;
}

/** What the verdict judges: the service's shipments, the printer's labels and the station's tables. */
export interface VerdictInput {
  shipments: ServiceShipment[];
  /** The package barcode of each label that came out of the printer (null: not a package label). */
  printedBarcodes: (string | null)[];
  scanRows: Map<number, { code: string; outcome: string }>;
  jobs: JobRow[];
  /** Jobs that were uncertain or unconfirmed at some point (their event history). */
  flaggedJobIds: Set<number>;
  acked: Map<number, string>;
  collected: Set<string>;
}

/** States in which the service has the shipment closed (0: prepared, 10: cancelled). */
const closedAtService = (s: ServiceShipment | undefined) => !!s && s.deliveryState !== 0 && s.deliveryState !== 10;

/**
 * The verdict, per scan and per print job:
 *   - every scanned code is a valid prepared shipment, so a scan the station acknowledged (or a
 *     code the batch list showed) must end closed at the service, with a final scan-log outcome;
 *     one that ended as an error, or was dropped, is lost;
 *   - each package label of a closed shipment comes out at least once, unless a print job holding
 *     that label is flagged for the worker (uncertain / unconfirmed, or a worker's reprint); a job
 *     the printer confirmed (done) excuses nothing, and a flagged job excuses only its own labels;
 *   - a label comes out more than once only as often as flagged jobs holding it allow (one more each).
 */
export function judge(i: VerdictInput): Omit<Verdict, 'integrityFinal' | 'lostDetail'> {
  const byBarcode = new Map<string, number>();
  for (const s of i.shipments) for (const p of s.packages) if (p.barcode) byBarcode.set(p.barcode, s.deliveryId);
  const byCode = new Map(i.shipments.map((s) => [s.externalId, s]));
  const printedByBarcode = new Map<string, number>();
  let unknownLabels = 0;
  for (const bc of i.printedBarcodes) {
    if (bc === null || !byBarcode.has(bc)) unknownLabels++;
    else printedByBarcode.set(bc, (printedByBarcode.get(bc) ?? 0) + 1);
  }
  const lastRowOfCode = new Map<string, { id: number; outcome: string }>();
  for (const [id, row] of i.scanRows)
    if ((lastRowOfCode.get(row.code)?.id ?? -1) < id) lastRowOfCode.set(row.code, { id, outcome: row.outcome });

  // Scans, per acknowledged scan: closed at the service and a final outcome in the scan log.
  const lostScanIds: [number, string][] = [];
  for (const [id, code] of i.acked) {
    const row = i.scanRows.get(id);
    if (!row || row.outcome === 'pending' || !closedAtService(byCode.get(code))) {
      lostScanIds.push([
        id,
        `${code} ${row ? `ended ${row.outcome}` : 'no scan log row'}, ${closedAtService(byCode.get(code)) ? 'closed' : 'not closed'} at the service`,
      ]);
    }
  }
  const lostBatchCodes = [...i.collected].filter(
    (c) => !lastRowOfCode.has(c) || lastRowOfCode.get(c)!.outcome === 'pending' || !closedAtService(byCode.get(c)),
  );

  // Labels, per print job holding them. A label held for the worker's word (its parcel found closed
  // by a read after a lost answer, which may be another desk's close: issue 44) is on the list a
  // worker sees (the print queue), so it is not lost; a closed parcel with neither a label out nor
  // such a visible wait still is.
  const isFlagged = (j: JobRow) =>
    ['uncertain', 'unconfirmed'].includes(j.state) ||
    i.flaggedJobIds.has(j.id) ||
    j.reprintOf !== null ||
    (j.state === 'failed' && !j.nextRetryAt && j.reasonCode === 'held_closed_elsewhere');
  const jobsOfBarcode = new Map<string, JobRow[]>();
  for (const j of i.jobs) for (const bc of j.barcodes) jobsOfBarcode.set(bc, [...(jobsOfBarcode.get(bc) ?? []), j]);
  const closedShipments = i.shipments.filter((s) => closedAtService(s));
  const lostLabels: string[] = [];
  const lostDeliveryIds: number[] = [];
  const duplicates: string[] = [];
  const noJob: string[] = [];
  for (const s of closedShipments) {
    const barcodes = s.packages.map((p) => p.barcode).filter((b): b is string => !!b);
    const counts = barcodes.map((bc) => printedByBarcode.get(bc) ?? 0);
    const lost = barcodes.filter((bc) => {
      const jobs = jobsOfBarcode.get(bc) ?? [];
      const printed = printedByBarcode.get(bc) ?? 0;
      return printed === 0 && (!jobs.some(isFlagged) || jobs.some((j) => j.state === 'done'));
    });
    if (lost.length || barcodes.length < s.packages.length) {
      lostLabels.push(
        `${s.externalId}(${s.deliveryId}) printed ${counts.join('+')} of ${s.packages.length}, missing ${lost.join(', ')}`,
      );
      lostDeliveryIds.push(s.deliveryId);
      if (lost.every((bc) => !jobsOfBarcode.has(bc))) noJob.push(s.externalId);
    }
    const extra = barcodes.filter(
      (bc) => (printedByBarcode.get(bc) ?? 0) > 1 + (jobsOfBarcode.get(bc) ?? []).filter(isFlagged).length,
    );
    if (extra.length)
      duplicates.push(`${s.externalId}(${s.deliveryId}) printed ${counts.join('+')}, too often ${extra.join(', ')}`);
  }
  const jobStates: Record<string, number> = {};
  for (const j of i.jobs) jobStates[j.state] = (jobStates[j.state] ?? 0) + 1;
  return {
    shipments: i.shipments,
    closedShipments,
    lostScanIds,
    lostBatchCodes,
    lostScans: lostScanIds.length + lostBatchCodes.length,
    lostLabels,
    lostDeliveryIds,
    duplicates,
    noJob,
    unknownLabels,
    jobStates,
  };
}

/**
 * The verdict (judge) on what the service, the printer and station.db (read only) hold. `acked`:
 * scanId -> code the station acknowledged; `collected`: codes the batch list showed.
 */
export async function verdict(
  rig: Rig,
  o: { deliveryIds: number[]; dbFile: string; acked: Map<number, string>; collected: Set<string> },
): Promise<Verdict> {
  const shipments = await rig.serviceShipments(o.deliveryIds);
  // What the station kept; a station that never came up has no database: every count then says so.
  let integrityFinal = 'no database';
  const scanRows = new Map<number, { code: string; outcome: string }>();
  let jobs: JobRow[] = [];
  const flaggedJobIds = new Set<number>();
  if (existsSync(o.dbFile)) {
    const db = new Database(o.dbFile, { readonly: true, fileMustExist: true });
    try {
      integrityFinal = String(db.pragma('integrity_check', { simple: true }));
      for (const row of db.prepare('SELECT id, code, outcome FROM scan_log').all() as {
        id: number;
        code: string;
        outcome: string;
      }[])
        scanRows.set(row.id, row);
      jobs = (
        db.prepare('SELECT id, state, barcodes, reprint_of, reason_code, next_retry_at FROM print_jobs').all() as {
          id: number;
          state: string;
          barcodes: string;
          reprint_of: number | null;
          reason_code: string | null;
          next_retry_at: string | null;
        }[]
      ).map((j) => ({
        id: j.id,
        state: j.state,
        barcodes: JSON.parse(j.barcodes) as string[],
        reprintOf: j.reprint_of,
        reasonCode: j.reason_code,
        nextRetryAt: j.next_retry_at,
      }));
      for (const e of db
        .prepare("SELECT DISTINCT job_id FROM print_job_events WHERE state IN ('uncertain', 'unconfirmed')")
        .all() as { job_id: number }[])
        flaggedJobIds.add(e.job_id);
    } finally {
      db.close();
    }
  }
  const printedBarcodes = rig.printer.printed().map((l) => barcodeOf(l.zpl));
  const judged = judge({
    shipments,
    printedBarcodes,
    scanRows,
    jobs,
    flaggedJobIds,
    acked: o.acked,
    collected: o.collected,
  });
  const lostDetail =
    judged.lostDeliveryIds.length && existsSync(o.dbFile)
      ? stationViewOf(o.dbFile, judged.lostDeliveryIds, shipments, jobs)
      : [];
  return { ...judged, lostDetail, integrityFinal };
}

/**
 * What station.db holds of each of these shipments: its journal entries (by deliveryId or by its
 * code) with their steps in order, and the print jobs holding its package barcodes with their
 * events. Read only, and only when a label was lost: the failure's message says what the station
 * believed, which a data folder deleted with the run cannot.
 */
function stationViewOf(dbFile: string, deliveryIds: number[], shipments: ServiceShipment[], jobs: JobRow[]): string[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const entries = db.prepare<
      [number, string],
      {
        id: number;
        source: string;
        step: string;
        outcome: string | null;
        reason_code: string | null;
        scan_id: number | null;
      }
    >(
      'SELECT id, source, step, outcome, reason_code, scan_id FROM journal_entries WHERE delivery_id = ? OR code = ? ORDER BY id',
    );
    const steps = db.prepare<[number], { at: string; step: string; reason_code: string | null }>(
      'SELECT at, step, reason_code FROM journal_steps WHERE entry_id = ? ORDER BY rowid',
    );
    const events = db.prepare<[number], { at: string; state: string }>(
      'SELECT at, state FROM print_job_events WHERE job_id = ? ORDER BY rowid',
    );
    return deliveryIds.map((deliveryId) => {
      const s = shipments.find((x) => x.deliveryId === deliveryId);
      const barcodes = new Set((s?.packages ?? []).map((p) => p.barcode));
      const journal = entries.all(deliveryId, s?.externalId ?? '').map(
        (e) =>
          `entry ${e.id} ${e.source} scan ${e.scan_id ?? '-'} at ${e.step}/${e.outcome ?? '-'}/${e.reason_code ?? '-'}: ` +
          steps
            .all(e.id)
            .map((x) => `${x.at.slice(11, 23)} ${x.step}${x.reason_code ? `(${x.reason_code})` : ''}`)
            .join(' > '),
      );
      const held = jobs
        .filter((j) => j.barcodes.some((b) => barcodes.has(b)))
        .map(
          (j) =>
            `job ${j.id} ${j.state}/${j.reasonCode ?? '-'} retry ${j.nextRetryAt ?? '-'}: ` +
            events
              .all(j.id)
              .map((e) => `${e.at.slice(11, 23)} ${e.state}`)
              .join(' > '),
        );
      return `${s?.externalId ?? '?'}(${deliveryId}) state ${s?.deliveryState ?? '?'}\n  ${[...journal, ...held].join('\n  ') || 'nothing in station.db'}`;
    });
  } finally {
    db.close();
  }
}

/**
 * One run's stream of work as a worker makes it: scans with the given gaps, and a batch of codes
 * collected and closed at one point; every code sent is in flight until the child acknowledges it.
 * Stops early when `stop()` says so (a cut or a kill was asked) or the child is gone.
 */
export async function streamWork(
  child: Child,
  o: {
    scans: number;
    gaps: number[];
    batch: { at: number; size: number } | null;
    takeCode: () => string | null;
    inFlight: Set<string>;
    stop?: () => boolean;
  },
): Promise<void> {
  for (let i = 0; i <= o.scans && !o.stop?.(); i++) {
    if (o.batch && i === o.batch.at) {
      const codes = Array.from({ length: o.batch.size }, o.takeCode).filter((c): c is string => c !== null);
      codes.forEach((c) => o.inFlight.add(c));
      if (codes.length && child.send(`batch ${codes.join(' ')}`)) await child.waitLine((l) => l.startsWith('batch-'));
    }
    if (i === o.scans) break;
    const code = o.takeCode();
    if (code === null) break;
    o.inFlight.add(code);
    if (!child.send(`scan ${code}`)) break;
    await sleep(o.gaps[i]!);
  }
}

export const sample = (list: string[]) =>
  list.slice(0, 10).join('; ') + (list.length > 10 ? ` ... (${list.length})` : '');
