/**
 * GET /api/v3/transports with a body, or POST with `X-HTTP-Method-Override: GET` (spec
 * "GET /api/v3/transports"). The options and prices are the domain's (documented pricing model).
 */
import { searchTransports } from '../domain/index';
import { header, readBody, type RequestContext } from '../http/context';
import { envelope, type Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { routeMessages as rm, routeMessages2 as rm2 } from './messages';
import { deliveriesOf, domainFailure } from './shared';

function search(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'transports');
  const items = deliveriesOf(readBody(ctx));
  const places = s.store.companies.places(caller.companyId);
  const r = searchTransports(items, { places, now: s.clock.now(), lang: ctx.lang });
  if (!r.ok) throw domainFailure(r);
  return envelope(200, rm.transports, { data: r.value });
}

export function addTransportRoutes(router: Router, s: Services): void {
  router.add('GET', '/api/v3/transports', (ctx) => search(ctx, s), { api: true, body: 'contentType' });
  router.add(
    'POST',
    '/api/v3/transports',
    (ctx) =>
      (header(ctx, 'x-http-method-override') ?? '').toUpperCase() === 'GET'
        ? search(ctx, s)
        : envelope(405, rm2.methodOverride, { headers: { allow: 'GET' } }),
    { api: true, body: 'contentType' },
  );
}
