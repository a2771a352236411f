/**
 * Scan-to-close (issue 7 item 2; PRODUCT.md "Scan-to-close"): one scan -> lookup (cache, then
 * service) -> a prepared shipment is closed (spec "PATCH /api/v3/deliveries"), the cache updated
 * in place, its labels fetched at once in the routed format and stored (reprints work offline),
 * every package label queued on the routed printer -> one outcome the UI shows full-screen.
 *
 * Nothing is lost: every scan is written to the scan log when it arrives and gets its outcome
 * there; scans wait in a line in scan order; when the service cannot be reached the scan becomes a
 * close-and-print job of the durable queue, and while such jobs wait, later scans join them, so
 * shipments still close and print in scan order. The queue runs them through `runQueuedScan`.
 */
import type { ScanOutcome as LogOutcome, Shipment } from '../../shared/contract/shipments';
import { shipmentStates } from '../../shared/contract/shipments';
import { normaliseScan } from '../../shared/scan/normaliseScan';
import type { CloseAndPrintResult } from '../queue/printQueue';
import { toSummary } from '../store/shipmentsRepo';
import type { StoredJob } from '../store/printJobsRepo';
import { closeShipments, isClosedState } from './closeShipments';
import { fetchLabelJobs, storedLabelJobs } from './labelJobs';
import { createScanLine } from './scanLine';
import type { ClosedShipmentInfo, PendingScan, ScanOutcome, WorkflowError } from './schemas';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export interface ScanToCloseOptions {
  /** How long a scan waits for its labels to leave the printer before it reports `queued` (default 8 s). */
  printWaitMs?: number;
  onOutcome?(outcome: ScanOutcome): void;
  onPending?(pending: PendingScan[]): void;
}

const logOutcome: Record<ScanOutcome['kind'], LogOutcome> = {
  printed: 'printed',
  queued: 'queued',
  'printer-down': 'queued',
  'already-closed': 'already_closed',
  cancelled: 'cancelled',
  'not-found': 'not_found',
  ambiguous: 'ambiguous',
  'carrier-rejected': 'rejected',
  'service-unreachable': 'queued',
  skipped: 'skipped',
  'login-required': 'error',
  error: 'error',
};

function messageOf(o: ScanOutcome): string | null {
  switch (o.kind) {
    case 'not-found':
    case 'login-required':
    case 'carrier-rejected':
      return [o.message, ...(o.kind === 'carrier-rejected' ? o.messages : [])].join(' | ');
    case 'service-unreachable':
    case 'printer-down':
      return o.reason.message;
    case 'queued':
      return o.reason?.message ?? null;
    case 'error':
      return o.error.message;
    default:
      return null;
  }
}

export function shipmentInfo(s: Shipment): ClosedShipmentInfo {
  return {
    deliveryId: s.deliveryId,
    carrier: s.agent ?? '',
    recipientName: toSummary(s).recipientName,
    packageCount: s.packages.length,
    deliveryNumber: s.deliveryNumber,
    barcodes: s.packages.map((p) => p.barcode).filter((b): b is string => !!b),
  };
}

/**
 * What a line step hands on: an outcome now, or one that comes when the printer has answered. The
 * wrapper keeps async functions from awaiting it, so the line moves on once the labels are queued.
 */
type Step = ScanOutcome | { later: Promise<ScanOutcome> };
const later = (p: Promise<ScanOutcome>): Step => ({ later: p });

