/**
 * The service's resources (spec "Endpoints"), built on core.ts. What is safe to repeat is
 * repeated (GETs); what is not (insert, close, edit, cancel, protocol creation) is sent once,
 * and a lost answer to an insert or close is checked with a search instead.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { isClosedState } from '../../shared/contract/shipments';
import { groupBy } from '../base/groupBy';
import { nextTurn, SLICE_MS } from '../base/slices';
import { createCore, type Core, type CoreResponse } from './core';
import { wireDecimal } from './decimal';
import { ServiceError } from './errors';
import * as S from './schemas';
import { MAX_RESULTS, searchQueryString, splitForUrl } from './searchQuery';
import type { CallOptions, ServiceClient, ServiceClientOptions } from './index';
import type {
  CloseGroup,
  CloseOutcome,
  CloseRequestItem,
  Delivery,
  DeliveryInput,
  DeliveryPart,
  DeliverySearch,
  PackageInput,
  SearchOutcome,
  TicketBatch,
  TransportQuery,
  ZplLabels,
} from './types';

const DELIVERIES = '/api/v3/deliveries';

// Built once: zod compiles a schema's checks on first use, per schema object.
const deliveryList = z.array(S.delivery);
const deliveryPartList = z.array(S.deliveryPart);

/** Reads `data` with a schema; a mismatch is a 'malformed' error naming the first problem. */
function read<T extends z.ZodType>(schema: T, res: CoreResponse, what: string): z.output<T> {
  const parsed = schema.safeParse(res.envelope?.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(data)'}: ${issue.message}` : '';
    throw new ServiceError('malformed', `The service's ${what} could not be read (${where}).`, { status: res.status });
  }
  return parsed.data;
}

/**
 * Reads a list like read(list, ...), one item at a time, letting the event loop run whenever
 * SLICE_MS has passed (the core never blocks for long). A page of 100 shipments is some
 * milliseconds of checks, and far more the first times, before V8 has compiled them.
 */
async function readList<T extends z.ZodType>(
  list: z.ZodArray<T>,
  res: CoreResponse,
  what: string,
): Promise<z.output<T>[]> {
  const data: unknown = res.envelope?.data;
  if (!Array.isArray(data)) return read(list, res, what);
  return readItems(list.element, data, [], res, what);
}

/** Lists up to this long are checked in the turn that parsed them (a scan's lookup, one label). */
const SMALL_LIST = 10;

const deliverySchemas = new Set<z.ZodType>([S.delivery, S.deliveryPart]);

/** The delivery's objects compiled, a turn apart (S.deliveryObjects): once per process. */
let deliveriesWarm: Promise<void> | null = null;
function warmDeliveries(): Promise<void> {
  deliveriesWarm ??= (async () => {
    for (const o of S.deliveryObjects) {
      await nextTurn();
      o.safeParse({});
    }
  })();
  return deliveriesWarm;
}

/**
 * The items of a list read one at a time in slices (see readList). The error is the one the whole
 * list's schema gives: its first issue, at `path` + the item's index (zod reports a list's items in
 * order, and an item's first issue is the same read alone or in its list).
 */
async function readItems<T extends z.ZodType>(
  element: T,
  data: unknown[],
  path: PropertyKey[],
  res: CoreResponse,
  what: string,
): Promise<z.output<T>[]> {
  const out: z.output<T>[] = [];
  if (deliverySchemas.has(element)) await warmDeliveries();
  // A list of more than a few items (a search page of 100 is some 100 KB, a close answer of 500
  // some 400 KB) took its turn already to be read and parsed from JSON: its checks start on the next.
  let deadline = data.length > SMALL_LIST ? 0 : performance.now() + SLICE_MS;
  for (let i = 0; i < data.length; i++) {
    if (performance.now() >= deadline) {
      await nextTurn();
      deadline = performance.now() + SLICE_MS;
    }
    const parsed = element.safeParse(data[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${[...path, i, ...issue.path].map(String).join('.')}: ${issue.message}` : '';
      throw new ServiceError('malformed', `The service's ${what} could not be read (${where}).`, {
        status: res.status,
      });
    }
    out.push(parsed.data);
  }
  return out;
}

