/** Helpers the resource routes share: reading `deliveries` lists, ids, ownership, fields, ETags. */
import {
  presentDelivery,
  advanceDelivery,
  type CollectionPlaceRecord,
  type DomainResult,
  type FieldError,
  type StoredDelivery,
} from '../domain/index';
import type { RequestContext } from '../http/context';
import { envelope, ReplyNow, type ErrorItem } from '../http/envelope';
import { etagOf } from '../http/etag';
import { httpMessages } from '../http/messages';
import type { Msg } from '../i18n';
import type { Services } from '../services';
import { routeMessages as rm } from './messages';

/** Shipments per write request (the spec sets none; 1000 keeps one request's work bounded). */
export const MAX_ITEMS_PER_REQUEST = 1000;

/** The `deliveries` list of a request body (spec "<deliveries list>"); 422 when absent or empty. */
export function deliveriesOf(body: Record<string, unknown>): unknown[] {
  const items = body.deliveries;
  if (!Array.isArray(items) || items.length === 0) {
    throw new ReplyNow(
      envelope(422, rm.deliveriesMissing, {
        errors: [{ field: 'deliveries', value: items ?? null, message: rm.deliveriesMissing }],
      }),
    );
  }
  if (items.length > MAX_ITEMS_PER_REQUEST) {
    throw new ReplyNow(envelope(422, rm.tooMany, { params: { max: MAX_ITEMS_PER_REQUEST } }));
  }
  return items;
}

/** `fields` of the query (spec "GET /api/v3/deliveries"): comma-separated; unknown names are the domain's to ignore. */
export function fieldsOf(ctx: RequestContext): string[] | undefined {
  const raw = ctx.query.getAll('fields').join(',');
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 ? names : undefined;
}

/** A positive integer id from a number or a numeric string (types in requests are informative). */
export function idOf(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,15}$/.test(text)) return null;
  const n = Number(text);
  return n > 0 ? n : null;
}

/** The deliveryId of each item, or a 422 with one error per bad item. Duplicates are refused too. */
export function itemIds(
  items: unknown[],
  check?: (item: Record<string, unknown>, index: number) => ErrorItem | null,
): number[] {
  const errors: ErrorItem[] = [];
  const ids: number[] = [];
  items.forEach((item, i) => {
    const rec = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const id = idOf(rec.deliveryId);
    if (rec.deliveryId === undefined || rec.deliveryId === null || rec.deliveryId === '') {
      errors.push({ field: `[${i}].deliveryId`, value: rec.deliveryId ?? null, message: rm.deliveryIdRequired });
    } else if (id === null) {
      errors.push({ field: `[${i}].deliveryId`, value: rec.deliveryId, message: rm.deliveryIdInvalid });
    } else if (ids.includes(id)) {
      errors.push({
        field: `[${i}].deliveryId`,
        value: rec.deliveryId,
        message: rm.deliveryIdDuplicate,
        params: { deliveryId: id },
      });
    } else {
      ids.push(id);
      const extra = check?.(rec, i);
      if (extra) errors.push(extra);
    }
  });
  if (errors.length > 0) throw new ReplyNow(envelope(422, httpMessages.validationFailed, { errors }));
  return ids;
}

/**
 * The company's shipments by id, moved along by the clock first. A missing id -> 404, another
 * company's -> 403 (spec "PATCH", "Errors"), unless the caller maps both to something else.
 */
export function ownedDeliveries(
  s: Services,
  companyId: number,
  ids: number[],
  onMissing?: (id: number, other: boolean) => never,
): StoredDelivery[] {
  const out: StoredDelivery[] = [];
  for (const id of ids) {
    const entry = s.store.deliveries.get(id);
    if (!entry || entry.companyId !== companyId) {
      onMissing?.(id, !!entry);
      throw new ReplyNow(
        envelope(entry ? 403 : 404, entry ? rm.deliveryForbidden : rm.deliveryNotFound, { params: { deliveryId: id } }),
      );
    }
    out.push(entry.delivery);
  }
  return currentStates(s, companyId, out);
}

/** Spec "States and transitions" (after closing): states follow the sandbox clock; stored when they move. */
export function currentStates(s: Services, companyId: number, ds: StoredDelivery[]): StoredDelivery[] {
  const now = s.clock.now();
  const moved: StoredDelivery[] = [];
  const out = ds.map((d) => {
    if (d.deliveryState !== 1 && d.deliveryState !== 2) return d;
    const next = advanceDelivery(d, now);
    if (next !== d && (next.deliveryState !== d.deliveryState || next.version !== d.version)) moved.push(next);
    return next;
  });
  if (moved.length > 0) s.store.deliveries.saveAll(companyId, moved);
  return out;
}

export function present(
  ds: StoredDelivery[],
  places: CollectionPlaceRecord[],
  fields?: string[],
): Record<string, unknown>[] {
  return ds.map((d) => presentDelivery(d, { places, fields }));
}

/**
 * A list's ETag: ids and versions plus the selected fields (see http/etag.ts). Without `fields`
 * this is the tag a PUT's If-Match is compared with. It names a set of shipments, so it does not
 * depend on the order they were asked for or sent in (spec "PUT": 412 only "if the data changed").
 */
export function deliveriesEtag(ds: StoredDelivery[], fields?: string[]): string {
  const f = fields ? [...new Set(fields)].sort().join(',') : '*';
  const versions = [...ds].sort((a, b) => a.deliveryId - b.deliveryId).map((d) => `${d.deliveryId}:${d.version}`);
  return etagOf('deliveries', f, ...versions);
}

/** A domain failure as an envelope; field paths get the item's [index] when the domain had none. */
export function domainFailure(r: Extract<DomainResult<unknown>, { ok: false }>, index?: number): ReplyNow {
  const errors = r.errors.map((e) => withIndex(e, index));
  return new ReplyNow(
    envelope(r.status ?? 422, r.message ?? httpMessages.validationFailed, errors.length > 0 ? { errors } : {}),
  );
}

export function withIndex(e: FieldError, index?: number): ErrorItem {
  if (index === undefined || e.field.startsWith('[')) return e;
  return { ...e, field: `[${index}]${e.field ? `.${e.field}` : ''}` };
}

export function fail(status: number, message: Msg, errors?: ErrorItem[]): ReplyNow {
  return new ReplyNow(envelope(status, message, errors ? { errors } : {}));
}
