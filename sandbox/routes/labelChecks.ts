/**
 * Rules the label resources share (spec "States and transitions" rule 2, "Limits": carriers per
 * label request 1). Each check answers a 422 envelope with one error per offending shipment.
 */
import type { StoredDelivery } from '../domain/index';
import { envelope, ReplyNow, type ErrorItem } from '../http/envelope';
import type { RequestContext } from '../http/context';
import { documentMessages as dm } from './documentMessages';
import { routeMessages2 as rm2 } from './messages';

/** Labels and ZPL exist only for closed shipments (a cancelled one was never closed). */
export function requireClosed(ds: StoredDelivery[]): void {
  const unclosed = ds.filter((d) => d.closed === null);
  if (unclosed.length === 0) return;
  throw new ReplyNow(
    envelope(422, rm2.notClosed, {
      params: { deliveryId: unclosed[0]!.deliveryId },
      errors: unclosed.map((d) => ({
        field: 'deliveryId',
        value: d.deliveryId,
        message: rm2.notClosed,
        params: { deliveryId: d.deliveryId },
      })),
    }),
  );
}

/** One carrier per request: every shipment must have the first one's carrier. */
export function requireOneCarrier(ds: StoredDelivery[]): string {
  const first = ds[0]!.agent;
  const errors: ErrorItem[] = ds
    .filter((d) => d.agent !== first)
    .map((d) => ({
      field: 'deliveryId',
      value: d.deliveryId,
      message: dm.oneCarrier,
      params: { deliveryId: d.deliveryId, agent: d.agent, first },
    }));
  if (errors.length > 0) throw new ReplyNow(envelope(422, errors[0]!.message, { params: errors[0]!.params, errors }));
  return first;
}

/** One optional query value (repeated -> the last one, as URLSearchParams.get would not). */
export function queryValue(ctx: RequestContext, name: string): string | null {
  const all = ctx.query.getAll(name);
  return all.length > 0 ? all[all.length - 1]!.trim() : null;
}

export function invalidQuery(field: string, value: string, message: typeof dm.positionInvalid): ReplyNow {
  return new ReplyNow(
    envelope(422, message, { params: { value }, errors: [{ field, value, message, params: { value } }] }),
  );
}
