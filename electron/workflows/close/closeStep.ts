/**
 * The close-and-print machine's step from `resolved`: `close_requested` is committed (durable)
 * before the close leaves (../closeShipments.ts: one request per carrier + collection place), then
 * the labels of what it closed are asked for (./queueStep.ts askLabelsNow) and `closed` is
 * committed while they come; a close that may pass waits at `close_requested`, a refused one ends.
 */
import type { Shipment } from '../../../shared/contract/shipments';
import type { JournalEntry } from '../../store/journalRepo';
import { closeShipments, type ShipmentCloseResult } from '../closeShipments';
import { classifyTrouble } from '../serviceTrouble';
import {
  closedBySearch,
  end,
  endMissing,
  leftShelf,
  shipmentsOf,
  stepInSlices,
  waitWith,
  type StepCtx,
} from './entryMoves';
import { askLabelsNow } from './queueStep';

/**
 * `notSent`: entries committed `close_requested` by the commit that received their scan, whose
 * step is on the disk already (no second commit).
 */
export async function closeStep(ctx: StepCtx, entries: JournalEntry[], notSent: ReadonlySet<number>): Promise<void> {
  if (!entries.length) return;
  const { deps, session } = ctx;
  const found = await shipmentsOf(ctx, entries);
  if (!(found instanceof Map)) {
    for (const e of entries) waitWith(ctx, e, found, null, false);
    return;
  }
  const todo: JournalEntry[] = [];
  for (const e of entries) {
    if (found.has(e.deliveryId!)) todo.push(e);
    else
      endMissing(ctx, e, {
        code: 'not_in_cache',
        message: `Shipment ${e.deliveryId} is not known on this station or at the service.`,
      });
  }
  if (!todo.length) return;
  // Committed before the request leaves: a crash from here on is reconciled, not closed again
  // (entries received as `close_requested` have theirs on the disk already).
  // In slices (500 entries in one commit held the loop ~35 ms), durable before the request
  // leaves. A crash between slices leaves the rest `resolved`, which a restart closes as any
  // resolved entry.
  await stepInSlices(
    deps,
    todo.filter((e) => !notSent.has(e.id)).map((e) => e.id),
    'close_requested',
    true,
  );
  const closed = await closeShipments(
    deps,
    session,
    todo.map((e) => found.get(e.deliveryId!)!),
    // Their labels asked for as soon as the close is answered, its bookkeeping written meanwhile.
    (ids) =>
      askLabelsNow(
        ctx,
        todo.filter((e) => ids.has(e.deliveryId!)),
        found,
      ),
  );
  await commitClosed(ctx, todo, closed);
  for (const e of todo) closeOutcome(ctx, e, found.get(e.deliveryId!)!, closed.get(e.deliveryId!));
}

/**
 * Lazy commits for every shipment the service closed. They allow no side effect (their labels are
 * asked for already, a GET, and queued only after this commit; a label's first byte waits for the
 * -wal sync, store/walSync.ts, which takes this one to the disk with it): lost in a power cut, the entry is
 * `close_requested` and the service is asked what happened.
 */
async function commitClosed(ctx: StepCtx, todo: JournalEntry[], closed: Map<number, ShipmentCloseResult>) {
  const { deps, session } = ctx;
  const closedNow = (e: JournalEntry, proven: boolean) => {
    const r = closed.get(e.deliveryId!);
    return r?.kind === 'closed' && r.proven === proven;
  };
  await stepInSlices(
    deps,
    todo.filter((e) => closedNow(e, true)).map((e) => e.id),
    'closed',
    false,
  );
  // Found closed by the search after a lost answer.
  closedBySearch(
    deps,
    todo.filter((e) => closedNow(e, false)),
  );
  leftShelf(
    deps,
    session.accountId,
    todo.filter((e) => closed.get(e.deliveryId!)?.kind === 'closed').map((e) => e.deliveryId!),
  );
}

/** What the close did to one entry: closed (on to the labels), waiting at `close_requested`, or ended. */
function closeOutcome(ctx: StepCtx, e: JournalEntry, s: Shipment, r: ShipmentCloseResult | undefined): void {
  const { deps } = ctx;
  if (!r) {
    const t = classifyTrouble({ code: 'service_unreachable', message: 'The close gave no result for this shipment.' });
    return waitWith(ctx, e, t, s, false);
  }
  switch (r.kind) {
    case 'closed':
      return;
    case 'unreachable':
    case 'login':
      return waitWith(ctx, e, r.trouble, s, false);
    case 'closed_elsewhere':
    case 'cancelled':
      end(deps, e, r.kind, null);
      ctx.results.set(e.id, { kind: 'refused', close: r });
      return;
    case 'rejected':
      end(deps, e, 'rejected', {
        code: r.status === 404 ? 'not_found' : 'carrier_rejected',
        message: [r.message, ...r.messages].join(' | '),
      });
      ctx.results.set(e.id, { kind: 'refused', close: r });
  }
}
