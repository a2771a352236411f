/**
 * The printing domain wired together: printers (saved + the two embedded virtual ones), their
 * drivers and states, routing rules, the durable queue, previews, and the RPC handlers of
 * shared/contract/printing.ts. The station's composition root creates one and merges its handlers.
 */
import path from 'node:path';
import {
  printerSettings,
  type JobStateChange,
  type JobsChange,
  type JobView,
  type PrinterConfig,
  type PrinterState,
  type PreviewPage,
  type PrinterView,
  type RoutingRules,
} from '../../shared/contract/printing';
import type { JobAction } from '../../shared/contract/operators';
import type { Clock } from '../base/clock';
import { createLatestFeed } from '../status/pageFeeds';
import type { Handlers } from '../rpc/rpcServer';
import { StationError } from '../base/stationError';
import type { BackoffPolicy } from '../queue/backoff';
import { createPrintQueue } from '../queue/printQueue';
import type { Db } from '../store/database';
import { createPrintJobsRepo, type StoredJob } from '../store/printJobsRepo';
import { createPrintersRepo } from '../store/printersRepo';
import { createSettingsRepo } from '../store/settingsRepo';
import { discoverPrinters, testTcpPrinter } from './discovery';
import { previewPdf, previewZpl } from './labelPreview';
import type { PrinterDriver } from './printerDriver';
import { createDriver, createPdfFolderPrinter, type VirtualPrinters } from './printerDrivers';
import { ROUTES_SETTING, VIRTUAL_PDF_ID, VIRTUAL_ZPL_ID, decideRoutes, parseRoutingRules } from './routing';
import { testLabelPdf, testLabelZpl, type TestLabelLanguage } from './testLabel';
import { prepareZplForPrinter } from './zplPrepare';
import { DESK_PRINTER_KEEP, startVirtualZplPrinter } from './virtualZplPrinter';
import type { PrinterReasonCode } from '../../shared/errors/codes';

export interface PrintingServiceOptions {
  db: Db;
  clock: Clock;
  dataDir: string;
  emit(name: 'printing.jobs', payload: JobsChange): void;
  emit(name: 'printing.printerState', payload: PrinterState): void;
  /** Every job change as it happens, for the core's own waiters (the pages get them gathered: `printing.jobs`). */
  onJobChanged?(job: JobView): void;
  /** How often printer states are refreshed in the background. */
  statusIntervalMs?: number;
  /**
   * How often a printer whose lane waits on a failed job is asked: when it answers again its
   * jobs print at once (queue.printerBack), so this is how long a returning printer goes unnoticed.
   */
  waitingStatusIntervalMs?: number;
  /** The queue's retry policy for jobs that did not reach their printer. */
  backoff?: BackoffPolicy;
  /** A print lane stopped on an error of the station itself (the store cannot be read or written). */
  onLaneError?(printerId: string, error: unknown): void;
  /** Resolves once every commit so far is on the disk (store/walSync.ts): awaited before a label's first byte. */
  durable?(): Promise<void>;
  /** The background probe of printer states failed on an error of the station itself (its store): never an unhandled rejection. */
  onProbeError?(error: unknown): void;
  /** Makes a printer's driver from its settings (a seam of the composition root; default printerDrivers.ts). */
  createDriver?: DriverFactory;
  /** The station's language (electron/status/stationLanguage.ts), for a test label printed without one (default English). */
  language?: () => TestLabelLanguage;
  /**
   * The worker cancelled a job or sent it again now: recorded with who did it (a desk action), in
   * the commit that changes the job, so the job's history and its attribution never part.
   */
  recordJobAction?(action: JobAction, job: StoredJob): void;
}

export type DriverFactory = typeof createDriver;

const builtIns = (): PrinterConfig[] => [
  {
    id: VIRTUAL_ZPL_ID,
    name: 'Virtual label printer (ZPL)',
    connection: { kind: 'virtual-zpl' },
    settings: printerSettings.parse({ hostStatus: true }),
  },
  {
    id: VIRTUAL_PDF_ID,
    name: 'Virtual office printer (PDF folder)',
    connection: { kind: 'virtual-pdf' },
    settings: printerSettings.parse({}),
  },
];

/** A job as the contract shows it (without what only the core needs to print it). */
export const publicJob = ({ labelSize: _s, labelRef: _r, ...view }: StoredJob): JobView => view;
/** What every page follows of a job: its state and why (a reason only when there is one). */
const stateOf = (j: JobView): JobStateChange => ({
  id: j.id,
  state: j.state,
  ...(j.reasonCode !== null ? { reasonCode: j.reasonCode } : {}),
  ...(j.reason !== null ? { reason: j.reason } : {}),
});

