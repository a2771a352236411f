/**
 * GET /api/v3/deliveries/tickets (spec "GET /api/v3/deliveries/tickets", "PDF labels" record):
 * one real PDF with a label per package of the requested closed shipments of one carrier.
 * `printFormat=default` lays four labels on an A4 sheet starting at `position`; `single` gives
 * label-sized pages. Back shipments are refused: their label travels with the carrier.
 */
import type { StoredDelivery } from '../domain/index';
import { renderLabelsPdf, type LabelPosition, type PrintFormat } from '../documents/pdfLabels';
import { DocumentError } from '../documents/labelData';
import type { RequestContext } from '../http/context';
import { envelope, ReplyNow, type Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { formatTimestamp } from '../domain/index';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { documentMessages as dm } from './documentMessages';
import { invalidQuery, queryValue, requireClosed, requireOneCarrier } from './labelChecks';
import { labelsOf } from './labelsOf';
import { routeMessages as rm } from './messages';
import { mimeBase64 } from './mimeBase64';
import { queryIds } from './queryIds';
import { ownedDeliveries } from './shared';

function positionOf(ctx: RequestContext): LabelPosition {
  const raw = queryValue(ctx, 'position');
  if (raw === null || raw === '') return 1;
  if (!/^[1-4]$/.test(raw)) throw invalidQuery('position', raw, dm.positionInvalid);
  return Number(raw) as LabelPosition;
}

function printFormatOf(ctx: RequestContext): PrintFormat {
  const raw = queryValue(ctx, 'printFormat');
  if (raw === null || raw === '') return 'default';
  if (raw !== 'default' && raw !== 'single') throw invalidQuery('printFormat', raw, dm.printFormatInvalid);
  return raw;
}

const isBackShipment = (d: StoredDelivery) => d.extraServices.some((s) => s.code === 'back_delivery');

function refuseBackShipments(ds: StoredDelivery[]): void {
  const back = ds.filter(isBackShipment);
  if (back.length === 0) return;
  const errors = back.map((d) => ({
    field: 'deliveryId',
    value: d.deliveryId,
    message: dm.backShipment,
    params: { deliveryId: d.deliveryId },
  }));
  throw new ReplyNow(envelope(422, dm.backShipment, { params: errors[0]!.params, errors }));
}

async function tickets(ctx: RequestContext, s: Services): Promise<Reply> {
  const caller = requireScope(ctx, s, 'deliveries');
  const position = positionOf(ctx);
  const printFormat = printFormatOf(ctx);
  const ds = ownedDeliveries(s, caller.companyId, queryIds(ctx));
  requireClosed(ds);
  refuseBackShipments(ds);
  requireOneCarrier(ds);
  const now = s.clock.now();
  const places = s.store.companies.places(caller.companyId);
  const labels = ds.flatMap((d) => labelsOf(d, { places, now, lang: ctx.lang }));
  let pdf: Buffer;
  try {
    pdf = await renderLabelsPdf(labels, { printFormat, position });
  } catch (err) {
    // Stored shipments always make printable labels; if one does not, say what the generator saw.
    if (err instanceof DocumentError) return envelope(422, dm.labelsFailed, { params: { detail: err.message } });
    throw err;
  }
  return envelope(200, rm.tickets, {
    data: { created: formatTimestamp(now), size: pdf.length, contents: mimeBase64(pdf) },
  });
}

export function addTicketRoutes(router: Router, s: Services): void {
  router.add('GET', '/api/v3/deliveries/tickets', (ctx) => tickets(ctx, s), { api: true });
}
