/**
 * GET /api/v3/deliveries/zpl (spec "GET /api/v3/deliveries/zpl", "ZPL item" record): per shipment
 * its deliveryId and one ZPL label per package, laid out for `size` (cm at 300 dpi). Sizes and
 * defaults per carrier are the catalogue's; carriers without ZPL answer 404 "ZPL label not found".
 */
import { carrierOf, type ZplSize } from '../domain/index';
import { DocumentError } from '../documents/labelData';
import { renderZplLabel } from '../documents/zplLabels';
import type { RequestContext } from '../http/context';
import { envelope, type Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { documentMessages as dm } from './documentMessages';
import { invalidQuery, queryValue, requireClosed, requireOneCarrier } from './labelChecks';
import { labelsOf } from './labelsOf';
import { routeMessages as rm } from './messages';
import { queryIds } from './queryIds';
import { ownedDeliveries } from './shared';

const SIZES: readonly ZplSize[] = ['10x5', '10x15', '10x17'];

function zpl(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const rawSize = queryValue(ctx, 'size');
  if (rawSize !== null && rawSize !== '' && !SIZES.includes(rawSize as ZplSize))
    throw invalidQuery('size', rawSize, dm.sizeUnknown);
  const ds = ownedDeliveries(s, caller.companyId, queryIds(ctx));
  requireClosed(ds);
  const agent = requireOneCarrier(ds);
  const carrier = carrierOf(agent);
  if (!carrier?.zpl) return envelope(404, dm.zplNotFoundDetail, { params: { agent, deliveryId: ds[0]!.deliveryId } });
  const size = rawSize ? (rawSize as ZplSize) : carrier.zpl.default;
  if (!carrier.zpl.sizes.includes(size)) {
    const params = { agent, value: size, allowed: carrier.zpl.sizes.join(', ') };
    return envelope(422, dm.sizeNotAllowed, {
      params,
      errors: [{ field: 'size', value: size, message: dm.sizeNotAllowed, params }],
    });
  }
  const now = s.clock.now();
  const places = s.store.companies.places(caller.companyId);
  try {
    const data = ds.map((d) => ({
      deliveryId: d.deliveryId,
      zplCodes: labelsOf(d, { places, now, lang: ctx.lang }).map((l) => renderZplLabel(l, size)),
    }));
    return envelope(200, rm.zpl, { data });
  } catch (err) {
    if (err instanceof DocumentError) return envelope(422, dm.labelsFailed, { params: { detail: err.message } });
    throw err;
  }
}

export function addZplRoutes(router: Router, s: Services): void {
  router.add('GET', '/api/v3/deliveries/zpl', (ctx) => zpl(ctx, s), { api: true });
}
