/**
 * The Tracking screen's traces (./shipmentActions.ts). Spec "GET /api/v3/deliveries/traces":
 * asked for the closed ones in one request; when the service refuses it (one unclosed or unknown
 * shipment refuses all), each is asked on its own so every shipment gets its own answer. The
 * states are refreshed with them (best effort).
 */
import type { ActionError, ShipmentTraces } from '../../shared/contract/shipmentActions';
import { isClosedState } from '../../shared/contract/shipments';
import { reread, session, stateOf, type ActionContext } from './shipmentActionContext';
import { err, errorOf, notClosed } from './shipmentActionResults';
import { classifyTrouble } from './serviceTrouble';
import type { WorkflowSession } from './workflowDeps';

type Got = Map<number, { lastChecked: string | null; traces: { date: string; text: string }[] }>;

export async function traceShipments(ctx: ActionContext, ids: number[]): Promise<ShipmentTraces[]> {
  const s = session(ctx);
  const unique = [...new Set(ids)];
  const closed = unique.filter((id) => {
    const st = stateOf(ctx, s, id);
    return st === null || isClosedState(st);
  });
  const got: Got = new Map();
  const errors = new Map<number, ActionError>();
  if (closed.length) {
    await fetchTraces(s, closed, got, errors);
    await reread(ctx, s, closed);
  }
  return unique.map((id) => tracesOf(ctx, s, id, got, errors));
}

/** All in one request; refused, each on its own (one that cannot be asked must not cost the others theirs). */
async function fetchTraces(
  s: WorkflowSession,
  closed: number[],
  got: Got,
  errors: Map<number, ActionError>,
): Promise<void> {
  try {
    for (const t of await s.client.getTraces(closed)) got.set(t.deliveryId, t);
  } catch (e) {
    const trouble = classifyTrouble(e);
    if (trouble.kind !== 'answered' || closed.length === 1) for (const id of closed) errors.set(id, errorOf(trouble));
    else {
      for (const id of closed) {
        try {
          for (const t of await s.client.getTraces([id])) got.set(t.deliveryId, t);
        } catch (one) {
          errors.set(id, errorOf(classifyTrouble(one)));
        }
      }
    }
  }
}

function tracesOf(
  ctx: ActionContext,
  s: WorkflowSession,
  id: number,
  got: Got,
  errors: Map<number, ActionError>,
): ShipmentTraces {
  const sh = ctx.deps.repos.shipments.get(s.accountId, id);
  const t = got.get(id);
  const error =
    errors.get(id) ??
    (sh && !isClosedState(sh.state)
      ? notClosed(sh)
      : !t
        ? err('no_traces', `The service returned no traces for shipment ${id}.`)
        : null);
  return {
    deliveryId: id,
    deliveryNumber: sh?.deliveryNumber ?? null,
    agent: sh?.agent ?? null,
    state: sh?.state ?? null,
    lastChecked: t?.lastChecked ?? null,
    traces: t?.traces ?? [],
    error,
  };
}
