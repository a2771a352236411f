/**
 * One scan from its last committed step as far as it goes now: resolved (the cache first, then
 * the service), weighed when the desk has a scale, then closed and printed by the one state
 * machine (closeAndPrint.ts); what comes back is the outcome the worker sees, one that comes when
 * the printer has answered, or a wait (the scan holds the lane).
 *
 * The run is four named steps, each a function of its own: the session (logged in, the scan's
 * company), the lookup (resolve), the desk's weight (weigh), and the close and print
 * (closeAndPrint), whose result is put into the worker's outcome (fromResult, fromRefusal).
 */
import type { LookupResult, Shipment } from '../../../shared/contract/shipments';
import { isClosedState, shipmentStates } from '../../../shared/contract/shipments';
import type { AskWeight } from '../../scale/weighBeforeClose';
import type { JournalEntry } from '../../store/journalRepo';
import { toSummary } from '../../store/shipmentsRepo';
import type { CloseAndPrint, EntryResult } from '../closeAndPrint';
import type { ScanOutcome, WorkflowError } from '../schemas';
import type { JournalOutcome } from '../../../shared/errors/codes';
import { classifyTrouble, type Trouble } from '../serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from '../workflowDeps';
import type { DeskSteps } from './deskSteps';
import type { ReportLabels } from './labelOutcome';
import { shipmentInfo } from './outcomes';
import { heldParcelOf } from '../problemShelf';

/** What a line step hands on: an outcome now, or one that comes when the printer has answered (kept from being awaited, so the line moves on once the labels are queued). */
type Step = ScanOutcome | { later: Promise<ScanOutcome> };
const later = (p: Promise<ScanOutcome>): Step => ({ later: p });

/** A step, and whether the scan waits (for the service or a login). */
export type Run = { step: Step; waiting: boolean };
const done = (step: Step): Run => ({ step, waiting: false });

