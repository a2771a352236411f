/** GET /api/v2/collection-places (spec "GET /api/v2/collection-places"): the active places only. */
import { presentPlace } from '../domain/index';
import { envelope } from '../http/envelope';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { routeMessages as rm } from './messages';

export function addPlaceRoutes(router: Router, s: Services): void {
  router.add(
    'GET',
    '/api/v2/collection-places',
    (ctx) => {
      const caller = requireScope(ctx, s, 'collection-places');
      const places = s.store.companies.places(caller.companyId).filter((p) => p.active);
      return envelope(200, rm.places, { data: places.map(presentPlace) });
    },
    { api: true },
  );
}
