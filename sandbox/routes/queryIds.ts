/** `deliveryId` of the query for the label, ZPL and trace resources (required, comma-separated ints). */
import type { RequestContext } from '../http/context';
import { envelope, ReplyNow } from '../http/envelope';
import { httpMessages } from '../http/messages';
import { routeMessages2 as rm2 } from './messages';
import { idOf } from './shared';

export function queryIds(ctx: RequestContext): number[] {
  const raw = ctx.query.getAll('deliveryId').join(',');
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) {
    throw new ReplyNow(
      envelope(422, rm2.deliveryIdQueryRequired, {
        errors: [{ field: 'deliveryId', value: raw, message: rm2.deliveryIdQueryRequired }],
      }),
    );
  }
  const bad = parts.filter((p) => idOf(p) === null);
  if (bad.length > 0) {
    throw new ReplyNow(
      envelope(422, httpMessages.validationFailed, {
        errors: bad.map((value) => ({
          field: 'deliveryId',
          value,
          message: rm2.deliveryIdQueryInvalid,
          params: { value },
        })),
      }),
    );
  }
  return [...new Set(parts.map((p) => idOf(p)!))];
}
