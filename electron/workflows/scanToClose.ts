/**
 * Scan-to-close (issue 7 item 2; PRODUCT.md "Scan-to-close"): one scan -> lookup (cache, then
 * service) -> a prepared shipment is closed (spec "PATCH /api/v3/deliveries"), the cache updated
 * in place, its labels fetched at once in the routed format and stored (reprints work offline),
 * every package label queued on the routed printer -> one outcome the UI shows full-screen.
 *
 * Nothing is lost: a scan is a journal entry committed with its scan log row before the scan is
 * acknowledged (electron/store/journalRepo.ts). The scan lane runs the journal's unfinished scans
 * one at a time in scan order — after a restart too — and moves each through the one state
 * machine of closing and printing (closeAndPrint.ts). A scan that must wait (no service, logged
 * out) holds the lane, so later scans keep their order; it runs again when the service or the
 * login is back, or at its retry time.
 */
import type { ScanOutcome as LogOutcome, Shipment } from '../../shared/contract/shipments';
import { isClosedState, shipmentStates } from '../../shared/contract/shipments';
import { normaliseScan } from '../../shared/scan/normaliseScan';
import type { JournalEntry, ReceivedScan } from '../store/journalRepo';
import type { StoredJob } from '../store/printJobsRepo';
import { toSummary } from '../store/shipmentsRepo';
import { createCloseAndPrint, type EntryResult } from './closeAndPrint';
import { fetchLabelJobs, storedLabelJobs } from './labelJobs';
import type { ClosedShipmentInfo, PendingScan, PendingScans, PendingScansChange, ScanOutcome, WorkflowError } from './schemas';
import type { JournalOutcome } from '../../shared/errors/codes';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import { labelsInPrinter, reportFault, type WorkflowDeps, type WorkflowSession } from './workflowDeps';
import type { AskWeight, BeforeClose, WeighedInfo, WeightAnswer } from '../scale/weighBeforeClose';

/** The desk's own steps around the close (issue 19: weigh before it, check the label after it). */
export interface DeskSteps {
  /** Scans are weighed before their close (a scale is set up): the close does not follow the scan at once. */
  weighs(): boolean;
  /** A resolved scan, before its close: weigh it (asking the worker through `ask` when a weight is far off); the shipment may be updated at the service. */
  beforeClose(e: JournalEntry, session: WorkflowSession, ask: AskWeight): Promise<BeforeClose>;
  weighedOf(entryId: number, s: Shipment): WeighedInfo | null;
  /** A scan's labels are queued: its label may be checked now. */
  labelQueued(entryId: number, accountId: string, s: Shipment): void;
}

export interface ScanToCloseOptions {
  /** How long a scan waits for its labels to leave the printer before it reports `queued` (default 8 s). */
  printWaitMs?: number;
  onOutcome?(outcome: ScanOutcome): void;
  /** What changed in the line of scans (`scan.pending`). */
  onPending?(change: PendingScansChange): void;
  /** Weighing and label checks, when the station has them (electron/scale). */
  desk?: DeskSteps;
}

const logOutcome: Record<ScanOutcome['kind'], LogOutcome> = {
  printed: 'printed',
  spooled: 'spooled',
  queued: 'queued',
  printer_down: 'queued',
  already_closed: 'already_closed',
  // The scan is still open while the worker is asked; held: nothing was done with the parcel.
  weight_check: 'pending',
  held: 'skipped',
  cancelled: 'cancelled',
  not_found: 'not_found',
  ambiguous: 'ambiguous',
  carrier_rejected: 'rejected',
  service_unreachable: 'queued',
  skipped: 'skipped',
  login_required: 'error',
  error: 'error',
};

