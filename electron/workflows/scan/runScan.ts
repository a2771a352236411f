/**
 * One scan from its last committed step as far as it goes now: resolved (the cache first, then
 * the service), weighed when the desk has a scale, then closed and printed by the one state
 * machine (closeAndPrint.ts); what comes back is the outcome the worker sees, one that comes when
 * the printer has answered, or a wait (the scan holds the lane).
 */
import type { Shipment } from '../../../shared/contract/shipments';
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
export type Step = ScanOutcome | { later: Promise<ScanOutcome> };
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

export function createScanRunner(deps: WorkflowDeps, o: ScanRunnerParts) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();

  /** What the worker hears of a scan that waits (the wait is recorded already). */
  function waiting(e: JournalEntry, t: Trouble, closed: Shipment | null): Run {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    // Closed already, labels still to come: the worker sees it closed; the labels follow by themselves.
    if (closed)
      return {
        step: {
          scanId,
          code,
          kind: 'queued',
          shipment: shipmentInfo(closed),
          jobIds: [],
          reprint: false,
          reason: t.error,
        },
        waiting: true,
      };
    return { step: { scanId, code, kind: 'service_unreachable', entryId: e.id, reason: t.error }, waiting: true };
  }

  function waitFor(e: JournalEntry, t: Trouble): Run {
    o.engine.wait(e, t);
    return waiting(e, t, null);
  }

  function fromResult(e: JournalEntry, session: WorkflowSession, r: EntryResult): Promise<Run> | Run {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    switch (r.kind) {
      case 'queued':
        o.desk?.labelQueued(e.id, session.accountId, r.shipment);
        return done(later(o.report(scanId, code, r.shipment, r.jobs, false, e.id)));
      case 'not_printed':
        return done({
          scanId,
          code,
          kind: 'printer_down',
          shipment: shipmentInfo(r.shipment),
          jobIds: [],
          reason: r.error,
        });
      case 'waiting':
        return waiting(e, r.trouble, r.closed ? r.shipment : null);
      case 'missing':
        return done({ scanId, code, kind: 'not_found', message: r.error.message, serviceChecked: true });
      case 'refused': {
        const c = r.close;
        if (c.kind === 'closed_elsewhere') return o.prompt.ask(scanId, code, session, c.shipment).then(done);
        if (c.kind === 'cancelled')
          return done({
            scanId,
            code,
            kind: 'cancelled',
            deliveryId: c.shipment.deliveryId,
            recipientName: toSummary(c.shipment).recipientName,
          });
        if (c.status === 404)
          return done({ scanId, code, kind: 'not_found', message: c.message, serviceChecked: true });
        if (c.status !== 422 && c.status !== null)
          return done({
            scanId,
            code,
            kind: 'error',
            error: { code: 'service_http', message: c.message, details: { status: c.status } },
          });
        const s = deps.repos.shipments.get(session.accountId, e.deliveryId ?? -1);
        return done({
          scanId,
          code,
          kind: 'carrier_rejected',
          deliveryId: e.deliveryId ?? 0,
          carrier: s?.agent ?? '',
          message: c.message,
          messages: c.messages,
        });
      }
    }
  }

  /** A scan still to resolve: the cache first, then the service. */
  async function resolve(e: JournalEntry, session: WorkflowSession): Promise<Run | null> {
    const scanId = e.scanId ?? 0;
    const code = e.code ?? '';
    const ended = (out: ScanOutcome, outcome: JournalOutcome): Run => {
      o.engine.end(e, outcome, null);
      return done(out);
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
        if (found.serviceChecked)
          return ended(
            {
              scanId,
              code,
              kind: 'not_found',
              message: `No shipment has the code ${found.code}.`,
              serviceChecked: true,
            },
            'not_found',
          );
        const t = classifyTrouble(
          found.serviceError ?? { code: 'service_unreachable', message: 'The service could not be asked.' },
        );
        if (t.kind !== 'answered') return waitFor(e, t);
        return ended({ scanId, code, kind: 'error', error: t.error }, 'error');
      }
      case 'found': {
        const s = found.shipment;
        if (s.state === shipmentStates.cancelled)
          return ended(
            { scanId, code, kind: 'cancelled', deliveryId: s.deliveryId, recipientName: toSummary(s).recipientName },
            'cancelled',
          );
        if (isClosedState(s.state)) {
          o.engine.end(e, 'already_closed', null, s.deliveryId);
          return done(await o.prompt.ask(scanId, code, session, s));
        }
        if (s.state !== shipmentStates.prepared) {
          return ended(
            {
              scanId,
              code,
              kind: 'error',
              error: {
                code: 'unknown_state',
                message: `Shipment ${s.deliveryId} is in state ${s.state}, which the station does not know.`,
              },
            },
            'error',
          );
        }
        // On the problem shelf: nothing is sent; the worker is asked (Enter closes it: shelf.close).
        const held = deps.repos.shelf.ofParcel(session.accountId, s.deliveryId, code);
        if (held) {
          if (held.deliveryId === null) deps.repos.shelf.adopt(held.holdId, s.deliveryId);
          o.engine.end(
            e,
            'held',
            { code: 'on_shelf', message: 'The parcel is on the problem shelf: nothing was sent.' },
            s.deliveryId,
          );
          return done({
            scanId,
            code,
            kind: 'on_shelf',
            shipment: shipmentInfo(s),
            hold: heldParcelOf(deps, { ...held, deliveryId: s.deliveryId }),
          });
        }
        // Allows no side effect by itself: the close is preceded by its own FULL commit
        // (`close_requested`, or a weight's), which takes this one to the disk with it. Lost in a
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
      return waitFor(e, {
        kind: 'login',
        error: {
          code: 'login_required',
          message: 'The station is not logged in. The scan waits and runs in scan order once you log in.',
        },
      });
    }
    if (e.accountId && e.accountId !== session.accountId) {
      const error: WorkflowError = {
        code: 'account_changed',
        message: 'This scan was made for another company; it was not closed. Scan it again in the right company.',
      };
      o.engine.end(e, 'error', error);
      return done({ scanId: e.scanId ?? 0, code: e.code ?? '', kind: 'error', error });
    }
    if (!e.accountId) journal.adopt(e.id, session.accountId);
    if (e.step === 'received') {
      const r = await resolve(e, session);
      if (r) return r;
    }
    const cur = journal.get(e.id)!;
    const notSent = o.closeNotSent.delete(e.id) && cur.step === 'close_requested';
    if (cur.step === 'resolved' && o.desk) {
      const b = await o.desk.beforeClose(cur, session, o.askWeight(cur));
      if (b.kind === 'wait') return waitFor(cur, b.trouble);
      if (b.kind === 'held') {
        const s = deps.repos.shipments.get(session.accountId, cur.deliveryId ?? -1);
        o.engine.end(cur, 'held', {
          code: 'weight_held',
          message: 'The worker held the parcel at the weight check: nothing was sent.',
        });
        return done({
          scanId: cur.scanId ?? 0,
          code: cur.code ?? '',
          kind: 'held',
          deliveryId: cur.deliveryId ?? 0,
          recipientName: s ? toSummary(s).recipientName : '',
        });
      }
      if (b.kind === 'end') {
        o.engine.end(cur, 'error', b.error);
        return done({ scanId: cur.scanId ?? 0, code: cur.code ?? '', kind: 'error', error: b.error });
      }
    }
    const r = (await o.engine.run(session, [cur], notSent ? new Set([cur.id]) : undefined)).get(e.id)!;
    return fromResult(cur, session, r);
  }

  /** A scan the station could not finish (a bug, not the service): ended as an error, the worker told to scan again. */
  const fail = (e: JournalEntry, err: unknown): Run => {
    deps.log.error('scan failed unexpectedly', {
      scanId: e.scanId,
      error: err instanceof Error ? err.message : String(err),
    });
    o.engine.end(e, 'error', { code: 'internal', message: err instanceof Error ? err.message : String(err) });
    return done({
      scanId: e.scanId ?? 0,
      code: e.code ?? '',
      kind: 'error',
      error: {
        code: 'internal',
        message: 'The scan could not be finished. Scan it again; if it repeats, see the log.',
      },
    });
  };

  return { run: runScan, fail };
}
