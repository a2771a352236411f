/**
 * /api/v3/deliveries (spec "POST/GET/PATCH/PUT/DELETE /api/v3/deliveries", "States and
 * transitions", "Errors", "Limits"). Validation and state rules are the domain's; this module
 * owns ids, ownership, the licence limit, ETags, the 100-result cap and the status codes.
 */
import {
  cancelDelivery,
  closeDeliveries,
  createDelivery,
  parseSearch,
  replaceDelivery,
  validateDeliveries,
  type StoredDelivery,
} from '../domain/index';
import { header, readBody, type RequestContext } from '../http/context';
import { envelope, notModified, type ErrorItem, type Reply } from '../http/envelope';
import { ifMatchPasses, noneMatchHits } from '../http/etag';
import { httpMessages } from '../http/messages';
import type { Router } from '../http/router';
import { requireScope } from '../oauth/index';
import type { Services } from '../services';
import { routeMessages as rm } from './messages';
import {
  currentStates,
  deliveriesEtag,
  deliveriesOf,
  domainFailure,
  fieldsOf,
  itemIds,
  ownedDeliveries,
  present,
  withIndex,
} from './shared';

/** Spec "Limits": a search returns at most 100 shipments. */
export const SEARCH_LIMIT = 100;

function insert(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const items = deliveriesOf(readBody(ctx));
  const places = s.store.companies.places(caller.companyId);
  const valid = validateDeliveries(items, { places, mode: 'insert' });
  if (!valid.ok) throw domainFailure(valid);
  // Spec "POST": 403 when the licence limit is reached (counted over every shipment the company has).
  const limit = s.store.companies.licenceLimit(caller.companyId);
  const count = s.store.deliveries.countOfCompany(caller.companyId);
  if (limit !== null && count + valid.value.length > limit) {
    return envelope(403, rm.licenceLimit, { params: { limit, count, requested: valid.value.length } });
  }
  const now = s.clock.now();
  const created = s.store.transaction(() =>
    valid.value.map((input) => createDelivery(input, { deliveryId: s.store.nextDeliveryId(), now })),
  );
  s.store.deliveries.saveAll(caller.companyId, created);
  const ids = created.map((d) => d.deliveryId).join(',');
  return envelope(201, rm.created, {
    data: present(created, places, fieldsOf(ctx)),
    headers: { location: `${ctx.baseUrl}/api/v3/deliveries?deliveryId=${ids}`, etag: deliveriesEtag(created) },
  });
}

function search(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const fields = fieldsOf(ctx);
  const pairs = [...ctx.query].filter(([k]) => k !== 'fields');
  const parsed = parseSearch(pairs);
  if (!parsed.ok) throw domainFailure({ ...parsed, message: parsed.message ?? rm.searchInvalid });
  const { ids, matches } = parsed.value;
  const wanted = ids ? new Set(ids) : null;
  const all = s.store.deliveries.ofCompany(caller.companyId).filter((d) => !wanted || wanted.has(d.deliveryId));
  const found = currentStates(s, caller.companyId, all).filter(matches).slice(0, SEARCH_LIMIT);
  if (found.length === 0) return envelope(404, rm.noneFound);
  const etag = deliveriesEtag(found, fields);
  if (noneMatchHits(header(ctx, 'if-none-match'), etag)) return notModified(etag);
  const places = s.store.companies.places(caller.companyId);
  return envelope(200, rm.retrieved, { data: present(found, places, fields), headers: { etag } });
}

