/**
 * In-place cache updates after the station itself changed shipments at the service. The close,
 * edit and cancel workflows call these with what the service answered, so the list and the
 * scanner lookup see the new state at once, without waiting for the next sync.
 *
 * - close (PATCH): `data.deliveries` of the response -> recordDeliveries
 * - insert (POST) / edit (PUT): `data` of the response, with its ETag -> recordDeliveries
 * - cancel (DELETE): no data comes back (spec "DELETE /api/v3/deliveries") -> recordCancelled
 * - anything uncertain (a close whose answer was lost): refreshShipments asks the service.
 */
import { shipmentStates } from '../../shared/contract/shipments';
import type { Delivery } from '../api/index';
import type { ShipmentsRepo, ShipmentRecord } from '../store/shipmentsRepo';
import { shipmentFromDelivery } from './shipmentFromDelivery';
import type { ShipmentSource } from './shipmentSource';

export interface CacheUpdateDeps {
  shipments: ShipmentsRepo;
  now: () => Date;
  /** Told which cached shipments changed (the station forwards it as `shipments.changed`). */
  onChanged?: (accountId: string, deliveryIds: number[]) => void;
}

export interface RecordResult {
  /** deliveryIds whose cached record changed. */
  changed: number[];
}

/**
 * Stores delivery records the service returned. `etag` is stored only when the response held a
 * single shipment (an ETag of a multi-shipment response is not usable for one shipment's If-Match).
 */
export function recordDeliveries(
  deps: CacheUpdateDeps,
  accountId: string,
  deliveries: readonly Delivery[],
  etag?: string | null,
): RecordResult {
  const records = deliveries.map((d) => shipmentFromDelivery(d, deliveries.length === 1 ? etag : undefined));
  const changed = deps.shipments.upsertMany(accountId, records, deps.now());
  if (changed.length) deps.onChanged?.(accountId, changed);
  return { changed };
}

/** Marks cached shipments cancelled after a successful cancel (state 10, spec "States and transitions"). */
export function recordCancelled(deps: CacheUpdateDeps, accountId: string, deliveryIds: number[]): number[] {
  const records: ShipmentRecord[] = [];
  for (const id of deliveryIds) {
    const s = deps.shipments.get(accountId, id);
    if (!s || s.state === shipmentStates.cancelled) continue;
    const { accountId: _a, version: _v, syncedAt: _s, etag: _e, ...rest } = s;
    records.push({ ...rest, state: shipmentStates.cancelled, stateName: 'Zrušená', etag: null });
  }
  const changed = deps.shipments.upsertMany(accountId, records, deps.now());
  if (changed.length) deps.onChanged?.(accountId, changed);
  return changed;
}

/** Fetches the given shipments from the service and stores them (after an uncertain outcome). */
export async function refreshShipments(
  deps: CacheUpdateDeps & { source: ShipmentSource },
  accountId: string,
  deliveryIds: number[],
): Promise<RecordResult> {
  if (deliveryIds.length === 0) return { changed: [] };
  const raws = await deps.source.getMany([...new Set(deliveryIds)]);
  return recordDeliveries(deps, accountId, raws);
}
