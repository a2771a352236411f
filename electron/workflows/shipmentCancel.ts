/**
 * Cancelling shipments from the Shipments screen (./shipmentActions.ts). Spec "DELETE
 * /api/v3/deliveries": only unclosed, uncancelled shipments. A 422 naming some of them cancelled
 * nothing, so the others are sent again without them (a new request, not a retry).
 */
import type { ShipmentActionResult, ShipmentActionSummary } from '../../shared/contract/shipmentActions';
import { isClosedState, shipmentStates, type Shipment } from '../../shared/contract/shipments';
import { isServiceError } from '../api/index';
import { load, reread, session, stateOf, type ActionContext } from './shipmentActionContext';
import { err, errorOf, failed, order, skipped, summarise } from './shipmentActionResults';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import type { WorkflowSession } from './workflowDeps';

const cancelled = (deliveryId: number): ShipmentActionResult => ({
  deliveryId,
  outcome: 'done',
  print: 'none',
  jobIds: [],
  state: shipmentStates.cancelled,
  error: null,
});

export async function cancelShipments(ctx: ActionContext, ids: number[]): Promise<ShipmentActionSummary> {
  const s = session(ctx);
  const { found, missing } = load(ctx, s, ids);
  const out = [...missing];
  let todo: Shipment[] = [];
  for (const sh of found) {
    if (sh.state === shipmentStates.prepared) todo.push(sh);
    else if (sh.state === shipmentStates.cancelled)
      out.push(
        skipped(sh.deliveryId, sh.state, err('already_cancelled', `Shipment ${sh.deliveryId} is already cancelled.`)),
      );
    else
      out.push(
        skipped(
          sh.deliveryId,
          sh.state,
          err('already_closed', `Shipment ${sh.deliveryId} is closed: a closed shipment cannot be cancelled.`),
        ),
      );
  }
  for (let round = 0; round < 2 && todo.length; round++) todo = await cancelRound(ctx, s, todo, round, out);
  recordCancellations(ctx, s, out);
  return summarise(order(ids, out));
}

/** One DELETE request; answers what it settled into `out` and returns the shipments to send again. */
async function cancelRound(
  ctx: ActionContext,
  s: WorkflowSession,
  todo: Shipment[],
  round: number,
  out: ShipmentActionResult[],
): Promise<Shipment[]> {
  const list = todo.map((sh) => sh.deliveryId);
  try {
    await s.client.cancelDeliveries(list);
    ctx.o.recordCancelled(s.accountId, list);
    for (const id of list) out.push(cancelled(id));
    return [];
  } catch (e) {
    const trouble = classifyTrouble(e);
    if (trouble.kind !== 'answered') {
      for (const id of list) out.push(failed(id, stateOf(ctx, s, id), errorOf(trouble)));
      return [];
    }
    return settleRefused(ctx, s, list, round, e, trouble, out);
  }
}

/** After a refused request, each shipment's answer from its state read again, or sent again without the ones named. */
async function settleRefused(
  ctx: ActionContext,
  s: WorkflowSession,
  list: number[],
  round: number,
  e: unknown,
  trouble: Extract<Trouble, { kind: 'answered' }>,
  out: ShipmentActionResult[],
): Promise<Shipment[]> {
  const again: Shipment[] = [];
  const named = new Set(trouble.deliveryIds);
  const known = await reread(ctx, s, list);
  for (const id of list) {
    const state = stateOf(ctx, s, id);
    if (known && state === shipmentStates.cancelled)
      out.push({ deliveryId: id, outcome: 'done', print: 'none', jobIds: [], state, error: null });
    else if (known && state !== null && isClosedState(state))
      out.push(
        failed(
          id,
          state,
          err('closed_elsewhere', `Shipment ${id} was closed meanwhile: it can no longer be cancelled.`),
        ),
      );
    else if (round === 0 && named.size > 0 && !named.has(id) && state === shipmentStates.prepared)
      again.push(ctx.deps.repos.shipments.get(s.accountId, id)!);
    else {
      const own = isServiceError(e) ? e.errors.filter((x) => x.deliveryId === id).map((x) => x.message) : [];
      out.push(failed(id, state, err(trouble.error.code, trouble.error.message, own.length ? own : trouble.messages)));
    }
  }
  return again;
}

/** Who cancelled which shipment, for its trail (the service keeps no operator). */
function recordCancellations(ctx: ActionContext, s: WorkflowSession, out: ShipmentActionResult[]): void {
  const at = ctx.now();
  for (const r of out)
    if (r.outcome === 'done' && r.state === shipmentStates.cancelled)
      ctx.deps.repos.deskActions.record({
        action: 'shipment_cancelled',
        at,
        accountId: s.accountId,
        deliveryId: r.deliveryId,
      });
}