export function createScanToClose(deps: WorkflowDeps, opts: ScanToCloseOptions = {}) {
  const printWaitMs = opts.printWaitMs ?? 8000;
  const line = createScanLine((p) => opts.onPending?.(p));
  /** already-closed scans waiting for the worker's Enter (reprint) or Esc (skip). */
  const awaiting = new Map<number, { deliveryId: number; code: string }>();
  /** Scans queued as close-and-print jobs, by code, oldest first (their scan log rows). */
  const queuedScans = new Map<string, number[]>();
  const now = () => deps.clock.now();
  const labelCtx = (session: WorkflowSession) => ({ session, labels: deps.repos.labels, rules: deps.routes(), now });

  function finish(o: ScanOutcome): ScanOutcome {
    const deliveryId = 'shipment' in o ? o.shipment.deliveryId : 'deliveryId' in o ? o.deliveryId : undefined;
    const outcome = o.kind === 'printed' && o.reprint ? 'reprinted' : logOutcome[o.kind];
    deps.repos.scanLog.update(o.scanId, { outcome, message: messageOf(o), ...(deliveryId !== undefined ? { deliveryId } : {}) });
    opts.onOutcome?.(o);
    return o;
  }

  const jobsOf = (deliveryId: number) =>
    deps.queue.list({ limit: 1000 }).filter((j) => j.kind === 'print' && j.deliveryIds.includes(deliveryId) && j.state !== 'cancelled');

  /** Close-and-print jobs still to run: while any wait, new scans queue behind them (scan order). */
  const scansWaiting = () =>
    deps.queue
      .list({ states: ['queued', 'sending', 'failed'], limit: 500 })
      .some((j) => j.kind === 'close-and-print' && (j.state !== 'failed' || j.nextRetryAt !== null));

  function queueScan(scanId: number, code: string, reason: WorkflowError): ScanOutcome {
    // Remembered before the job exists: the queue may start running it at once.
    queuedScans.set(code, [...(queuedScans.get(code) ?? []), scanId]);
    const job = deps.queue.enqueueCloseAndPrint(code);
    return { scanId, code, kind: 'service-unreachable', jobId: job.id, reason };
  }

  async function report(scanId: number, code: string, s: Shipment, jobs: StoredJob[], reprint: boolean): Promise<ScanOutcome> {
    const info = shipmentInfo(s);
    const jobIds = jobs.map((j) => j.id);
    const settled = await deps.jobs.wait(jobIds, printWaitMs);
    if (settled.kind === 'done') return { scanId, code, kind: 'printed', shipment: info, jobIds, reprint };
    // The labels come out later (the printer was down, or slow): the scan log says so then, so the day's counters are true.
    setImmediate(() => deps.jobs.whenAllDone(jobIds, () => deps.repos.scanLog.update(scanId, { outcome: reprint ? 'reprinted' : 'printed' })));
    if (settled.kind === 'failed') {
      const j = settled.job;
      const reason = { code: j.reasonCode ?? 'printer_error', message: j.reason ?? `The printer ${j.printerId ?? ''} did not print the label. It waits in the print queue.` };
      return { scanId, code, kind: 'printer-down', shipment: info, jobIds, reason };
    }
    return { scanId, code, kind: 'queued', shipment: info, jobIds, reprint, reason: null };
  }

  /** Labels of a shipment just closed here: fetched, stored, queued; the outcome waits for the printer. */
  async function printClosed(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<Step> {
    const lj = await fetchLabelJobs(labelCtx(session), [s]);
    const failure = lj.failures[0];
    if (failure) {
      if (failure.trouble.kind === 'unreachable') {
        // Closed, labels not yet here: the queued scan finds it closed and never printed, and prints it.
        queuedScans.set(code, [...(queuedScans.get(code) ?? []), scanId]);
        const job = deps.queue.enqueueCloseAndPrint(code);
        return { scanId, code, kind: 'queued', shipment: shipmentInfo(s), jobIds: [job.id], reprint: false, reason: failure.trouble.error };
      }
      return { scanId, code, kind: 'printer-down', shipment: shipmentInfo(s), jobIds: [], reason: failure.trouble.error };
    }
    const jobs = lj.prints.map((p) => deps.queue.enqueue(p));
    return later(report(scanId, code, s, jobs, false));
  }

  async function alreadyClosed(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<ScanOutcome> {
    const closedElsewhere = jobsOf(s.deliveryId).length === 0;
    let labelsAvailable = storedLabelJobs(deps.repos.labels, deps.routes(), session.accountId, s) !== null;
    if (!labelsAvailable) {
      // Closed by another station: fetch its labels now (stored, not printed) so Enter reprints at once.
      const lj = await fetchLabelJobs(labelCtx(session), [s]);
      labelsAvailable = lj.failures.length === 0 && lj.prints.length > 0;
    }
    awaiting.set(scanId, { deliveryId: s.deliveryId, code });
    return { scanId, code, kind: 'already-closed', shipment: shipmentInfo(s), closedElsewhere, labelsAvailable };
  }

  function fromTrouble(scanId: number, code: string, t: Trouble): ScanOutcome {
    if (t.kind === 'unreachable') return queueScan(scanId, code, t.error);
    if (t.kind === 'login') return { scanId, code, kind: 'login-required', message: t.error.message };
    return { scanId, code, kind: 'error', error: t.error };
  }

  async function closeAndPrint(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<Step> {
    const r = (await closeShipments(deps, session, [s])).get(s.deliveryId);
    if (!r) return { scanId, code, kind: 'error', error: { code: 'close_no_answer', message: `The close of shipment ${s.deliveryId} gave no result.` } };
    switch (r.kind) {
      case 'closed':
        return printClosed(scanId, code, session, r.shipment);
      case 'closed-elsewhere':
        return alreadyClosed(scanId, code, session, r.shipment);
      case 'cancelled':
        return { scanId, code, kind: 'cancelled', deliveryId: s.deliveryId, recipientName: toSummary(r.shipment).recipientName };
      case 'rejected':
        if (r.status === 404) return { scanId, code, kind: 'not-found', message: r.message, serviceChecked: true };
        if (r.status !== 422 && r.status !== null) return { scanId, code, kind: 'error', error: { code: `service_http_${r.status}`, message: r.message } };
        return { scanId, code, kind: 'carrier-rejected', deliveryId: s.deliveryId, carrier: s.agent ?? '', message: r.message, messages: r.messages };
      case 'unreachable':
      case 'login':
        return fromTrouble(scanId, code, r.trouble);
    }
  }

  async function decide(scanId: number, code: string): Promise<Step> {
    const session = deps.session();
    if (!session) return { scanId, code, kind: 'login-required', message: 'The station is not logged in to the service. Log in, then scan again.' };
    if (scansWaiting()) {
      return queueScan(scanId, code, { code: 'waiting_in_line', message: 'Earlier scans wait for the service; this one runs after them, in scan order.' });
    }
    const found = await deps.lookup(code);
    switch (found.kind) {
      case 'invalid':
        return { scanId, code, kind: 'not-found', message: found.message, serviceChecked: false };
      case 'ambiguous':
        return {
          scanId,
          code,
          kind: 'ambiguous',
          candidates: found.candidates.map((c) => ({
            deliveryId: c.shipment.deliveryId,
            carrier: c.shipment.agent ?? '',
            recipientName: toSummary(c.shipment).recipientName,
            state: c.shipment.state,
          })),
        };
      case 'not_found':
        if (found.serviceChecked) return { scanId, code, kind: 'not-found', message: `No shipment has the code ${found.code}.`, serviceChecked: true };
        return fromTrouble(scanId, code, classifyTrouble(found.serviceError ?? { code: 'service_unreachable', message: 'The service could not be asked.' }));
      case 'found': {
        const s = found.shipment;
        if (s.state === shipmentStates.cancelled) return { scanId, code, kind: 'cancelled', deliveryId: s.deliveryId, recipientName: toSummary(s).recipientName };
        if (isClosedState(s.state)) return alreadyClosed(scanId, code, session, s);
        if (s.state === shipmentStates.prepared) return closeAndPrint(scanId, code, session, s);
        return { scanId, code, kind: 'error', error: { code: 'unknown_state', message: `Shipment ${s.deliveryId} is in state ${s.state}, which the station does not know.` } };
      }
    }
  }

  /** Runs a step on the line; the line moves on once the labels are queued, not printed. */
  function onLine(entry: Omit<PendingScan, 'state'>, step: () => Promise<Step>): Promise<ScanOutcome> {
    const fail = (err: unknown): ScanOutcome => {
      deps.log.error('scan failed unexpectedly', { scanId: entry.scanId, error: err instanceof Error ? err.message : String(err) });
      return { scanId: entry.scanId, code: entry.code, kind: 'error', error: { code: 'internal', message: 'The scan could not be finished. Scan it again; if it repeats, see the log.' } };
    };
    return line
      .add(entry, async () => {
        try {
          return { step: await step() };
        } catch (err) {
          return { step: fail(err) };
        }
      })
      .then(({ step: s }) => ('later' in s ? s.later.catch(fail) : s))
      .then(finish);
  }

  /** The scan lane's runner: a queued scan, run again when the service may be back (scan order kept by the queue). */
  async function runQueuedScan(code: string): Promise<CloseAndPrintResult> {
    const session = deps.session();
    if (!session) return { ok: false, code: 'login_required', message: 'Log in again; the scan waits.', retryable: true };
    // The scan behind this job: remembered in memory, or after a restart the oldest scan of this code still logged as queued.
    const scanIdOf = () =>
      queuedScans.get(code)?.[0] ?? deps.repos.scanLog.recent(session.accountId, 500).reverse().find((e) => e.code === code && e.outcome === 'queued')?.id ?? null;
    const settle = (result: CloseAndPrintResult, outcome: ((id: number) => ScanOutcome) | null): CloseAndPrintResult => {
      if (result.ok || !result.retryable) {
        const scanId = scanIdOf();
        const list = queuedScans.get(code);
        list?.shift();
        if (list && list.length === 0) queuedScans.delete(code);
        if (scanId !== null && outcome) {
          finish(outcome(scanId));
          // The log tells a queued scan that has since closed (labels in the print queue) from one still waiting.
          if (result.ok) deps.repos.scanLog.update(scanId, { outcome: 'closed' });
        }
      }
      return result;
    };
    const retry = (t: Trouble): CloseAndPrintResult => ({ ok: false, code: t.error.code, message: t.error.message, retryable: true });
    const give = (kind: 'not-found' | 'error', c: string, message: string) =>
      settle({ ok: false, code: c, message, retryable: false }, (id) =>
        kind === 'not-found' ? { scanId: id, code, kind, message, serviceChecked: true } : { scanId: id, code, kind, error: { code: c, message } },
      );

    const found = await deps.lookup(code, { refresh: true });
    if (found.kind === 'not_found' && !found.serviceChecked) {
      const t = classifyTrouble(found.serviceError ?? { code: 'service_unreachable', message: 'The service could not be asked.' });
      return t.kind === 'answered' ? give('error', t.error.code, t.error.message) : retry(t);
    }
    if (found.kind !== 'found') return give('not-found', `scan_${found.kind}`, found.kind === 'invalid' ? found.message : `The scan ${code} did not resolve to one shipment.`);
    let s = found.shipment;
    if (s.state === shipmentStates.cancelled) return give('error', 'cancelled', `Shipment ${s.deliveryId} was cancelled; nothing was printed.`);
    if (s.state === shipmentStates.prepared) {
      const r = (await closeShipments(deps, session, [s])).get(s.deliveryId);
      if (!r || r.kind === 'unreachable' || r.kind === 'login') return retry(r?.trouble ?? classifyTrouble(new Error('no close result')));
      if (r.kind === 'rejected') {
        return settle({ ok: false, code: 'rejected', message: r.message, retryable: false }, (id) => ({
          scanId: id, code, kind: 'carrier-rejected', deliveryId: s.deliveryId, carrier: s.agent ?? '', message: r.message, messages: r.messages,
        }));
      }
      if (r.kind === 'cancelled') return give('error', 'cancelled', `Shipment ${s.deliveryId} was cancelled; nothing was printed.`);
      s = r.shipment;
    } else if (jobsOf(s.deliveryId).length > 0) {
      // Closed, and its labels were printed (or are queued) here already: never print twice by itself.
      return give('error', 'already_printed', `Shipment ${s.deliveryId} was already closed and its labels were printed here. Reprint it from the shipment if needed.`);
    }
    const lj = await fetchLabelJobs(labelCtx(session), [s]);
    const failure = lj.failures[0];
    if (failure) return failure.trouble.kind === 'answered' ? give('error', failure.trouble.error.code, failure.trouble.error.message) : retry(failure.trouble);
    const closed = s;
    return settle({ ok: true, prints: lj.prints }, (id) => ({ scanId: id, code, kind: 'queued', shipment: shipmentInfo(closed), jobIds: [], reprint: false, reason: null }));
  }

  /**
   * One scan as the scanner typed it: logged and placed in the line at once (`scanId`), its
   * outcome later (`done`, also sent to onOutcome). The RPC answers with the scanId right away.
   */
  function submit(raw: string): { scanId: number; done: Promise<ScanOutcome> } {
    const session = deps.session();
    const n = normaliseScan(raw);
    const code = n.ok ? n.code : raw.trim();
    const scanId = deps.repos.scanLog.record({ accountId: session?.accountId ?? '', code, rawCode: code === raw ? null : raw, scannedAt: now() });
    return { scanId, done: onLine({ scanId, code, receivedAt: now().toISOString() }, () => decide(scanId, code)) };
  }

  return {
    submit,

    /** submit(), waiting for the outcome. */
    scan: (raw: string): Promise<ScanOutcome> => submit(raw).done,

    /** The worker confirmed the reprint of an already-closed shipment (Enter). Prints the stored labels, or fetches them. */
    reprint(req: { deliveryId: number; scanId?: number }): Promise<ScanOutcome> {
      const session = deps.session();
      const asked = req.scanId !== undefined ? awaiting.get(req.scanId) : undefined;
      const code = asked?.code ?? String(req.deliveryId);
      const scanId = asked && req.scanId !== undefined ? req.scanId : deps.repos.scanLog.record({ accountId: session?.accountId ?? '', code, scannedAt: now(), deliveryId: req.deliveryId });
      if (req.scanId !== undefined) awaiting.delete(req.scanId);
      return onLine({ scanId, code, receivedAt: now().toISOString() }, async (): Promise<Step> => {
        const accountId = session?.accountId;
        const s = accountId ? deps.repos.shipments.get(accountId, req.deliveryId) : null;
        if (!session || !s) {
          return session
            ? { scanId, code, kind: 'not-found', message: `Shipment ${req.deliveryId} is not in this station's cache.`, serviceChecked: false }
            : { scanId, code, kind: 'login-required', message: 'The station is not logged in to the service. Log in, then reprint.' };
        }
        let prints = storedLabelJobs(deps.repos.labels, deps.routes(), session.accountId, s);
        if (!prints) {
          const lj = await fetchLabelJobs(labelCtx(session), [s]);
          const failure = lj.failures[0];
          if (failure) return failure.trouble.kind === 'login' ? fromTrouble(scanId, code, failure.trouble) : { scanId, code, kind: 'error', error: failure.trouble.error };
          prints = lj.prints;
        }
        const jobs = prints.map((p) => deps.queue.enqueue(p));
        return later(report(scanId, code, s, jobs, true));
      });
    },

    /** The worker declined the reprint (Esc). */
    skip(scanId: number): ScanOutcome | null {
      const asked = awaiting.get(scanId);
      if (!asked) return null;
      awaiting.delete(scanId);
      return finish({ scanId, code: asked.code, kind: 'skipped', deliveryId: asked.deliveryId });
    },

    pending: () => line.pending(),
    runQueuedScan,

    /** The service answers again: queued scans run now instead of at their backoff time. */
    serviceBack(): void {
      for (const j of deps.queue.list({ states: ['failed'], limit: 500 }).reverse()) {
        if (j.kind === 'close-and-print' && j.nextRetryAt !== null) deps.queue.retryNow(j.id);
      }
    },
  };
}

export type ScanToClose = ReturnType<typeof createScanToClose>;