/**
 * The close answer's frame (everything but the shipments' own fields), read at once: its issues
 * come before any shipment's (collectionOrders is first in S.closeData), so its errors are those of
 * S.closeData. The closed shipments (a batch's 500 are too many to check in one turn) are then read
 * in slices.
 */
const closeFrame = S.closeData.extend({ deliveries: z.array(z.unknown()) });

async function readCloseData(res: CoreResponse): Promise<z.output<typeof S.closeData>> {
  const frame = read(closeFrame, res, 'close answer');
  const deliveries = await readItems(S.delivery, frame.deliveries, ['deliveries'], res, 'close answer');
  return { ...frame, deliveries };
}

/** Domain item -> wire item: decimals become JSON numbers written digit for digit. */
function wirePackages(p: readonly Partial<PackageInput>[]) {
  return p.map((x) => ({ ...x, ...(x.weight !== undefined ? { weight: wireDecimal(x.weight) } : {}) }));
}
function wireDelivery<T extends Partial<DeliveryInput>>(d: T) {
  return {
    ...d,
    ...(d.value !== undefined ? { value: wireDecimal(d.value) } : {}),
    ...(d.cod !== undefined ? { cod: wireDecimal(d.cod) } : {}),
    ...(d.packages ? { packages: wirePackages(d.packages) } : {}),
  };
}

const isLostAnswer = (e: unknown): e is ServiceError =>
  e instanceof ServiceError && (e.kind === 'network' || e.kind === 'timeout');