export interface ScanRunnerParts {
  engine: CloseAndPrint;
  report: ReportLabels;
  prompt: { ask(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<ScanOutcome> };
  askWeight(e: JournalEntry): AskWeight;
  /**
   * Entries committed `close_requested` in the commit that received their scan, whose close has
   * not been sent yet: the line sends it without a second commit (nothing to reconcile yet).
   */
  closeNotSent: Set<number>;
  desk?: DeskSteps;
}

/** What every step of a run works with. */
interface Ctx {
  deps: WorkflowDeps;
  o: ScanRunnerParts;
}

/** The scan an outcome names. */
const named = (e: JournalEntry) => ({ scanId: e.scanId ?? 0, code: e.code ?? '' });

type Refusal = Extract<EntryResult, { kind: 'refused' }>['close'];

/** What the worker hears of a scan that waits (the wait is recorded already). */
function waiting(e: JournalEntry, t: Trouble, closed: Shipment | null): Run {
  // Closed already, labels still to come: the worker sees it closed; the labels follow by themselves.
  if (closed) {
    const shipment = shipmentInfo(closed);
    return {
      step: { ...named(e), kind: 'queued', shipment, jobIds: [], reprint: false, reason: t.error },
      waiting: true,
    };
  }
  return { step: { ...named(e), kind: 'service_unreachable', entryId: e.id, reason: t.error }, waiting: true };
}

/** The entry waits at its step for what the trouble names (a login, the service). */
function waitFor(ctx: Ctx, e: JournalEntry, t: Trouble): Run {
  ctx.o.engine.wait(e, t);
  return waiting(e, t, null);
}

/** The entry ends here with this outcome; the worker is told `out`. */
function ended(
  ctx: Ctx,
  e: JournalEntry,
  out: ScanOutcome,
  outcome: JournalOutcome,
  error: WorkflowError | null = null,
): Run {
  ctx.o.engine.end(e, outcome, error);
  return done(out);
}

/** Step 1, the session: a scan runs only logged in, for the company it was made for (adopted when it had none). */
function checkSession(ctx: Ctx, e: JournalEntry): { session: WorkflowSession } | { run: Run } {
  const session = ctx.deps.session();
  if (!session) {
    const message = 'The station is not logged in. The scan waits and runs in scan order once you log in.';
    return { run: waitFor(ctx, e, { kind: 'login', error: { code: 'login_required', message } }) };
  }
  if (e.accountId && e.accountId !== session.accountId) {
    const error: WorkflowError = {
      code: 'account_changed',
      message: 'This scan was made for another company; it was not closed. Scan it again in the right company.',
    };
    return { run: ended(ctx, e, { ...named(e), kind: 'error', error }, 'error', error) };
  }
  if (!e.accountId) ctx.deps.repos.journal.adopt(e.id, session.accountId);
  return { session };
}

/** Step 2, the lookup: a scan still to resolve, the cache first, then the service. Null: resolved, go on. */
async function resolve(ctx: Ctx, e: JournalEntry, session: WorkflowSession): Promise<Run | null> {
  const found = await ctx.deps.lookup(e.code ?? '');
  switch (found.kind) {
    case 'invalid':
      return ended(
        ctx,
        e,
        { ...named(e), kind: 'not_found', message: found.message, serviceChecked: false },
        'not_found',
      );
    case 'ambiguous': {
      const candidates = found.candidates.map((c) => ({
        deliveryId: c.shipment.deliveryId,
        carrier: c.shipment.agent ?? '',
        recipientName: toSummary(c.shipment).recipientName,
        state: c.shipment.state,
      }));
      return ended(ctx, e, { ...named(e), kind: 'ambiguous', candidates }, 'ambiguous');
    }
    case 'not_found':
      return notFound(ctx, e, found);
    case 'found':
      return fromFound(ctx, e, session, found.shipment);
  }
}

/** No shipment has the code, or the service could not be asked whether one has (then the scan waits). */
function notFound(ctx: Ctx, e: JournalEntry, found: Extract<LookupResult, { kind: 'not_found' }>): Run {
  if (found.serviceChecked) {
    const message = `No shipment has the code ${found.code}.`;
    return ended(ctx, e, { ...named(e), kind: 'not_found', message, serviceChecked: true }, 'not_found');
  }
  const t = classifyTrouble(
    found.serviceError ?? { code: 'service_unreachable', message: 'The service could not be asked.' },
  );
  if (t.kind !== 'answered') return waitFor(ctx, e, t);
  return ended(ctx, e, { ...named(e), kind: 'error', error: t.error }, 'error');
}

/** The shipment the code names: cancelled, closed (the reprint question), a state unknown, or prepared (resolved, null). */
async function fromFound(ctx: Ctx, e: JournalEntry, session: WorkflowSession, s: Shipment): Promise<Run | null> {
  if (s.state === shipmentStates.cancelled) {
    const recipientName = toSummary(s).recipientName;
    return ended(ctx, e, { ...named(e), kind: 'cancelled', deliveryId: s.deliveryId, recipientName }, 'cancelled');
  }
  if (isClosedState(s.state)) {
    ctx.o.engine.end(e, 'already_closed', null, s.deliveryId);
    return done(await ctx.o.prompt.ask(e.scanId ?? 0, e.code ?? '', session, s));
  }
  if (s.state !== shipmentStates.prepared) {
    const error: WorkflowError = {
      code: 'unknown_state',
      message: `Shipment ${s.deliveryId} is in state ${s.state}, which the station does not know.`,
    };
    return ended(ctx, e, { ...named(e), kind: 'error', error }, 'error');
  }
  // On the problem shelf: nothing is sent; the worker is asked (Enter closes it: shelf.close).
  const held = ctx.deps.repos.shelf.ofParcel(session.accountId, s.deliveryId, e.code ?? '');
  if (held) {
    if (held.deliveryId === null) ctx.deps.repos.shelf.adopt(held.holdId, s.deliveryId);
    ctx.o.engine.end(
      e,
      'held',
      { code: 'on_shelf', message: 'The parcel is on the problem shelf: nothing was sent.' },
      s.deliveryId,
    );
    return done({
      ...named(e),
      kind: 'on_shelf',
      shipment: shipmentInfo(s),
      hold: heldParcelOf(ctx.deps, { ...held, deliveryId: s.deliveryId }),
    });
  }
  // Allows no side effect by itself: the close is preceded by its own commit (`close_requested`,
  // or a weight's), whose sync (store/walSync.ts) takes this one to the disk with it. Lost in a
  // power cut, the scan is `received` again and looked up again.
  ctx.deps.repos.journal.step([e.id], 'resolved', ctx.deps.clock.now(), {
    deliveryId: s.deliveryId,
    noSideEffect: true,
  });
  return null;
}

/** Step 3, the desk's weight (a scale set up): waits, held by the worker, ended, or null to go on to the close. */
async function weigh(ctx: Ctx, cur: JournalEntry, session: WorkflowSession): Promise<Run | null> {
  const desk = ctx.o.desk;
  if (cur.step !== 'resolved' || !desk) return null;
  const b = await desk.beforeClose(cur, session, ctx.o.askWeight(cur));
  if (b.kind === 'wait') return waitFor(ctx, cur, b.trouble);
  if (b.kind === 'held') {
    const s = ctx.deps.repos.shipments.get(session.accountId, cur.deliveryId ?? -1);
    const error: WorkflowError = {
      code: 'weight_held',
      message: 'The worker held the parcel at the weight check: nothing was sent.',
    };
    const recipientName = s ? toSummary(s).recipientName : '';
    return ended(
      ctx,
      cur,
      { ...named(cur), kind: 'held', deliveryId: cur.deliveryId ?? 0, recipientName },
      'held',
      error,
    );
  }
  if (b.kind === 'end') return ended(ctx, cur, { ...named(cur), kind: 'error', error: b.error }, 'error', b.error);
  return null;
}

/** Step 4, the close and print: the state machine runs the entry, and its result is the worker's outcome. */
async function closeAndPrint(ctx: Ctx, cur: JournalEntry, session: WorkflowSession, notSent: boolean): Promise<Run> {
  const r = (await ctx.o.engine.run(session, [cur], notSent ? new Set([cur.id]) : undefined)).get(cur.id)!;
  return fromResult(ctx, cur, session, r);
}

/** What the state machine's result is to the worker. */
function fromResult(ctx: Ctx, e: JournalEntry, session: WorkflowSession, r: EntryResult): Promise<Run> | Run {
  switch (r.kind) {
    case 'queued':
      ctx.o.desk?.labelQueued(e.id, session.accountId, r.shipment);
      return done(later(ctx.o.report(e.scanId ?? 0, e.code ?? '', r.shipment, r.jobs, false, e.id)));
    case 'not_printed':
      return done({
        ...named(e),
        kind: 'printer_down',
        shipment: shipmentInfo(r.shipment),
        jobIds: [],
        reason: r.error,
      });
    case 'waiting':
      return waiting(e, r.trouble, r.closed ? r.shipment : null);
    case 'missing':
      return done({ ...named(e), kind: 'not_found', message: r.error.message, serviceChecked: true });
    case 'refused':
      return fromRefusal(ctx, e, session, r.close);
  }
}

/** A close the service refused: closed elsewhere (the reprint question), cancelled, not there, or the carrier's no. */
function fromRefusal(ctx: Ctx, e: JournalEntry, session: WorkflowSession, c: Refusal): Promise<Run> | Run {
  if (c.kind === 'closed_elsewhere')
    return ctx.o.prompt.ask(e.scanId ?? 0, e.code ?? '', session, c.shipment).then(done);
  if (c.kind === 'cancelled') {
    const recipientName = toSummary(c.shipment).recipientName;
    return done({ ...named(e), kind: 'cancelled', deliveryId: c.shipment.deliveryId, recipientName });
  }
  if (c.status === 404) return done({ ...named(e), kind: 'not_found', message: c.message, serviceChecked: true });
  if (c.status !== 422 && c.status !== null) {
    const error: WorkflowError = { code: 'service_http', message: c.message, details: { status: c.status } };
    return done({ ...named(e), kind: 'error', error });
  }
  const s = ctx.deps.repos.shipments.get(session.accountId, e.deliveryId ?? -1);
  return done({
    ...named(e),
    kind: 'carrier_rejected',
    deliveryId: e.deliveryId ?? 0,
    carrier: s?.agent ?? '',
    message: c.message,
    messages: c.messages,
  });
}

/** One scan from its last committed step as far as it goes now: the four steps in turn. */
async function runScan(ctx: Ctx, e: JournalEntry): Promise<Run> {
  const checked = checkSession(ctx, e);
  if ('run' in checked) return checked.run;
  const { session } = checked;
  if (e.step === 'received') {
    const r = await resolve(ctx, e, session);
    if (r) return r;
  }
  const cur = ctx.deps.repos.journal.get(e.id)!;
  const notSent = ctx.o.closeNotSent.delete(e.id) && cur.step === 'close_requested';
  return (await weigh(ctx, cur, session)) ?? closeAndPrint(ctx, cur, session, notSent);
}

/** A scan the station could not finish (a bug, not the service): ended as an error, the worker told to scan again. */
function fail(ctx: Ctx, e: JournalEntry, err: unknown): Run {
  const message = err instanceof Error ? err.message : String(err);
  ctx.deps.log.error('scan failed unexpectedly', { scanId: e.scanId, error: message });
  const shown: WorkflowError = {
    code: 'internal',
    message: 'The scan could not be finished. Scan it again; if it repeats, see the log.',
  };
  return ended(ctx, e, { ...named(e), kind: 'error', error: shown }, 'error', { code: 'internal', message });
}

export function createScanRunner(deps: WorkflowDeps, o: ScanRunnerParts) {
  const ctx: Ctx = { deps, o };
  return { run: (e: JournalEntry) => runScan(ctx, e), fail: (e: JournalEntry, err: unknown) => fail(ctx, e, err) };
}
