/**
 * What every step of the close-and-print machine (../closeAndPrint.ts) does to its journal
 * entries besides its own side effect: an entry waits at its step, ends with its outcome, moves
 * in slices; and the shipments the entries name, from the cache or read at the service.
 */
import type { Shipment } from '../../../shared/contract/shipments';
import type { JournalOutcome } from '../../../shared/errors/codes';
import { nextTurn, READS_PER_TURN } from '../../base/slices';
import { backoffDelay } from '../../queue/backoff';
import type { JournalEntry, JournalStep } from '../../store/journalRepo';
import type { StoredJob } from '../../store/printJobsRepo';
import type { ShipmentCloseResult } from '../closeShipments';
import type { LabelsAsked } from '../labelJobs';
import type { WorkflowError } from '../schemas';
import { classifyTrouble, type Trouble } from '../serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from '../workflowDeps';

export type EntryResult =
  /** Closed (here or before) and its labels are print jobs now. */
  | { kind: 'queued'; shipment: Shipment; jobs: StoredJob[] }
  /** Closed, but its labels cannot be had (the service refused them, no printer route): ended. */
  | { kind: 'not_printed'; shipment: Shipment; error: WorkflowError }
  /** Waits at its step for the service or a login; runs again by itself. `closed`: the shipment is closed already. */
  | { kind: 'waiting'; shipment: Shipment | null; closed: boolean; trouble: Trouble }
  /** The close was refused (closed elsewhere, cancelled, the carrier said no): ended. */
  | { kind: 'refused'; close: Extract<ShipmentCloseResult, { kind: 'closed_elsewhere' | 'cancelled' | 'rejected' }> }
  /** The shipment is not known to the station or the service: ended. */
  | { kind: 'missing'; error: WorkflowError };

/**
 * What a run's steps work with: the station's parts, the results of the entries so far, and the
 * labels asked for as their close was answered (both by entry id).
 */
export interface StepCtx {
  deps: WorkflowDeps;
  session: WorkflowSession;
  results: Map<number, EntryResult>;
  asked: Map<number, LabelsAsked>;
}

/** Waits: 2 s, 4 s ... up to a minute, and at once when the service or a login comes back. */
const RETRY = { baseMs: 2000, maxMs: 60_000 };

/** Entries per commit of a batch's step (`close_requested`, `closed`): 500 in one commit held the loop for ~8–35 ms. */
const STEP_SLICE = 50;

/** The entry waits at its step: a retry time (none for a login), and the service checked at once when it is out of reach. */
export function wait(deps: WorkflowDeps, e: JournalEntry, t: Trouble): void {
  const at = deps.clock.now();
  const retry = t.kind === 'login' ? null : new Date(at.getTime() + backoffDelay(e.attempts + 1, RETRY));
  deps.repos.journal.wait([e.id], at, { reasonCode: t.error.code, reason: t.error.message, nextRetryAt: retry });
  if (t.kind === 'unreachable') deps.serviceTrouble?.();
}

/** `deliveryId`: the parcel an entry ended on without resolving it (a rescan), so its trail shows the scan. */
export function end(
  deps: WorkflowDeps,
  e: JournalEntry,
  outcome: JournalOutcome,
  error: WorkflowError | null,
  deliveryId?: number,
): void {
  deps.repos.journal.step([e.id], 'ended', deps.clock.now(), {
    outcome,
    reasonCode: error?.code ?? null,
    reason: error?.message ?? null,
    ...(deliveryId !== undefined ? { deliveryId } : {}),
  });
}

/** The entry waits, and the run answers so. */
export function waitWith(ctx: StepCtx, e: JournalEntry, t: Trouble, shipment: Shipment | null, closed: boolean): void {
  wait(ctx.deps, e, t);
  ctx.results.set(e.id, { kind: 'waiting', shipment, closed, trouble: t });
}

/** The entry ends as not found, and the run answers so. */
export function endMissing(ctx: StepCtx, e: JournalEntry, error: WorkflowError): void {
  end(ctx.deps, e, 'not_found', error);
  ctx.results.set(e.id, { kind: 'missing', error });
}

/**
 * A step for many entries in slices of STEP_SLICE, a turn apart. Each slice is a lazy commit
 * but, when `durable`, the last: what acts on it waits for the -wal sync (store/walSync.ts), which
 * takes the earlier ones to the disk with it (WAL keeps commits in order: store/lazyCommit.ts).
 */
export async function stepInSlices(deps: WorkflowDeps, ids: number[], step: JournalStep, durable: boolean) {
  for (let i = 0; i < ids.length; i += STEP_SLICE) {
    if (i > 0) await nextTurn();
    const last = i + STEP_SLICE >= ids.length;
    deps.repos.journal.step(ids.slice(i, i + STEP_SLICE), step, deps.clock.now(), { noSideEffect: !(durable && last) });
  }
}

/**
 * Entries whose shipment the service's search found closed, not their own close's answer: maybe
 * another desk's close, which the label step holds for the worker's word (see ./queueStep.ts).
 */
export function closedBySearch(deps: WorkflowDeps, entries: JournalEntry[]): void {
  deps.repos.journal.step(
    entries.map((e) => e.id),
    'closed',
    deps.clock.now(),
    { reasonCode: 'close_confirmed_by_search', noSideEffect: true },
  );
}

/**
 * Shipments this station closed leave the problem shelf, whichever path closed them (a scan after
 * the worker's Enter, the Shipments screen, a batch). After the `closed` step: a restart that finds
 * the entry `close_requested` confirms the close and comes here again.
 */
export function leftShelf(deps: WorkflowDeps, accountId: string, deliveryIds: number[]): void {
  if (deliveryIds.length && deps.repos.shelf.closed(accountId, deliveryIds, deps.clock.now()) > 0)
    deps.shelfChanged?.();
}

/** The cached shipments of the entries; those the cache lacks are read from the service. */
export async function shipmentsOf(ctx: StepCtx, entries: JournalEntry[]): Promise<Map<number, Shipment> | Trouble> {
  const { deps, session } = ctx;
  const ids = [...new Set(entries.map((e) => e.deliveryId!))];
  const out = new Map<number, Shipment>();
  const missing: number[] = [];
  // Read once each, in slices with the event loop running between them (a batch of 500 is no one long block).
  for (let i = 0; i < ids.length; i++) {
    if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
    const s = deps.repos.shipments.get(session.accountId, ids[i]!);
    if (s) out.set(ids[i]!, s);
    else missing.push(ids[i]!);
  }
  if (missing.length) {
    try {
      deps.recordDeliveries(session.accountId, await session.client.getDeliveriesByIds(missing));
    } catch (err) {
      return classifyTrouble(err);
    }
    for (const id of missing) {
      const s = deps.repos.shipments.get(session.accountId, id);
      if (s) out.set(id, s);
    }
  }
  return out;
}
