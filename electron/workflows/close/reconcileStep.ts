/**
 * The close-and-print machine's step from `close_requested` whose close may have left before a
 * stop: the service is read first, never a blind second close. Closed there: `closed` (found by
 * the read, so its labels are held for the worker: ./queueStep.ts); still prepared: closed again
 * (handed back to ./closeStep.ts); cancelled or unknown: ended.
 */
import { isClosedState, shipmentStates } from '../../../shared/contract/shipments';
import type { JournalEntry } from '../../store/journalRepo';
import { classifyTrouble } from '../serviceTrouble';
import { closedBySearch, end, endMissing, leftShelf, waitWith, type StepCtx } from './entryMoves';

/** Entries whose close was sent and never answered: the service says what happened. Returns those to close again. */
export async function reconcileStep(ctx: StepCtx, entries: JournalEntry[]): Promise<JournalEntry[]> {
  if (!entries.length) return [];
  const { deps, session } = ctx;
  const shipment = (e: JournalEntry) => deps.repos.shipments.get(session.accountId, e.deliveryId!);
  try {
    deps.recordDeliveries(
      session.accountId,
      await session.client.getDeliveriesByIds(entries.map((e) => e.deliveryId!)),
    );
  } catch (err) {
    const t = classifyTrouble(err);
    for (const e of entries) waitWith(ctx, e, t, shipment(e) ?? null, false);
    return [];
  }
  const confirmed = entries.filter((e) => isClosedState(shipment(e)?.state ?? -1));
  closedBySearch(deps, confirmed);
  leftShelf(
    deps,
    session.accountId,
    confirmed.map((e) => e.deliveryId!),
  );
  const again: JournalEntry[] = [];
  for (const e of entries) {
    const s = shipment(e);
    if (s && isClosedState(s.state)) continue;
    else if (s && s.state === shipmentStates.prepared) again.push(e);
    else if (s && s.state === shipmentStates.cancelled) {
      end(deps, e, 'cancelled', null);
      ctx.results.set(e.id, { kind: 'refused', close: { kind: 'cancelled', shipment: s } });
    } else endMissing(ctx, e, { code: 'not_found', message: `Shipment ${e.deliveryId} is not known to the service.` });
  }
  return again;
}
