/**
 * GET /api/v3/deliveries/traces (spec "GET /api/v3/deliveries/traces", "States and transitions"
 * rule 2): closed shipments only (422), unknown 404, another company's 403. States move by the
 * sandbox clock (the domain's documented timeline).
 */
import { trackingOf } from '../domain/index';
import type { RequestContext } from '../http/context';
import { envelope, type Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { routeMessages as rm, routeMessages2 as rm2 } from './messages';
import { queryIds } from './queryIds';
import { ownedDeliveries } from './shared';

function traces(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const ds = ownedDeliveries(s, caller.companyId, queryIds(ctx));
  const unclosed = ds.filter((d) => d.closed === null);
  if (unclosed.length > 0) {
    return envelope(422, rm2.notClosed, {
      params: { deliveryId: unclosed[0]!.deliveryId },
      errors: unclosed.map((d) => ({
        field: 'deliveryId',
        value: d.deliveryId,
        message: rm2.notClosed,
        params: { deliveryId: d.deliveryId },
      })),
    });
  }
  const now = s.clock.now();
  return envelope(200, rm.traces, {
    data: ds.map((d) => {
      const t = trackingOf(d, now, ctx.lang);
      return { deliveryId: d.deliveryId, lastChecked: t.lastChecked, traces: t.traces };
    }),
  });
}

export function addTraceRoutes(router: Router, s: Services): void {
  router.add('GET', '/api/v3/deliveries/traces', (ctx) => traces(ctx, s), { api: true });
}