export async function createPrintingService(opts: PrintingServiceOptions) {
  const { db, clock } = opts;
  const jobs = createPrintJobsRepo(db);
  const printers = createPrintersRepo(db);
  const settings = createSettingsRepo(db);
  const virtual: VirtualPrinters = {
    zpl: await startVirtualZplPrinter({ now: () => clock.now(), keep: DESK_PRINTER_KEEP }),
    pdf: createPdfFolderPrinter(path.join(opts.dataDir, 'virtual-pdf-printer'), () => clock.now()),
  };
  for (const p of builtIns()) if (!printers.get(p.id)) printers.save(p, clock.now());

  // Job changes to the pages: each changed job's latest state once per window, numbered so a
  // page that missed one (a reconnect) knows to load its list again (printing.queue.follow).
  let jobsVersion = 0;
  const jobFeed = createLatestFeed<number, JobStateChange>({
    merge: (_prev, next) => next,
    send: (entries) => opts.emit('printing.jobs', { version: ++jobsVersion, jobs: entries.map(([, j]) => j) }),
  });

  const drivers = new Map<string, PrinterDriver>();
  const states = new Map<string, PrinterState>();
  const driverFor = (id: string) => {
    let d = drivers.get(id);
    if (!d) {
      const cfg = printers.get(id);
      if (!cfg) return undefined;
      d = (opts.createDriver ?? createDriver)(cfg, virtual);
      drivers.set(id, d);
    }
    return d;
  };

  /** A printer's settings changed or it is gone: its next job gets a new driver; the old one closes once its labels are confirmed. */
  function retireDriver(id: string): void {
    const old = drivers.get(id);
    drivers.delete(id);
    void old?.close?.().catch(() => undefined);
  }

  function setPrinterState(printerId: string, next: Omit<PrinterState, 'printerId' | 'checkedAt'>) {
    const prev = states.get(printerId);
    const state: PrinterState = { printerId, ...next, checkedAt: clock.now().toISOString() };
    states.set(printerId, state);
    if (!prev || prev.state !== state.state || prev.reasonCode !== state.reasonCode) {
      opts.emit('printing.printerState', state);
      // Back (or first seen) ready: its jobs that waited for it go now, not at their backoff time.
      if (state.state === 'ready' && prev?.state !== 'ready') queue.printerBack(printerId);
    }
  }

  const queue = createPrintQueue({
    jobs,
    clock,
    driverFor,
    backoff: opts.backoff,
    onLaneError: opts.onLaneError,
    durable: opts.durable,
    onJobChanged: (stored) => {
      const j = publicJob(stored);
      opts.onJobChanged?.(j);
      jobFeed.change(j.id, stateOf(j));
    },
    onPrinterResult(printerId, err) {
      if (!err) setPrinterState(printerId, { state: 'ready', reasonCode: null, reason: null });
      else if (err.outcome === 'not_sent' || err.outcome === 'not_printed') {
        setPrinterState(printerId, {
          state: err.code === 'offline' || err.code === 'timeout' ? 'offline' : 'error',
          reasonCode: err.code,
          reason: err.message,
        });
      }
    },
  });

  const probing = new Set<string>();
  async function refreshStates(which: (p: PrinterConfig) => boolean = () => true): Promise<void> {
    await Promise.all(
      printers
        .list()
        .filter(which)
        .map(async (p) => {
          const d = driverFor(p.id);
          if (!d) return;
          probing.add(p.id);
          try {
            setPrinterState(p.id, await d.status());
          } catch {
            // A probe that cannot tell leaves the last known state.
          } finally {
            probing.delete(p.id);
          }
        }),
    );
  }

  /**
   * The background probe: every printer at the usual interval, and a printer whose lane waits on
   * a failed job at the short one, so a printer switched back on is noticed in seconds. A probe
   * still running (a printer that does not answer takes its connect timeout) is not doubled.
   */
  let lastFullRefresh = 0;
  function backgroundRefresh(): void {
    const now = clock.now().getTime();
    const full = now - lastFullRefresh >= (opts.statusIntervalMs ?? 15_000);
    if (full) lastFullRefresh = now;
    refreshStates((p) => !probing.has(p.id) && (full || !!queue.waitingHead(p.id))).catch((err: unknown) =>
      opts.onProbeError?.(err),
    );
  }

  const view = (p: PrinterConfig): PrinterView => ({
    ...p,
    status: states.get(p.id) ?? { printerId: p.id, state: 'unknown', reasonCode: null, reason: null, checkedAt: null },
  });
  // Read and checked once, renewed when the worker saves them (the only writer): every scan routes
  // its labels, and parsing the stored rules per scan cost more than the routing itself.
  let routing: RoutingRules | null = null;
  const routes = (): RoutingRules => (routing ??= parseRoutingRules(settings.get(ROUTES_SETTING)));

  function mustPrinter(id: string): PrinterConfig {
    const p = printers.get(id);
    if (!p)
      throw new StationError('printer_not_found', `No printer "${id}" is set up on this station.`, { printerId: id });
    return p;
  }

  // A job's payload never changes, and one ZPL label takes 0.4-2 s of CPU to render: the station
  // screen's last labels and a shipment's detail ask for the same jobs, so recent renders are kept
  // (per job and the printer settings it is shown for: a changed resolution shows anew).
  const previews = new Map<string, Promise<PreviewPage[]>>();
  const PREVIEWS_KEPT = 24;
  async function preview(jobId: number): Promise<PreviewPage[]> {
    const job = queue.get(jobId);
    const printer = job.printerId ? printers.get(job.printerId) : undefined;
    const key = `${jobId}:${JSON.stringify(printer?.settings ?? null)}`;
    const kept = previews.get(key);
    if (kept) {
      previews.delete(key);
      previews.set(key, kept);
      return kept;
    }
    const payload = jobs.payload(jobId);
    // Retention (keep): every job is stored with its bytes; none left means the retention removed them.
    if (!payload && job.format)
      throw new StationError('label_bytes_removed', `The label of print job ${jobId} is no longer kept (retention).`, {
        jobId,
      });
    if (!payload || !job.format)
      throw new StationError('preview_unavailable', `Job ${jobId} has no label to show yet.`, { jobId });
    const rendering = job.format === 'zpl' ? previewZplJob(payload, job, printer) : previewPdf(payload);
    previews.set(key, rendering);
    rendering.catch(() => previews.delete(key));
    while (previews.size > PREVIEWS_KEPT) previews.delete(previews.keys().next().value!);
    return rendering;
  }

  /** What the printer prints: the bytes it is sent (its settings, its resolution), at its resolution. */
  async function previewZplJob(
    payload: Buffer,
    job: StoredJob,
    printer: PrinterConfig | undefined,
  ): Promise<PreviewPage[]> {
    const settings = printer?.settings ?? printerSettings.parse({});
    const sent = await prepareZplForPrinter(
      { format: 'zpl', bytes: payload, title: job.title, copies: 1, labelSize: job.labelSize },
      settings,
    );
    return previewZpl(sent, job.labelSize, settings.dpi);
  }

  const handlers: Partial<Handlers> = {
    'printing.printers.list': () => printers.list().map(view),
    'printing.printers.save': (p) => {
      printers.save(p, clock.now());
      retireDriver(p.id);
      refreshStates().catch((err: unknown) => opts.onProbeError?.(err));
      return view(p);
    },
    'printing.printers.remove': ({ printerId }) => {
      if (printerId === VIRTUAL_ZPL_ID || printerId === VIRTUAL_PDF_ID) {
        throw new StationError('printer_builtin', 'The virtual printers are built in and cannot be removed.');
      }
      // A route to a printer that is gone would fail every label it carries: change the routing first.
      const r = routes();
      const routed =
        [r.defaultRoute, ...Object.values(r.carriers)].some((x) => x?.printerId === printerId) ||
        r.protocolPrinterId === printerId;
      if (routed) {
        throw new StationError(
          'printer_routed',
          `Label routing still prints on "${printerId}". Change the routing before removing the printer.`,
          { printerId },
        );
      }
      retireDriver(printerId);
      states.delete(printerId);
      return { removed: printers.remove(printerId) };
    },
    'printing.printers.discover': () => discoverPrinters(),
    'printing.printers.testConnection': ({ host, port }) => testTcpPrinter(host, port),
    'printing.printers.testPrint': async ({ printerId, language }) => {
      const p = mustPrinter(printerId);
      const zpl = p.connection.kind.startsWith('zpl') || p.connection.kind === 'virtual-zpl';
      const now = clock.now();
      // The label in the page's language (else the station's); a built-in printer by its name in that language.
      const lang = language ?? opts.language?.() ?? 'en';
      const named = { id: p.id, name: p.name, builtIn: builtIns().some((b) => b.id === p.id && b.name === p.name) };
      const job = queue.enqueue({
        kind: 'print',
        printerId,
        format: zpl ? 'zpl' : 'pdf',
        payload: zpl ? Buffer.from(testLabelZpl(named, now, lang), 'utf8') : await testLabelPdf(named, now, lang),
        labelSize: '10x5',
        labelRef: `test:${printerId}`,
        title: `Test print ${p.name}`,
        barcodes: ['TEST-PRINT'],
      });
      return publicJob(job);
    },
    'printing.printers.received': ({ printerId }) => {
      const p = mustPrinter(printerId);
      if (p.connection.kind === 'virtual-zpl') {
        return virtual.zpl
          .printed()
          .map((l, i) => ({ at: l.at, name: `label ${i + 1}`, bytes: l.bytes.length, text: l.zpl }));
      }
      if (p.connection.kind === 'virtual-pdf') return virtual.pdf.received().map((f) => ({ ...f, text: null }));
      throw new StationError('printer_not_virtual', 'Only the virtual printers keep what they received.');
    },
    'printing.routes.get': () => routes(),
    'printing.routes.effective': () => decideRoutes(routes()),
    'printing.routes.set': (rules) => {
      const missing = [rules.defaultRoute, ...Object.values(rules.carriers)]
        .map((r) => r?.printerId ?? null)
        .concat(rules.protocolPrinterId)
        .filter((id): id is string => !!id && !printers.get(id));
      if (missing.length)
        throw new StationError(
          'printer_not_found',
          `Routing names printers that are not set up: ${[...new Set(missing)].join(', ')}.`,
          { printerIds: [...new Set(missing)] },
        );
      settings.set(ROUTES_SETTING, rules, clock.now());
      routing = null;
      return rules;
    },
    'printing.queue.list': (p) => queue.list(p).map(publicJob),
    'printing.queue.follow': ({ ids, ...p }) => {
      // A change not sent yet is in the list already; it comes after the answer, with a later
      // version, carrying the job's state as it is then (never older than what the list shows).
      const version = jobsVersion;
      const list = ids ? ids.flatMap((id) => jobs.get(id) ?? []) : queue.list(p);
      return { version, jobs: list.map(publicJob) };
    },
    'printing.queue.history': ({ jobId }) => queue.history(jobId),
    'printing.queue.retryNow': ({ jobId }) =>
      publicJob(queue.retryNow(jobId, (job) => opts.recordJobAction?.('job_retried', job))),
    'printing.queue.cancel': ({ jobId }) =>
      publicJob(queue.cancel(jobId, (job) => opts.recordJobAction?.('job_cancelled', job))),
    'printing.queue.move': ({ jobId, printerId }) => {
      mustPrinter(printerId);
      const driver = driverFor(printerId);
      return publicJob(
        queue.moveTo(jobId, printerId, driver?.formats ?? [], (job) => opts.recordJobAction?.('job_moved', job)),
      );
    },
    'printing.queue.markPrinted': ({ jobId }) =>
      publicJob(queue.markPrinted(jobId, (job) => opts.recordJobAction?.('job_marked_printed', job))),
    'printing.preview': ({ jobId }) => preview(jobId),
  };

  /**
   * Why a queued job waits for its printer, or null: the lane's head waits for
   * its retry (nothing reached the printer), or the printer is known offline or in error. A scan's
   * outcome says so at once rather than after its wait.
   */
  function queuedWaits(job: {
    state: string;
    printerId: string | null;
  }): { code: PrinterReasonCode; message: string } | null {
    if (job.state !== 'queued' || !job.printerId) return null;
    const head = queue.waitingHead(job.printerId);
    if (head)
      return {
        code: head.reasonCode ?? 'offline',
        message: head.reason ?? `The printer ${job.printerId} is not ready.`,
      };
    const st = states.get(job.printerId);
    if (st && (st.state === 'offline' || st.state === 'error')) {
      return {
        code: st.reasonCode ?? (st.state === 'offline' ? 'offline' : 'printer_error'),
        message: st.reason ?? `The printer ${job.printerId} is ${st.state}.`,
      };
    }
    return null;
  }

  let stopStatus: (() => void) | null = null;
  return {
    handlers,
    queue,
    queuedWaits,
    virtual,
    routes,
    printers: () => printers.list().map(view),
    async start() {
      queue.start();
      // Jobs a crash left uncertain on printers with a label counter: settled from it, in the background.
      void queue.settleByCounter().catch(() => undefined);
      await refreshStates();
      lastFullRefresh = clock.now().getTime();
      const waitingMs = opts.waitingStatusIntervalMs ?? 2000;
      stopStatus = clock.setInterval(backgroundRefresh, Math.min(waitingMs, opts.statusIntervalMs ?? 15_000));
    },
    async close() {
      stopStatus?.();
      jobFeed.stop();
      await queue.stop();
      await Promise.all([...drivers.values()].map(async (d) => d.close?.().catch(() => undefined)));
      await virtual.zpl.close();
    },
  };
}

export type PrintingService = Awaited<ReturnType<typeof createPrintingService>>;
