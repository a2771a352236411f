/**
 * /api/v2/collection-protocols (spec "POST/GET /api/v2/collection-protocols", "States and
 * transitions" rule 3): a protocol covers the closed, unsent shipments of one carrier at one
 * collection place that have no protocol yet; it is the sheet the driver signs at the pick-up.
 */
import { carrierOf, formatTimestamp, type StoredDelivery } from '../domain/index';
import { DocumentError } from '../documents/labelData';
import { readBody, type RequestContext } from '../http/context';
import { envelope, ReplyNow, type ErrorItem, type Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import type { ProtocolRecord } from '../store/index';
import { documentMessages as dm } from './documentMessages';
import { routeMessages as rm } from './messages';
import { mimeBase64 } from './mimeBase64';
import { protocolPdf } from './protocolOf';
import { currentStates, idOf } from './shared';

/** General misuse (spec: "for general misuse the errors array is absent"): 422 with a message only. */
function misuse(detail?: ReplyNow): ReplyNow {
  if (detail && detail.reply.kind === 'envelope')
    return new ReplyNow({ ...detail.reply, status: 422, errors: undefined });
  return new ReplyNow(envelope(422, dm.protocolBodyInvalid));
}

/** The request object; a body that does not parse is misuse too (422 without errors, not 400). */
function bodyOf(ctx: RequestContext): Record<string, unknown> {
  try {
    return readBody(ctx);
  } catch (err) {
    if (err instanceof ReplyNow && err.reply.status === 400) throw misuse(err);
    throw err;
  }
}

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : null;

function validRequest(body: Record<string, unknown>, places: string[]): { agent: string; collectionPlace: string } {
  if (!('agent' in body) && !('collectionPlace' in body)) throw misuse();
  const agent = text(body.agent);
  const place = text(body.collectionPlace);
  const errors: ErrorItem[] = [];
  if (!agent) errors.push({ field: 'agent', value: body.agent ?? null, message: dm.agentRequired });
  else if (!carrierOf(agent))
    errors.push({ field: 'agent', value: agent, message: dm.agentUnknown, params: { value: agent } });
  if (!place) errors.push({ field: 'collectionPlace', value: body.collectionPlace ?? null, message: dm.placeRequired });
  else if (!places.includes(place))
    errors.push({ field: 'collectionPlace', value: place, message: dm.placeUnknown, params: { value: place } });
  if (errors.length > 0) throw new ReplyNow(envelope(422, errors[0]!.message, { params: errors[0]!.params, errors }));
  return { agent: agent!, collectionPlace: place! };
}

/** Spec rule 3: closed (state 1 = not yet sent), this carrier, sent from this place, no protocol yet. */
function qualifies(d: StoredDelivery, agent: string, place: string): boolean {
  return (
    d.deliveryState === 1 &&
    d.agent === agent &&
    d.sender.type === 'collectionPlace' &&
    d.sender.collectionPlace === place &&
    d.protocolId === null
  );
}

function present(p: ProtocolRecord): Record<string, unknown> {
  return {
    collectionProtocolId: p.collectionProtocolId,
    agent: p.agent,
    collectionPlace: p.collectionPlace,
    protocol: p.protocol,
    created: p.created,
    deliveries: p.deliveries,
  };
}

async function create(ctx: RequestContext, s: Services): Promise<Reply> {
  const caller = requireScope(ctx, s, 'collection-protocols');
  const body = bodyOf(ctx);
  const places = s.store.companies.places(caller.companyId);
  const { agent, collectionPlace } = validRequest(
    body,
    places.map((p) => p.identificator),
  );
  const covered = currentStates(s, caller.companyId, s.store.deliveries.ofCompany(caller.companyId)).filter((d) =>
    qualifies(d, agent, collectionPlace),
  );
  if (covered.length === 0) {
    const params = { agent, collectionPlace };
    return envelope(422, dm.nothingToHandOver, {
      params,
      errors: [{ field: 'collectionPlace', value: collectionPlace, message: dm.nothingToHandOver, params }],
    });
  }
  const now = s.clock.now();
  const id = s.store.companies.next('collectionProtocolId');
  let pdf: Buffer;
  try {
    pdf = await protocolPdf({
      id,
      agent,
      place: places.find((p) => p.identificator === collectionPlace)!,
      companyName: s.store.companies.companyName(caller.companyId) ?? '',
      deliveries: covered,
      now,
    });
  } catch (err) {
    if (err instanceof DocumentError) return envelope(422, dm.protocolFailed, { params: { detail: err.message } });
    throw err;
  }
  const record: ProtocolRecord = {
    collectionProtocolId: id,
    agent,
    collectionPlace,
    created: formatTimestamp(now),
    deliveries: covered.map((d) => d.deliveryId),
    protocol: mimeBase64(pdf),
  };
  s.store.transaction(() => {
    s.store.deliveries.addProtocol(caller.companyId, record);
    // protocolId is internal (never presented), so the shipments' versions and ETags stay.
    s.store.deliveries.saveAll(
      caller.companyId,
      covered.map((d) => ({ ...d, protocolId: id })),
    );
  });
  return envelope(201, rm.protocolCreated, {
    data: present(record),
    headers: { location: `${ctx.baseUrl}/api/v2/collection-protocols?id=${id}` },
  });
}

function fetchOne(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'collection-protocols');
  // `id` is accepted too: it is the name the Location header of POST uses (spec "POST").
  const values = [...ctx.query.getAll('collectionProtocolId'), ...ctx.query.getAll('id')]
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.length === 0) {
    return envelope(422, dm.protocolIdRequired, {
      errors: [{ field: 'collectionProtocolId', value: null, message: dm.protocolIdRequired }],
    });
  }
  const id = values.length === 1 ? idOf(values[0]) : null;
  if (id === null) {
    const value = values.join(',');
    return envelope(422, dm.protocolIdInvalid, {
      params: { value },
      errors: [{ field: 'collectionProtocolId', value, message: dm.protocolIdInvalid, params: { value } }],
    });
  }
  const found = s.store.deliveries.protocol(id);
  if (!found) return envelope(404, dm.protocolNotFound, { params: { id } });
  if (found.companyId !== caller.companyId) return envelope(403, dm.protocolForbidden, { params: { id } });
  return envelope(200, rm.protocolFetched, { data: present(found.protocol) });
}

export function addProtocolRoutes(router: Router, s: Services): void {
  router.add('POST', '/api/v2/collection-protocols', (ctx) => create(ctx, s), { api: true, body: 'contentType' });
  router.add('GET', '/api/v2/collection-protocols', (ctx) => fetchOne(ctx, s), { api: true });
}