function edit(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const items = deliveriesOf(readBody(ctx));
  const places = s.store.companies.places(caller.companyId);
  const valid = validateDeliveries(items, { places, mode: 'edit' });
  if (!valid.ok) throw domainFailure(valid);
  const ids = itemIds(valid.value.map((v) => ({ deliveryId: v.deliveryId })));
  const existing = ownedDeliveries(s, caller.companyId, ids);
  // Spec "PUT": If-Match with an ETag from a GET without `fields`; changed since -> 412, nothing edited.
  if (!ifMatchPasses(header(ctx, 'if-match'), deliveriesEtag(existing))) return envelope(412, rm.preconditionFailed);
  const now = s.clock.now();
  const errors: ErrorItem[] = [];
  const edited: StoredDelivery[] = [];
  valid.value.forEach((input, i) => {
    const r = replaceDelivery(existing[i]!, input, { now });
    if (r.ok) edited.push(r.value);
    else errors.push(...r.errors.map((e) => withIndex(e, i)));
  });
  if (errors.length > 0) return envelope(422, httpMessages.validationFailed, { errors });
  s.store.deliveries.saveAll(caller.companyId, edited);
  return envelope(200, rm.edited, {
    data: present(edited, places, fieldsOf(ctx)),
    headers: { etag: deliveriesEtag(edited) },
  });
}

const isTrue = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

function close(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const items = deliveriesOf(readBody(ctx));
  const ids = itemIds(items, (item, i) =>
    isTrue(item.closed) ? null : { field: `[${i}].closed`, value: item.closed ?? null, message: rm.closedMustBeTrue },
  );
  const ds = ownedDeliveries(s, caller.companyId, ids);
  const places = s.store.companies.places(caller.companyId);
  const r = closeDeliveries(ds, {
    now: s.clock.now(),
    places,
    nextCarrierNumber: (agent) => String(s.store.companies.next(`carrier:${agent}`)),
    forceCarrierReject: s.faults.carrierRejects(),
  });
  if (!r.ok) throw domainFailure(r);
  s.store.deliveries.saveAll(caller.companyId, r.value.closed);
  return envelope(200, rm.closed, {
    data: { collectionOrders: r.value.collectionOrders, deliveries: present(r.value.closed, places, fieldsOf(ctx)) },
  });
}

function cancel(ctx: RequestContext, s: Services): Reply {
  const caller = requireScope(ctx, s, 'deliveries');
  const items = deliveriesOf(readBody(ctx));
  const ids = itemIds(items);
  // Spec "DELETE" lists 422 only: an unknown or foreign shipment is a validation error here.
  const errors: ErrorItem[] = [];
  ids.forEach((id, i) => {
    const entry = s.store.deliveries.get(id);
    if (!entry || entry.companyId !== caller.companyId) {
      errors.push({
        field: `[${i}].deliveryId`,
        value: id,
        message: entry ? rm.deliveryForbidden : rm.deliveryNotFound,
        params: { deliveryId: id },
      });
    }
  });
  if (errors.length > 0) return envelope(422, httpMessages.validationFailed, { errors });
  const ds = ownedDeliveries(s, caller.companyId, ids);
  const cancelled: StoredDelivery[] = [];
  ds.forEach((d, i) => {
    const r = cancelDelivery(d);
    if (r.ok) cancelled.push(r.value);
    else errors.push(...r.errors.map((e) => withIndex(e, i)));
  });
  if (errors.length > 0) return envelope(422, httpMessages.validationFailed, { errors });
  s.store.deliveries.saveAll(caller.companyId, cancelled);
  return envelope(200, rm.canceled);
}

export function addDeliveryRoutes(router: Router, s: Services): void {
  const opts = { api: true };
  // The search takes no body (one sent is ignored); the others read theirs.
  const withBody = { api: true, body: 'contentType' } as const;
  router.add('POST', '/api/v3/deliveries', (ctx) => insert(ctx, s), withBody);
  router.add('GET', '/api/v3/deliveries', (ctx) => search(ctx, s), opts);
  router.add('PUT', '/api/v3/deliveries', (ctx) => edit(ctx, s), withBody);
  router.add('PATCH', '/api/v3/deliveries', (ctx) => close(ctx, s), withBody);
  router.add('DELETE', '/api/v3/deliveries', (ctx) => cancel(ctx, s), withBody);
}