function messageOf(o: ScanOutcome): string | null {
  switch (o.kind) {
    case 'not_found':
    case 'login_required':
    case 'carrier_rejected':
      return [o.message, ...(o.kind === 'carrier_rejected' ? o.messages : [])].join(' | ');
    case 'service_unreachable':
    case 'printer_down':
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
/** A scan committed and acknowledged: its number, and its first outcome to come. */
export interface Received {
  scanId: number;
  done: Promise<ScanOutcome>;
}

/** Scans received per commit (one disk sync), and per turn of the event loop. */
const RECEIVE_SLICE = 25;

type Step = ScanOutcome | { later: Promise<ScanOutcome> };
const later = (p: Promise<ScanOutcome>): Step => ({ later: p });

export function createScanToClose(deps: WorkflowDeps, opts: ScanToCloseOptions = {}) {
  const printWaitMs = opts.printWaitMs ?? 8000;
  const journal = deps.repos.journal;
  const engine = createCloseAndPrint(deps);
  /** already_closed scans waiting for the worker's Enter (reprint) or Esc (skip). */
  const awaiting = new Map<number, { deliveryId: number; code: string }>();
  /**
   * The weight check the lane waits on (issue 25, Deliver): at most one, as the lane runs one scan
   * at a time; like the weighing before it, later scans wait in line meanwhile. Only the answer is
   * in memory: the entry stays `resolved` with its weights in the journal until it is answered.
   */
  let question: { outcome: Extract<ScanOutcome, { kind: 'weight_check' }>; answer(a: WeightAnswer): void } | null = null;
  /** Callers of submit() waiting for their scan's first outcome, by journal entry. */
  const waiters = new Map<number, (o: ScanOutcome) => void>();
  const now = () => deps.clock.now();
  const labelCtx = (session: WorkflowSession) => ({ session, labels: deps.repos.labels, rules: deps.routes(), now });
  let working: number | null = null;
  let draining: Promise<void> | null = null;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  /**
   * Entries committed `close-requested` in the commit that received their scan, whose close has
   * not been sent yet: the line sends it without a second commit (nothing to reconcile yet).
   */
  const closeNotSent = new Set<number>();
  /** Scans submitted in this turn, waiting for their common commit (receiveArrived). */
  const arriving: { scan: ReceivedScan; resolve: (r: Received) => void; reject: (err: unknown) => void }[] = [];

  const toPending = (e: JournalEntry): PendingScan => ({
    scanId: e.scanId ?? 0,
    code: e.code ?? '',
    receivedAt: e.createdAt,
    state: e.id === working ? 'working' : 'waiting',
    reason: e.outcome === 'waiting' && e.reasonCode ? { code: e.reasonCode, message: e.reason ?? '' } : null,
  });
  function pending(): PendingScan[] {
    return journal.unfinishedScans().map(toPending);
  }

  /*
   * The line as pages know it (issue 17 item 5): each change sends the scans it touched, not the
   * whole line, so 1,000 queued scans cost the page 1,000 small changes, not 1,000 lists. The
   * scans touched in one turn of the event loop go out as one change (a scan that leaves the line
   * and the next that starts working are one frame); a scan is sent only when what the page shows
   * of it changed. Each touched scan is one row read (journal.get), never the whole line.
   */
  let version = 0;
  /** What pages were told of each scan in line (JSON, by scanId). */
  const told = new Map<number, string>();
  /** Journal entries whose line state may have changed since the last change was sent. */
  const touched = new Set<number>();
  let flushing: NodeJS.Immediate | null = null;
  /** Set once the lane has stopped: the database closes next, so nothing may read it later. */
  let lineClosed = false;
  for (const p of pending()) told.set(p.scanId, JSON.stringify(p));

  function flushPending(): void {
    if (flushing) clearImmediate(flushing);
    flushing = null;
    const put: PendingScan[] = [];
    const remove: number[] = [];
    for (const id of touched) {
      const e = journal.get(id);
      if (!e || e.source !== 'scan') continue;
      const scanId = e.scanId ?? 0;
      if (e.step === 'queued' || e.step === 'ended') {
        if (told.delete(scanId)) remove.push(scanId);
        continue;
      }
      const p = toPending(e);
      const json = JSON.stringify(p);
      if (told.get(scanId) === json) continue;
      told.set(scanId, json);
      put.push(p);
    }
    touched.clear();
    if (!put.length && !remove.length) return;
    version++;
    opts.onPending?.({ version, put: put.sort((a, b) => a.scanId - b.scanId), remove });
  }
  /** A scan's line state may have changed: it goes out with the others of this turn. */
  const pendingChanged = (entryId: number | null) => {
    if (entryId === null || lineClosed) return;
    touched.add(entryId);
    flushing ??= setImmediate(flushPending);
  };

  function finish(o: ScanOutcome): ScanOutcome {
    const deliveryId = 'shipment' in o ? o.shipment.deliveryId : 'deliveryId' in o ? o.deliveryId : undefined;
    const outcome = o.kind === 'printed' && o.reprint ? 'reprinted' : logOutcome[o.kind];
    deps.repos.scanLog.update(o.scanId, { outcome, message: messageOf(o), ...(deliveryId !== undefined ? { deliveryId } : {}) });
    opts.onOutcome?.(o);
    return o;
  }

  /** The first outcome of a scan answers its submit(); later ones (a waiting scan that ran) are pushed only. */
  function deliver(entryId: number, o: ScanOutcome): void {
    finish(o);
    const w = waiters.get(entryId);
    waiters.delete(entryId);
    w?.(o);
  }

  async function report(scanId: number, code: string, s: Shipment, jobs: StoredJob[], reprint: boolean, entryId: number | null = null): Promise<ScanOutcome> {
    const weighed = entryId !== null ? opts.desk?.weighedOf(entryId, s) : null;
    const info = weighed ? { ...shipmentInfo(s), weighed } : shipmentInfo(s);
    const jobIds = jobs.map((j) => j.id);
    const settled = await deps.jobs.wait(jobIds, printWaitMs);
    if (settled.kind === 'done') return { scanId, code, kind: 'printed', shipment: info, jobIds, reprint };
    // Handed to the print system, which does not say a label came out: told as such, not counted printed (issue 24 item 7).
    if (settled.kind === 'spooled') return { scanId, code, kind: 'spooled', shipment: info, jobIds, reprint };
    // The labels come out later (the printer was down, or slow): the scan log says so then, so the day's counters are true.
    setImmediate(() =>
      deps.jobs.whenAllDone(
        jobIds,
        (how) => deps.repos.scanLog.update(scanId, { outcome: how === 'spooled' ? 'spooled' : reprint ? 'reprinted' : 'printed' }),
        // Cancelled in the queue: it no longer waits, so the day's "Waiting" drops it (issue 25 item 8).
        () => deps.repos.scanLog.update(scanId, { outcome: 'print_cancelled' }),
      ),
    );
    if (settled.kind === 'waiting' || settled.kind === 'failed') {
      // Waiting for its printer (offline, out of labels): said at once, with the printer's reason (issue 24 item 10).
      const j = settled.job;
      const reason =
        settled.kind === 'waiting'
          ? settled.reason
          : { code: j.reasonCode ?? 'printer_error', message: j.reason ?? `The printer ${j.printerId ?? ''} did not print the label. It waits in the print queue.` };
      return { scanId, code, kind: 'printer_down', shipment: info, jobIds, reason };
    }
    return { scanId, code, kind: 'queued', shipment: info, jobIds, reprint, reason: onTheirWay(jobIds) };
  }

  /**
   * After the wait: null when every label not yet finished is at its printer (sending or sent: it
   * is printing), else why they are not (they wait in the print queue behind others), so the screen
   * says "printing" only when they are.
   */
  function onTheirWay(jobIds: number[]): WorkflowError | null {
    const behind = jobIds.some((id) => {
      try {
        return deps.queue.get(id).state === 'queued';
      } catch {
        return false;
      }
    });
    return behind ? { code: 'waiting_in_queue', message: 'Its labels wait in the print queue behind others and print in turn.' } : null;
  }

  async function alreadyClosed(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<ScanOutcome> {
    const closedElsewhere = !journal.closedHere(session.accountId, s.deliveryId) && journal.jobIdsOfShipment(session.accountId, s.deliveryId).length === 0;
    let labelsAvailable = storedLabelJobs(deps.repos.labels, deps.routes(), session.accountId, s) !== null;
    if (!labelsAvailable) {
      // Closed by another station: fetch its labels now (stored, not printed) so Enter reprints at once.
      const lj = await fetchLabelJobs(labelCtx(session), [s]);
      labelsAvailable = lj.failures.length === 0 && lj.prints.length > 0;
    }
    awaiting.set(scanId, { deliveryId: s.deliveryId, code });
    return { scanId, code, kind: 'already_closed', shipment: shipmentInfo(s), closedElsewhere, labelsAvailable };
  }

  /** What a line step hands on: an outcome, one that comes when the printer has answered, or a wait. */
  type Run = { step: Step; waiting: boolean };
  const done = (step: Step): Run => ({ step, waiting: false });

  /** What the worker hears of a scan that waits (the wait is recorded already). */
  function waiting(e: JournalEntry, t: Trouble, closed: Shipment | null): Run {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    // Closed already, labels still to come: the worker sees it closed; the labels follow by themselves.
    if (closed) return { step: { scanId, code, kind: 'queued', shipment: shipmentInfo(closed), jobIds: [], reprint: false, reason: t.error }, waiting: true };
    return { step: { scanId, code, kind: 'service_unreachable', entryId: e.id, reason: t.error }, waiting: true };
  }

  function waitFor(e: JournalEntry, t: Trouble): Run {
    engine.wait(e, t);
    return waiting(e, t, null);
  }

  function fromResult(e: JournalEntry, session: WorkflowSession, r: EntryResult): Promise<Run> | Run {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    switch (r.kind) {
      case 'queued':
        opts.desk?.labelQueued(e.id, session.accountId, r.shipment);
        return done(later(report(scanId, code, r.shipment, r.jobs, false, e.id)));
      case 'not_printed':
        return done({ scanId, code, kind: 'printer_down', shipment: shipmentInfo(r.shipment), jobIds: [], reason: r.error });
      case 'waiting':
        return waiting(e, r.trouble, r.closed ? r.shipment : null);
      case 'missing':
        return done({ scanId, code, kind: 'not_found', message: r.error.message, serviceChecked: true });
      case 'refused': {
        const c = r.close;
        if (c.kind === 'closed_elsewhere') return alreadyClosed(scanId, code, session, c.shipment).then(done);
        if (c.kind === 'cancelled') return done({ scanId, code, kind: 'cancelled', deliveryId: c.shipment.deliveryId, recipientName: toSummary(c.shipment).recipientName });
        if (c.status === 404) return done({ scanId, code, kind: 'not_found', message: c.message, serviceChecked: true });
        if (c.status !== 422 && c.status !== null) return done({ scanId, code, kind: 'error', error: { code: 'service_http', message: c.message, details: { status: c.status } } });
        const s = deps.repos.shipments.get(session.accountId, e.deliveryId ?? -1);
        return done({ scanId, code, kind: 'carrier_rejected', deliveryId: e.deliveryId ?? 0, carrier: s?.agent ?? '', message: c.message, messages: c.messages });
      }
    }
  }

  /** A scan still to resolve: the cache first, then the service. */
  async function resolve(e: JournalEntry, session: WorkflowSession): Promise<Run | null> {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    const ended = (o: ScanOutcome, outcome: JournalOutcome): Run => {
      engine.end(e, outcome, null);
      return done(o);
    };
    const found = await deps.lookup(code);
    switch (found.kind) {
      case 'invalid':
        return ended({ scanId, code, kind: 'not_found', message: found.message, serviceChecked: false }, 'not_found');
      case 'ambiguous':
        return ended(
          {
            scanId,
            code,
            kind: 'ambiguous',
            candidates: found.candidates.map((c) => ({
              deliveryId: c.shipment.deliveryId,
              carrier: c.shipment.agent ?? '',
              recipientName: toSummary(c.shipment).recipientName,
              state: c.shipment.state,
            })),
          },
          'ambiguous',
        );
      case 'not_found': {
        if (found.serviceChecked) return ended({ scanId, code, kind: 'not_found', message: `No shipment has the code ${found.code}.`, serviceChecked: true }, 'not_found');
        const t = classifyTrouble(found.serviceError ?? { code: 'service_unreachable', message: 'The service could not be asked.' });
        if (t.kind !== 'answered') return waitFor(e, t);
        return ended({ scanId, code, kind: 'error', error: t.error }, 'error');
      }
      case 'found': {
        const s = found.shipment;
        if (s.state === shipmentStates.cancelled) return ended({ scanId, code, kind: 'cancelled', deliveryId: s.deliveryId, recipientName: toSummary(s).recipientName }, 'cancelled');
        if (isClosedState(s.state)) {
          engine.end(e, 'already_closed', null);
          return done(await alreadyClosed(scanId, code, session, s));
        }
        if (s.state !== shipmentStates.prepared) {
          return ended({ scanId, code, kind: 'error', error: { code: 'unknown_state', message: `Shipment ${s.deliveryId} is in state ${s.state}, which the station does not know.` } }, 'error');
        }
        // Allows no side effect by itself: the close is preceded by its own FULL commit
        // (`close-requested`, or a weight's), which takes this one to the disk with it. Lost in a
        // power cut, the scan is `received` again and looked up again.
        journal.step([e.id], 'resolved', now(), { deliveryId: s.deliveryId, noSideEffect: true });
        return null;
      }
    }
  }

  /** One scan from its last committed step as far as it goes now. */
  async function runScan(e: JournalEntry): Promise<Run> {
    const session = deps.session();
    if (!session) {
      return waitFor(e, { kind: 'login', error: { code: 'login_required', message: 'The station is not logged in. The scan waits and runs in scan order once you log in.' } });
    }
    if (e.accountId && e.accountId !== session.accountId) {
      const error: WorkflowError = { code: 'account_changed', message: 'This scan was made for another company; it was not closed. Scan it again in the right company.' };
      engine.end(e, 'error', error);
      return done({ scanId: e.scanId ?? 0, code: e.code ?? '', kind: 'error', error });
    }
    if (!e.accountId) journal.adopt(e.id, session.accountId);
    if (e.step === 'received') {
      const r = await resolve(e, session);
      if (r) return r;
    }
    const cur = journal.get(e.id)!;
    const notSent = closeNotSent.delete(e.id) && cur.step === 'close-requested';
    if (cur.step === 'resolved' && opts.desk) {
      const b = await opts.desk.beforeClose(cur, session, askWeight(cur));
      if (b.kind === 'wait') return waitFor(cur, b.trouble);
      if (b.kind === 'held') {
        const s = deps.repos.shipments.get(session.accountId, cur.deliveryId ?? -1);
        engine.end(cur, 'held', { code: 'weight_held', message: 'The worker held the parcel at the weight check: nothing was sent.' });
        return done({ scanId: cur.scanId ?? 0, code: cur.code ?? '', kind: 'held', deliveryId: cur.deliveryId ?? 0, recipientName: s ? toSummary(s).recipientName : '' });
      }
      if (b.kind === 'end') {
        engine.end(cur, 'error', b.error);
        return done({ scanId: cur.scanId ?? 0, code: cur.code ?? '', kind: 'error', error: b.error });
      }
    }
    const r = (await engine.run(session, [cur], notSent ? new Set([cur.id]) : undefined)).get(e.id)!;
    return fromResult(cur, session, r);
  }

  /** The weight check of a scan: shown as its outcome (the first one answers its submit), answered by `answerWeight`. */
  function askWeight(e: JournalEntry): AskWeight {
    return (s, off) =>
      new Promise<WeightAnswer>((resolve) => {
        const outcome = { scanId: e.scanId ?? 0, code: e.code ?? '', kind: 'weight_check' as const, shipment: shipmentInfo(s), packages: off };
        question = {
          outcome,
          answer: (a) => {
            question = null;
            resolve(a);
          },
        };
        if (stopped) return question.answer('closing');
        deliver(e.id, outcome);
      });
  }

  /** Scans behind a waiting one hear at once that they wait too (their outcome comes again when they run). */
  function announceWaiting(head: JournalEntry): void {
    for (const [entryId] of waiters) {
      if (entryId === head.id) continue;
      const e = journal.get(entryId);
      if (!e) continue;
      deliver(entryId, {
        scanId: e.scanId ?? 0,
        code: e.code ?? '',
        kind: 'service_unreachable',
        entryId,
        reason: { code: 'waiting_in_line', message: 'Earlier scans wait for the service; this one runs after them, in scan order.' },
      });
    }
  }

  function wakeAt(iso: string | null): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (iso === null || stopped) return;
    timer = setTimeout(() => void drain(), Math.max(0, Date.parse(iso) - now().getTime()));
    timer.unref?.();
  }

  const fail = (e: JournalEntry, err: unknown): Run => {
    deps.log.error('scan failed unexpectedly', { scanId: e.scanId, error: err instanceof Error ? err.message : String(err) });
    engine.end(e, 'error', { code: 'internal', message: err instanceof Error ? err.message : String(err) });
    return done({ scanId: e.scanId ?? 0, code: e.code ?? '', kind: 'error', error: { code: 'internal', message: 'The scan could not be finished. Scan it again; if it repeats, see the log.' } });
  };

  /** Runs the journal's unfinished scans in scan order until none is left or the head must wait. */
  let again = false;
  function drain(): Promise<void> {
    if (stopped) return draining ?? Promise.resolve();
    if (draining) {
      // A scan that came while the lane was finishing its last turn must not be left behind.
      again = true;
      return draining;
    }
    again = false;
    draining = (async () => {
      for (;;) {
        if (stopped) return;
        const head = journal.nextScan();
        if (!head) return;
        if (head.outcome === 'waiting' && (head.nextRetryAt === null || Date.parse(head.nextRetryAt) > now().getTime())) {
          wakeAt(head.nextRetryAt);
          announceWaiting(head);
          return;
        }
        working = head.id;
        pendingChanged(head.id);
        let r: Run;
        try {
          r = await runScan(head);
        } catch (err) {
          r = fail(head, err);
        }
        working = null;
        const entryId = head.id;
        pendingChanged(entryId);
        if (r.waiting) {
          // Said once per wait: a retry that fails again does not flash the screen again.
          if (head.outcome !== 'waiting' || waiters.has(entryId)) deliver(entryId, r.step as ScanOutcome);
          continue;
        }
        const step = r.step;
        if ('later' in step) {
          step.later
            .catch((err: unknown) => fail(head, err).step as ScanOutcome)
            .then((o) => deliver(entryId, o))
            .catch((err: unknown) => reportFault(deps, 'a scan outcome could not be recorded', err));
        }
        else deliver(entryId, step);
      }
    })()
      // A store that cannot be read or written (a failing disk) stops the lane: reported, never an
      // unhandled rejection (the scan itself stays in the journal, unacknowledged or resumable).
      .catch((err: unknown) => reportFault(deps, 'the scan lane stopped on an error of the station', err))
      .finally(() => {
        draining = null;
        const last = working;
        working = null;
        try {
          if (last !== null) pendingChanged(last);
        } catch (err) {
          reportFault(deps, 'the scan lane stopped on an error of the station', err);
        }
        if (again) void drain();
      });
    return draining;
  }

  /**
   * One scan as the scanner typed it: committed (scan log + journal) before it is acknowledged
   * with its number; its outcome comes later (`done`, also sent to onOutcome).
   */
  function submit(raw: string): Promise<Received> {
    const session = deps.session();
    const n = normaliseScan(raw, deps.scannerAffixes?.()); // logged and named without the desk scanner's affixes
    const code = n.ok ? n.code : raw.trim();
    return new Promise<Received>((resolve, reject) => {
      if (!arriving.length) queueMicrotask(receiveArrived);
      arriving.push({ scan: { accountId: session?.accountId ?? '', code, rawCode: code === raw ? null : raw, at: now() }, resolve, reject });
    });
  }

  /**
   * Inside the commit that receives a lone scan while the line is idle: the prepared shipment it
   * names in the cache, whose close the line sends next (so the scan's commit is also the one the
   * close waits for); null when anything else may come first (a scan in line before it, weighing,
   * a lookup at the service, an outcome other than a close).
   */
  function closeAtOnce(s: ReceivedScan): number | null {
    const session = deps.session();
    if (!session || s.accountId !== session.accountId || opts.desk?.weighs() || journal.nextScan() !== null) return null;
    const found = deps.lookupCached(s.code);
    return found?.kind === 'found' && found.shipment.state === shipmentStates.prepared ? found.shipment.deliveryId : null;
  }

  /**
   * Scans that arrive in the same turn of the event loop (one read of the page's socket: a fast
   * scanner, a page sending what it held) share one commit, so a burst of 1,000 is 40 disk syncs,
   * not 1,000 in one block of the loop; each is acknowledged only after its commit. A slice of
   * RECEIVE_SLICE at a time, the event loop running between slices.
   */
  function receiveArrived(): void {
    const group = arriving.splice(0, RECEIVE_SLICE);
    if (!group.length) return; // received already (by stop())
    if (arriving.length) setImmediate(receiveArrived);
    let got: ReturnType<typeof journal.receiveScans>;
    try {
      got = journal.receiveScans(group.map((g) => g.scan), group.length === 1 && !stopped && !draining ? closeAtOnce : undefined);
    } catch (err) {
      for (const g of group) g.reject(err);
      return;
    }
    group.forEach((g, i) => {
      const { scanId, entry } = got[i]!;
      if (entry.step === 'close-requested') closeNotSent.add(entry.id);
      const done = new Promise<ScanOutcome>((resolve) => waiters.set(entry.id, resolve));
      g.resolve({ scanId, done });
    });
    // Runs outside any caller's stack (a microtask): what fails here is logged, never thrown away
    // with the process. The scans are committed; the line runs them.
    try {
      for (const { entry } of got) pendingChanged(entry.id);
    } catch (err) {
      deps.log.error('the line of scans could not tell the pages', { error: err instanceof Error ? err.message : String(err) });
    }
    void drain();
  }

  return {
    submit,

    /** submit(), waiting for the outcome. */
    scan: (raw: string): Promise<ScanOutcome> => submit(raw).then((r) => r.done),

    /** The worker confirmed the reprint of an already_closed shipment (Enter). Prints the stored labels, or fetches them. */
    reprint(req: { deliveryId: number; scanId?: number }): Promise<ScanOutcome> {
      const session = deps.session();
      const asked = req.scanId !== undefined ? awaiting.get(req.scanId) : undefined;
      const code = asked?.code ?? String(req.deliveryId);
      const scanId = asked && req.scanId !== undefined ? req.scanId : deps.repos.scanLog.record({ accountId: session?.accountId ?? '', code, scannedAt: now(), deliveryId: req.deliveryId });
      if (req.scanId !== undefined) awaiting.delete(req.scanId);
      const run = async (): Promise<ScanOutcome> => {
        const s = session ? deps.repos.shipments.get(session.accountId, req.deliveryId) : null;
        if (!session) return { scanId, code, kind: 'login_required', message: 'The station is not logged in to the service. Log in, then reprint.' };
        if (!s) return { scanId, code, kind: 'not_found', message: `Shipment ${req.deliveryId} is not in this station's cache.`, serviceChecked: false };
        const busy = labelsInPrinter(deps, session.accountId, s.deliveryId);
        if (busy) return { scanId, code, kind: 'error', error: busy };
        const [entry] = journal.begin([{ accountId: session.accountId, source: 'reprint', scanId, code, deliveryId: s.deliveryId, want: 'print' }], now());
        const r = (await engine.run(session, [entry!])).get(entry!.id)!;
        if (r.kind === 'queued') return report(scanId, code, r.shipment, r.jobs, true);
        if (r.kind === 'waiting') {
          engine.end(entry!, 'error', r.trouble.error); // a reprint is the worker's act of now, not a wait
          return r.trouble.kind === 'login' ? { scanId, code, kind: 'login_required', message: r.trouble.error.message } : { scanId, code, kind: 'error', error: r.trouble.error };
        }
        if (r.kind === 'not_printed' || r.kind === 'missing') return { scanId, code, kind: 'error', error: r.error };
        return { scanId, code, kind: 'error', error: { code: 'reprint_refused', message: `Shipment ${req.deliveryId} could not be reprinted.` } };
      };
      return run()
        .catch((err: unknown): ScanOutcome => ({ scanId, code, kind: 'error', error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } }))
        .then(finish);
    },

    /**
     * The worker's answer to the weight check: accept (Enter) sends the weight, closes and prints;
     * hold (Esc) ends the scan as `held`. Null when no such question is open. What follows comes as
     * `scan.outcome` events.
     */
    answerWeight(scanId: number, accept: boolean): ScanOutcome | null {
      if (!question || question.outcome.scanId !== scanId) return null;
      const asked = question.outcome;
      question.answer(accept ? 'accept' : 'hold');
      return asked;
    },

    /** The weight check open now, for a page that (re)loads while it is asked. */
    question: (): ScanOutcome | null => question?.outcome ?? null,

    /** The worker declined the reprint (Esc). */
    skip(scanId: number): ScanOutcome | null {
      const asked = awaiting.get(scanId);
      if (!asked) return null;
      awaiting.delete(scanId);
      return finish({ scanId, code: asked.code, kind: 'skipped', deliveryId: asked.deliveryId });
    },

    pending,

    /** The whole line with the version of the last change sent: what a page loads on (re)connect. */
    pendingList(): PendingScans {
      flushPending();
      const scans = pending();
      // Scans in line since before this run, untouched since: a page knows them from this list.
      for (const p of scans) if (!told.has(p.scanId)) told.set(p.scanId, JSON.stringify(p));
      return { version, scans };
    },

    /** Starts the scan lane: unfinished scans of the last run resume first, in scan order. */
    start(): void {
      stopped = false;
      lineClosed = false;
      void drain();
    },

    /** The service answers again, or a login happened: waiting scans run now instead of at their retry time. */
    wake(): void {
      journal.wakeWaiting('scan', now());
      void drain();
    },

    /** Runs due scans (the station's tick). */
    tick(): void {
      void drain();
    },

    /** Stops taking the next scan and waits (bounded) for the one in flight. */
    async stop(boundMs = 10_000): Promise<void> {
      stopped = true;
      // An open weight check lets the lane go: the entry stays `resolved`, asked again at the next start.
      question?.answer('closing');
      // Scans that arrived and wait for their commit are received now, while the database is
      // open: acknowledged, they run at the next start.
      while (arriving.length) receiveArrived();
      wakeAt(null);
      let t: NodeJS.Timeout | undefined;
      await Promise.race([draining ?? Promise.resolve(), new Promise((r) => (t = setTimeout(r, boundMs)))]);
      clearTimeout(t);
      // The last changes go out now, while the database is open; later ones (a label finishing
      // while the printers close) are not read any more.
      if (flushing) flushPending();
      lineClosed = true;
    },

    /** Waits until no scan can run now (tests, benchmarks). */
    idle: async (): Promise<void> => {
      while (draining) await draining;
    },
  };
}

export type ScanToClose = ReturnType<typeof createScanToClose>;
