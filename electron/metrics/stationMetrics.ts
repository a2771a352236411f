/**
 * The station's fleet metrics as prom-client keeps them (one registry per station core). Most are
 * fed by the station's event bus (scan.outcome, batch.items, printing.jobs: what every page hears
 * already) or read at the scrape from what the station knows anyway (its status, the queue and the
 * journal through one small repo), so the workflows carry no counters of their own.
 *
 * Label values name a desk, a printer (its id, set by the admin), a carrier code, an outcome or a
 * state: never a scanned code, a name, an address or a shipment number (a scrape leaves the
 * computer; what it carries must be safe on a warehouse-wide dashboard).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventName, EventPayload } from '../../shared/contract';
import type { JobState } from '../../shared/contract/printing';
import type { Clock } from '../base/clock';
import { WAITING_STATES, type MetricsRepo } from '../store/metricsRepo';

/** Every metric's name starts with this (Prometheus' convention: the exporter's name). */
const METRIC_PREFIX = 'label_station_';

export interface StationMetricsOptions {
  version: string;
  host: 'electron' | 'web';
  dataDir: string;
  clock: Clock;
  repo: MetricsRepo;
  /** The desk's name (Settings → desk, else the computer's): the `desk` label of every series. */
  desk(): string;
  service(): { environment: string; reachable: boolean };
  printers(): { id: string; state: string }[];
  /** When a scan was received (its scan log row), or null. */
  scannedAt(scanId: number): string | null;
  /** A job's printer and whether it waits for a retry of its own (a failed job that goes by itself). */
  job(id: number): { printerId: string | null; waitsForRetry: boolean } | null;
  /** Syncs of the write-ahead log so far, each awaited off the event loop (store/walSync.ts). */
  walSyncs(): number;
}

export interface StationMetrics {
  registry: Registry;
  /** The event bus's sink. */
  onEvent<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** A service request finished (serviceRequests.ts). */
  serviceRequest(r: { method: string; route: string; status: string; seconds: number }): void;
  /** The desk's name changed. */
  deskChanged(): void;
}

/** A carrier code or a printer id as a label value: what the station set, or `other` for anything unexpected. */
function safeLabel(value: string | null | undefined, none = 'none'): string {
  if (!value) return none;
  return /^[A-Za-z0-9_.:-]{1,40}$/.test(value) ? value : 'other';
}

/** Outcomes a scan keeps only until the worker or the service answers: counted when the scan ends. */
const INTERIM = new Set(['service_unreachable', 'weight_check', 'already_closed']);
/** Outcomes whose labels came out (or went to the print system): the scan → label time. */
const LABEL_OUT = new Set(['printed', 'spooled']);
/** Outcomes of a scan that closed its shipment at the service. */
const CLOSED_BY_SCAN = new Set(['printed', 'spooled', 'queued', 'printer_down']);
/** Job states a label ends in (uncertain/unconfirmed/failed wait for the worker, but are an outcome to watch). */
const JOB_OUTCOMES = new Set<JobState>(['done', 'spooled', 'failed', 'uncertain', 'unconfirmed', 'cancelled']);
const JOB_FINAL = new Set<JobState>(['done', 'spooled', 'cancelled']);

/** The data folder's size is read at most this often (a walk of its files, off the scan path). */
const FOLDER_SIZE_MAX_AGE_MS = 60_000;

