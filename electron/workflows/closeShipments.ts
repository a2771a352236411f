/**
 * Closing at the service and what the station learns from it, for one or many shipments
 * (spec "PATCH /api/v3/deliveries": the client sends one request per carrier + collection place).
 * The cache is updated in place from the answer, pick-up orders are stored, and a refused close is
 * explained: a shipment another station closed or cancelled meanwhile is told apart from a carrier
 * rejection by reading it again. Never a blind retry: a lost answer was already checked by the
 * client with a search (`not_closed`, `partly-closed`, `unknown`).
 */
import type { Shipment } from '../../shared/contract/shipments';
import { isClosedState, shipmentStates } from '../../shared/contract/shipments';
import type { CloseGroup, Delivery, PartyType } from '../api/index';
import { nextTurn, READS_PER_TURN } from '../base/slices';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export type ShipmentCloseResult =
  /**
   * Closed. `proven`: the service's answer to this close said so (spec "PATCH": 200 with the
   * closed deliveries); false when a search after a lost answer found it closed, which another
   * desk's close would show too.
   */
  | { kind: 'closed'; shipment: Shipment; proven: boolean }
  /** The service refused because it was closed already: by another station, or by a close whose answer was lost. */
  | { kind: 'closed_elsewhere'; shipment: Shipment }
  | { kind: 'cancelled'; shipment: Shipment }
  | { kind: 'rejected'; message: string; messages: string[]; status: number | null }
  /** Nothing happened, or nobody knows yet: safe to run again later (the next run reads the state first). */
  | { kind: 'unreachable'; trouble: Trouble }
  | { kind: 'login'; trouble: Trouble };

type Deps = Pick<WorkflowDeps, 'repos' | 'recordDeliveries' | 'clock' | 'log'>;

/**
 * Shipments stored per commit after a close: a slice is a short block of the event loop, about
 * the sync's SLICE_MS (50 were 10-25 ms with their search rows; 25 left a batch's longest turn
 * near 20 ms with the answers and acknowledgements that share it, docs/benchmarks/batchClose.md).
 */
const RECORD_SLICE = 10;

/**
 * The closed shipments into the cache, in slices with the event loop running between them (a
 * batch of 500 is no one long block). The cache guards no side effect: a crash between slices
 * leaves shipments the next run reads at the service again (the journal's `close_requested`).
 */
async function storeClosed(
  deps: Deps,
  session: WorkflowSession,
  group: CloseGroup,
  deliveries: Delivery[],
  orders: { agent: string; scheduled: string; collectionPlace: string }[],
) {
  for (let i = 0; i < deliveries.length; i += RECORD_SLICE) {
    // More than one slice: each on a turn of its own, the first too (the answer's last checks had
    // this turn); a scan's one shipment is stored at once.
    if (deliveries.length > RECORD_SLICE) await nextTurn();
    deps.recordDeliveries(session.accountId, deliveries.slice(i, i + RECORD_SLICE));
  }
  for (const o of orders) {
    deps.repos.endOfDay.savePickupOrder(
      session.accountId,
      { agent: o.agent, collectionPlace: o.collectionPlace, scheduled: o.scheduled, deliveryIds: group.deliveryIds },
      deps.clock.now(),
    );
  }
}

/** Reads shipments again after a refused close; null when the service cannot be asked. */
async function reread(deps: Deps, session: WorkflowSession, ids: number[]): Promise<Map<number, Shipment> | null> {
  try {
    deps.recordDeliveries(session.accountId, await session.client.getDeliveriesByIds(ids));
  } catch {
    return null;
  }
  const out = new Map<number, Shipment>();
  for (const id of ids) {
    const s = deps.repos.shipments.get(session.accountId, id);
    if (s) out.set(id, s);
  }
  return out;
}

/**
 * Closes the given prepared shipments; one result per shipment. A group the service refused with
 * per-shipment errors (422 `errors[]`) is closed again without the named shipments: the service
 * answered and closed nothing, so this is a new request, not a retry of an unknown outcome.
 * `answered`: told which shipments a group's answer closed as soon as it is read, and awaited
 * before they are stored in the cache (the caller's next request leaves first: closeStep.ts).
 */
export async function closeShipments(
  deps: Deps,
  session: WorkflowSession,
  shipments: Shipment[],
  answered?: (closed: ReadonlySet<number>) => Promise<void>,
): Promise<Map<number, ShipmentCloseResult>> {
  const results = new Map<number, ShipmentCloseResult>();
  let todo = shipments;
  for (let round = 0; round < 2 && todo.length; round++) {
    const groups = await session.client.closeDeliveries(
      todo.map((s) => ({
        deliveryId: s.deliveryId,
        agent: s.agent ?? '',
        sender: {
          type: (s.sender.type ?? undefined) as PartyType | undefined,
          collectionPlace: s.sender.collectionPlace ?? undefined,
        },
      })),
    );
    const again: Shipment[] = [];
    for (const g of groups) {
      const o = g.outcome;
      const inGroup = new Set(g.deliveryIds);
      const mine = todo.filter((s) => inGroup.has(s.deliveryId));
      if (o.status === 'closed' || o.status === 'partly-closed') {
        const closed = o.status === 'closed' ? o.deliveries : o.closed;
        const closedIds = new Set(closed.map((d) => d.deliveryId));
        await answered?.(closedIds);
        await storeClosed(deps, session, g, closed, o.status === 'closed' ? o.collectionOrders : []);
        for (const [i, s] of mine.entries()) {
          if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
          const fresh = deps.repos.shipments.get(session.accountId, s.deliveryId);
          const proven = o.status === 'closed' && o.confirmedBy === 'response';
          if (fresh && closedIds.has(s.deliveryId))
            results.set(s.deliveryId, { kind: 'closed', shipment: fresh, proven });
          else
            results.set(s.deliveryId, {
              kind: 'unreachable',
              trouble: classifyTrouble(o.status === 'partly-closed' ? o.error : new Error('not closed')),
            });
        }
        continue;
      }
      const trouble = classifyTrouble(o.error);
      if (o.status !== 'rejected' || trouble.kind !== 'answered') {
        if (o.status === 'unknown')
          deps.log.warn('close outcome unknown; the shipments will be read again before any new close', {
            deliveryIds: g.deliveryIds,
          });
        for (const s of mine)
          results.set(
            s.deliveryId,
            trouble.kind === 'login' ? { kind: 'login', trouble } : { kind: 'unreachable', trouble },
          );
        continue;
      }
      // The service answered "no": closed or cancelled meanwhile (another desk), or the carrier refused.
      const now = await reread(deps, session, g.deliveryIds);
      const named = new Set(trouble.deliveryIds);
      for (const s of mine) {
        const fresh = now?.get(s.deliveryId);
        if (fresh && isClosedState(fresh.state))
          results.set(s.deliveryId, { kind: 'closed_elsewhere', shipment: fresh });
        else if (fresh && fresh.state === shipmentStates.cancelled)
          results.set(s.deliveryId, { kind: 'cancelled', shipment: fresh });
        else if (round === 0 && named.size > 0 && !named.has(s.deliveryId) && fresh?.state === shipmentStates.prepared)
          again.push(fresh);
        else {
          const own = o.error.errors.filter((e) => e.deliveryId === s.deliveryId).map((e) => e.message);
          results.set(s.deliveryId, {
            kind: 'rejected',
            message: o.error.message,
            messages: own.length ? own : trouble.messages,
            status: trouble.status,
          });
        }
      }
    }
    todo = again;
  }
  return results;
}