export function createServiceClient(
  opts: ServiceClientOptions & {
    /** How the transport search is sent; 'auto' tries GET with a body first (default). */
    transportsMethod?: 'auto' | 'get' | 'post-override';
    /** Pause before checking a lost insert/close answer, so a slow service can finish (default 1000 ms). */
    verifyDelayMs?: number;
  },
): ServiceClient {
  const core: Core = createCore({
    baseUrl: opts.baseUrl,
    tokens: opts.tokens,
    language: opts.language,
    timeoutMs: opts.timeoutMs ?? 20_000,
    log: opts.log,
    getRetries: opts.getRetries ?? 2,
    retryBackoffMs: opts.retryBackoffMs ?? 300,
    beforeChange: opts.beforeChange,
  });
  const base = opts.baseUrl.replace(/\/+$/, '');
  let transportsVia: 'get' | 'post-override' | 'auto' = opts.transportsMethod ?? 'auto';
  const verifyDelayMs = opts.verifyDelayMs ?? 1000;

  async function search(
    q: DeliverySearch,
    o: CallOptions & { etag?: string | null } = {},
  ): Promise<SearchOutcome<DeliveryPart>> {
    const res = await core({
      method: 'GET',
      path: DELIVERIES,
      query: searchQueryString(q),
      retry: true,
      accept: [404],
      headers: o.etag ? { 'if-none-match': o.etag } : undefined,
      signal: o.signal,
    });
    if (res.status === 304) return { status: 'not-modified', etag: res.etag ?? o.etag! };
    if (res.status === 404) {
      // "If none of the requested shipments is found: 404" - an empty result, when the body is the service's.
      if (!res.envelope) throw new ServiceError('http', 'The service answered HTTP 404.', { status: 404 });
      return { status: 'ok', deliveries: [], etag: null };
    }
    const deliveries = q.fields?.length
      ? await readList(deliveryPartList, res, 'shipments')
      : await readList(deliveryList, res, 'shipments');
    return { status: 'ok', deliveries, etag: res.etag };
  }

  /** Runs one search per chunk of values of `key` (ids or externalIds), each within 100 and the URL limit. */
  async function searchChunked(
    key: 'deliveryId' | 'externalId',
    values: readonly (number | string)[],
    o: CallOptions = {},
  ) {
    const urlOf = (chunk: readonly (number | string)[]) =>
      `${base}${DELIVERIES}?${key === 'deliveryId' ? searchQueryString({ deliveryIds: chunk as number[] }) : searchQueryString({ filters: { externalId: chunk.map(String) } })}`;
    const out: Delivery[] = [];
    for (const chunk of splitForUrl(values, urlOf)) {
      const q: DeliverySearch =
        key === 'deliveryId' ? { deliveryIds: chunk as number[] } : { filters: { externalId: chunk.map(String) } };
      const r = await search(q, o);
      if (r.status === 'ok') out.push(...(r.deliveries as Delivery[]));
    }
    return out;
  }

  async function getDeliveriesByIds(ids: readonly number[], o: CallOptions = {}) {
    return searchChunked('deliveryId', ids, o);
  }

  async function verifyInsert(items: readonly DeliveryInput[], err: ServiceError, o: CallOptions): Promise<Delivery[]> {
    const ext = items.map((i) => i.externalId);
    if (ext.some((e) => !e)) {
      opts.log.warn('insert outcome unknown: items without externalId cannot be checked', { count: items.length });
      throw err.withOutcome('unknown');
    }
    try {
      await new Promise((r) => setTimeout(r, verifyDelayMs));
      const found = await searchChunked('externalId', ext as string[], o);
      // The newest shipment per externalId (ids grow): an older one with the same id is not ours.
      const newest = new Map<string, Delivery>();
      for (const d of found) {
        if (d.externalId && (!newest.has(d.externalId) || newest.get(d.externalId)!.deliveryId < d.deliveryId))
          newest.set(d.externalId, d);
      }
      const matched = ext.map((e) => newest.get(e!));
      if (matched.every((d) => d && d.deliveryState === 0)) {
        opts.log.info('insert confirmed by search after a lost answer', { count: items.length });
        return matched as Delivery[];
      }
      if (matched.every((d) => !d)) throw err.withOutcome('not-applied');
      throw err.withOutcome('unknown');
    } catch (e) {
      if (e instanceof ServiceError && e.outcome) throw e;
      throw err.withOutcome('unknown');
    }
  }

  async function closeGroup(items: CloseRequestItem[], o: CallOptions): Promise<CloseOutcome> {
    const ids = items.map((i) => i.deliveryId);
    try {
      const res = await core({
        method: 'PATCH',
        path: DELIVERIES,
        body: { deliveries: ids.map((deliveryId) => ({ deliveryId, closed: true })) },
        items: items.map((i) => ({ deliveryId: i.deliveryId })),
        signal: o.signal,
      });
      const data = await readCloseData(res);
      return {
        status: 'closed',
        deliveries: data.deliveries,
        collectionOrders: data.collectionOrders,
        confirmedBy: 'response',
      };
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      // An error answer (or no token) means the service closed nothing of this group.
      if (e.kind === 'http' || e.kind === 'auth' || e.kind === 'login_required')
        return { status: 'rejected', error: e };
      // No answer, or one we cannot read: the service may have closed them. Check, never resend.
      const error = e;
      try {
        await new Promise((r) => setTimeout(r, verifyDelayMs));
        const now = await getDeliveriesByIds(ids, o);
        const closed = now.filter((d) => d.closed !== null || isClosedState(d.deliveryState));
        const open = ids.filter((id) => !closed.some((d) => d.deliveryId === id));
        if (open.length === 0)
          return { status: 'closed', deliveries: closed, collectionOrders: [], confirmedBy: 'search' };
        if (closed.length === 0) return { status: 'not_closed', error };
        return { status: 'partly-closed', closed, open, error };
      } catch {
        return { status: 'unknown', error };
      }
    }
  }

  async function transportsOnce(
    via: 'get' | 'post-override',
    body: unknown,
    items: readonly TransportQuery[],
    o: CallOptions,
  ) {
    return core({
      method: via === 'get' ? 'GET' : 'POST',
      path: '/api/v3/transports',
      body,
      // A search changes nothing: safe to repeat either way.
      retry: true,
      headers: via === 'post-override' ? { 'x-http-method-override': 'GET' } : undefined,
      items: items.map(() => undefined),
      signal: o.signal,
    });
  }

  const client: ServiceClient = {
    async ping(o = {}) {
      const res = await core({
        method: 'GET',
        path: '/api/',
        auth: false,
        retry: true,
        headers: o.etag ? { 'if-none-match': o.etag } : undefined,
        signal: o.signal,
      });
      if (res.status === 304) return { status: 'not-modified', etag: res.etag ?? o.etag ?? null, message: null };
      const msg = res.envelope?.message;
      return { status: 'ok', etag: res.etag, message: typeof msg === 'string' ? msg : null };
    },

    async insertDeliveries(items, o = {}) {
      if (items.length === 0) return [];
      try {
        const res = await core({
          method: 'POST',
          path: DELIVERIES,
          body: { deliveries: items.map(wireDelivery) },
          items,
          signal: o.signal,
        });
        return read(z.array(S.delivery), res, 'inserted shipments');
      } catch (e) {
        if (isLostAnswer(e)) return verifyInsert(items, e, o);
        throw e;
      }
    },

    searchDeliveries: search as ServiceClient['searchDeliveries'],

    getDeliveriesByIds,

    getDeliveriesByExternalIds: (externalIds, o = {}) => searchChunked('externalId', externalIds, o),

    async *pageDeliveries(q = {}, o = {}) {
      let after = o.afterDeliveryId ?? 0;
      for (;;) {
        // Spec filter rule 4: `deliveryId=>N` is a comparison; the service returns at most 100.
        const r = await search({ filters: { ...q.filters, deliveryId: { gt: after } } }, { signal: o.signal });
        if (r.status !== 'ok') return;
        const page = (r.deliveries as Delivery[]).slice().sort((a, b) => a.deliveryId - b.deliveryId);
        if (page.length) yield page;
        if (page.length < MAX_RESULTS) return;
        after = page[page.length - 1]!.deliveryId;
      }
    },

    async editDeliveries(items, o = {}) {
      if (items.length === 0) return [];
      const res = await core({
        method: 'PUT',
        path: DELIVERIES,
        body: { deliveries: items.map(wireDelivery) },
        headers: o.ifMatch ? { 'if-match': o.ifMatch } : undefined,
        items,
        signal: o.signal,
      });
      return read(z.array(S.delivery), res, 'edited shipments');
    },

    async closeDeliveries(items, o = {}) {
      // Spec "PATCH": one carrier and one collection place per request.
      const groups = groupBy(
        items,
        (i) => `${i.agent}\u0000${i.sender.type === 'collectionPlace' ? (i.sender.collectionPlace ?? '') : ''}`,
      );
      const out: CloseGroup[] = [];
      for (const list of groups.values()) {
        const first = list[0]!;
        const place = first.sender.type === 'collectionPlace' ? (first.sender.collectionPlace ?? null) : null;
        const unique = [...new Map(list.map((i) => [i.deliveryId, i])).values()];
        out.push({
          agent: first.agent,
          collectionPlace: place,
          deliveryIds: unique.map((i) => i.deliveryId),
          outcome: await closeGroup(unique, o),
        });
      }
      return out;
    },

    async cancelDeliveries(ids, o = {}) {
      if (ids.length === 0) return;
      const unique = [...new Set(ids)];
      await core({
        method: 'DELETE',
        path: DELIVERIES,
        body: { deliveries: unique.map((deliveryId) => ({ deliveryId })) },
        items: unique.map((deliveryId) => ({ deliveryId })),
        signal: o.signal,
      });
    },

    async searchTransports(items, o = {}) {
      if (items.length === 0) return [];
      const body = { deliveries: items.map(wireDelivery) };
      let res: CoreResponse;
      if (transportsVia === 'post-override') {
        res = await transportsOnce('post-override', body, items, o);
      } else {
        try {
          res = await transportsOnce('get', body, items, o);
          if (transportsVia === 'auto') transportsVia = 'get';
        } catch (e) {
          // Something on the way refused a GET with a body: the spec's fallback, remembered.
          const refused =
            e instanceof ServiceError && e.kind === 'http' && [400, 405, 411, 413, 501].includes(e.status ?? 0);
          if (transportsVia !== 'auto' || !refused) throw e;
          opts.log.warn('GET with a body refused; using POST with X-HTTP-Method-Override', { status: e.status });
          transportsVia = 'post-override';
          res = await transportsOnce('post-override', body, items, o);
        }
      }
      return read(S.transportResults, res, 'transport search');
    },

    async getTickets(deliveries, o = {}) {
      const out: TicketBatch[] = [];
      for (const [agent, list] of groupBy(deliveries, (d) => d.agent)) {
        const extra = `${o.position ? `&position=${o.position}` : ''}${o.printFormat ? `&printFormat=${o.printFormat}` : ''}`;
        const urlOf = (ids: readonly number[]) => `${base}${DELIVERIES}/tickets?deliveryId=${ids.join(',')}${extra}`;
        for (const ids of splitForUrl(
          list.map((d) => d.deliveryId),
          urlOf,
        )) {
          const res = await core({
            method: 'GET',
            path: `${DELIVERIES}/tickets`,
            query: `deliveryId=${ids.join(',')}${extra}`,
            retry: true,
            signal: o.signal,
          });
          for (const t of read(S.tickets, res, 'labels'))
            out.push({ agent, deliveryIds: ids, created: t.created, pdf: t.contents });
        }
      }
      return out;
    },

    async getZpl(deliveries, o = {}) {
      const out: ZplLabels[] = [];
      for (const [agent, list] of groupBy(deliveries, (d) => d.agent)) {
        const size = typeof o.size === 'function' ? o.size(agent) : o.size;
        const extra = size ? `&size=${size}` : '';
        const urlOf = (ids: readonly number[]) => `${base}${DELIVERIES}/zpl?deliveryId=${ids.join(',')}${extra}`;
        for (const ids of splitForUrl(
          list.map((d) => d.deliveryId),
          urlOf,
        )) {
          const res = await core({
            method: 'GET',
            path: `${DELIVERIES}/zpl`,
            query: `deliveryId=${ids.join(',')}${extra}`,
            retry: true,
            signal: o.signal,
          });
          // 500 shipments' labels are a big answer: checked in slices, like a close answer.
          out.push(...(await readList(S.zplItems, res, 'ZPL labels')));
        }
      }
      return out;
    },

    async getTraces(ids, o = {}) {
      const out: z.output<typeof S.traceItems> = [];
      const urlOf = (chunk: readonly number[]) => `${base}${DELIVERIES}/traces?deliveryId=${chunk.join(',')}`;
      for (const chunk of splitForUrl(ids, urlOf)) {
        const res = await core({
          method: 'GET',
          path: `${DELIVERIES}/traces`,
          query: `deliveryId=${chunk.join(',')}`,
          retry: true,
          signal: o.signal,
        });
        out.push(...read(S.traceItems, res, 'traces'));
      }
      return out;
    },

    async createCollectionProtocol(req, o = {}) {
      const res = await core({
        method: 'POST',
        path: '/api/v2/collection-protocols',
        body: { agent: req.agent, collectionPlace: req.collectionPlace },
        signal: o.signal,
      });
      return read(S.collectionProtocol, res, 'collection protocol');
    },

    async getCollectionProtocol(id, o = {}) {
      const res = await core({
        method: 'GET',
        path: '/api/v2/collection-protocols',
        query: `collectionProtocolId=${encodeURIComponent(String(id))}`,
        retry: true,
        signal: o.signal,
      });
      return read(S.collectionProtocol, res, 'collection protocol');
    },

    async getCollectionPlaces(o = {}) {
      const res = await core({ method: 'GET', path: '/api/v2/collection-places', retry: true, signal: o.signal });
      return read(S.collectionPlaces, res, 'collection places');
    },
  };
  return client;
}