export function createStationMetrics(o: StationMetricsOptions): StationMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ desk: o.desk() });
  // Process figures (CPU, memory, event-loop lag from monitorEventLoopDelay, GC), the same names
  // every Node exporter uses after the prefix, so community dashboards' panels fit too.
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX, eventLoopMonitoringPrecision: 20 });
  const registers = [registry];

  new Gauge({
    name: `${METRIC_PREFIX}info`,
    help: 'The station: its version and host (always 1).',
    labelNames: ['version', 'host'],
    registers,
    collect() {
      this.set({ version: o.version, host: o.host }, 1);
    },
  });

  const scans = new Counter({
    name: `${METRIC_PREFIX}scans_total`,
    help: 'Scans finished at this desk, by outcome (printed, queued, not_found...) and carrier.',
    labelNames: ['outcome', 'carrier'],
    registers,
  });
  const closes = new Counter({
    name: `${METRIC_PREFIX}closes_total`,
    help: 'Shipments this desk closed at the service, by carrier and path (scan, batch).',
    labelNames: ['carrier', 'source'],
    registers,
  });
  const scanToLabel = new Histogram({
    name: `${METRIC_PREFIX}scan_to_label_seconds`,
    help: 'From a scan received to its labels out of the printer (or handed to the print system).',
    labelNames: ['carrier'],
    buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 15, 30, 60],
    registers,
  });
  const labels = new Counter({
    name: `${METRIC_PREFIX}labels_total`,
    help: 'Label jobs that reached an outcome (done, spooled, failed, uncertain, unconfirmed, cancelled), per printer.',
    labelNames: ['printer', 'outcome'],
    registers,
  });
  new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    help: 'Label jobs not finished, per printer and state (queued, sending, sent, failed, uncertain, unconfirmed).',
    labelNames: ['printer', 'state'],
    registers,
    collect() {
      this.reset();
      // Every printer's every state, 0 when empty: an empty queue is a 0 on the dashboard, not a gap.
      for (const p of o.printers()) for (const s of WAITING_STATES) this.set({ printer: safeLabel(p.id), state: s }, 0);
      for (const r of o.repo.queueDepth()) this.set({ printer: safeLabel(r.printerId), state: r.state }, r.count);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}printer_state`,
    help: 'Each printer state as 1 for the one the printer is in, 0 for the others (ready, offline, error, unknown).',
    labelNames: ['printer', 'state'],
    registers,
    collect() {
      this.reset();
      for (const p of o.printers())
        for (const s of ['ready', 'offline', 'error', 'unknown'])
          this.set({ printer: safeLabel(p.id), state: s }, p.state === s ? 1 : 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}service_reachable`,
    help: 'Whether the shipping service of the active account answered its last health check (1) or not (0).',
    labelNames: ['environment'],
    registers,
    collect() {
      this.reset();
      const s = o.service();
      this.set({ environment: s.environment }, s.reachable ? 1 : 0);
    },
  });
  const serviceLatency = new Histogram({
    name: `${METRIC_PREFIX}service_request_duration_seconds`,
    help: 'Requests to the shipping service until their answer arrived, by method, route and status class.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10, 20],
    registers,
  });
  new Gauge({
    name: `${METRIC_PREFIX}journal_unfinished_entries`,
    help: 'Journal entries not finished (scans and closes waiting for the service, the login or the worker), per source.',
    labelNames: ['source'],
    registers,
    collect() {
      this.reset();
      // Always the scan lane, so "nothing waiting" is a 0 and not a missing series.
      this.set({ source: 'scan' }, 0);
      for (const r of o.repo.unfinishedEntries()) this.set({ source: safeLabel(r.source) }, r.count);
    },
  });
  new Counter({
    name: `${METRIC_PREFIX}wal_syncs_total`,
    help: "Syncs of the station's write-ahead log that a close, a label or an answer waited for (on the thread pool, not the event loop; commits waiting together share one).",
    registers,
    collect() {
      this.reset();
      this.inc(o.walSyncs());
    },
  });
  let folder: { at: number; bytes: number } | null = null;
  new Gauge({
    name: `${METRIC_PREFIX}data_folder_bytes`,
    help: "Size of the station's data folder (database, its write-ahead log, logs), read at most once a minute.",
    registers,
    async collect() {
      const now = o.clock.now().getTime();
      if (!folder || now - folder.at >= FOLDER_SIZE_MAX_AGE_MS)
        folder = { at: now, bytes: await folderBytes(o.dataDir) };
      this.set(folder.bytes);
    },
  });

  /** Last outcome counted per job that may still change (failed, uncertain, unconfirmed). */
  const counted = new Map<number, JobState>();
  /** Batch items' last status, to count a close once when an item turns `closed`. */
  const batchStatus = new Map<string, string>();

  function scanOutcome(oc: EventPayload<'scan.outcome'>) {
    // A later record of a scan already counted (its labels printed, were cancelled): counted once.
    if (oc.update) return;
    if (INTERIM.has(oc.kind)) return;
    const carrier = safeLabel('shipment' in oc ? oc.shipment.carrier : 'carrier' in oc ? oc.carrier : null);
    scans.inc({ outcome: oc.kind, carrier });
    const reprint = 'reprint' in oc && oc.reprint === true;
    if (CLOSED_BY_SCAN.has(oc.kind) && !reprint) closes.inc({ carrier, source: 'scan' });
    if (LABEL_OUT.has(oc.kind) && !reprint) {
      const at = o.scannedAt(oc.scanId);
      const ms = at ? o.clock.now().getTime() - Date.parse(at) : NaN;
      if (Number.isFinite(ms) && ms >= 0) scanToLabel.observe({ carrier }, ms / 1000);
    }
  }

  function jobsChanged(c: EventPayload<'printing.jobs'>) {
    for (const j of c.jobs) {
      if (!JOB_OUTCOMES.has(j.state) || counted.get(j.id) === j.state) continue;
      const job = o.job(j.id);
      // A failed job with a retry time of its own waits for its printer: not an outcome yet.
      if (j.state === 'failed' && (!job || job.waitsForRetry)) continue;
      labels.inc({ printer: safeLabel(job?.printerId), outcome: j.state });
      if (JOB_FINAL.has(j.state)) counted.delete(j.id);
      else counted.set(j.id, j.state);
    }
  }

  function batchItems(c: EventPayload<'batch.items'>) {
    for (const code of c.remove) batchStatus.delete(String(code));
    for (const item of c.put) {
      const before = batchStatus.get(item.code);
      batchStatus.set(item.code, item.status);
      if (item.status === 'closed' && before !== undefined && before !== 'closed')
        closes.inc({ carrier: safeLabel(item.carrier), source: 'batch' });
    }
  }

  return {
    registry,
    onEvent(name, payload) {
      if (name === 'scan.outcome') scanOutcome(payload as EventPayload<'scan.outcome'>);
      else if (name === 'printing.jobs') jobsChanged(payload as EventPayload<'printing.jobs'>);
      else if (name === 'batch.items') batchItems(payload as EventPayload<'batch.items'>);
    },
    serviceRequest(r) {
      serviceLatency.observe({ method: r.method, route: r.route, status: r.status }, r.seconds);
    },
    deskChanged() {
      registry.setDefaultLabels({ desk: o.desk() });
    },
  };
}

/** Bytes of every file under `dir` (a folder the station owns: a few files and its log folder). */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const s = await stat(path.join(e.parentPath, e.name)).catch(() => null);
    total += s?.size ?? 0;
  }
  return total;
}
