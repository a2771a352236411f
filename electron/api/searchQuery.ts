/**
 * Query strings of shipment searches (spec "GET /api/v3/deliveries", filter rules 1-5) and the
 * splitting of long id lists so no request asks for more than 100 shipments (the most a search
 * returns) or builds a URL near the ~8000-byte limit that gives 414 (spec "Limits").
 */
import type { DeliverySearch, FilterValue } from './types';

/** Our own ceiling, well under the spec's "about 8000 bytes". */
export const MAX_URL_BYTES = 7500;
export const MAX_RESULTS = 100;

/** Keeps ',' (the enumeration separator), '>' '<' readable is not needed: they are encoded. */
function enc(v: string): string {
  return encodeURIComponent(v).replace(/%2C/gi, ',');
}

function pairsOf(key: string, value: FilterValue): string[] {
  if (typeof value === 'string') return [`${enc(key)}=${enc(value)}`];
  if (Array.isArray(value)) return [`${enc(key)}=${value.map((v) => enc(String(v))).join(',')}`];
  const { gt, lt } = value as { gt?: string | number; lt?: string | number };
  // Rule 4: a prefix makes it a comparison; both bounds are sent as the array `key[]`.
  if (gt !== undefined && lt !== undefined) return [`${enc(key)}[]=${enc('>' + gt)}`, `${enc(key)}[]=${enc('<' + lt)}`];
  if (gt !== undefined) return [`${enc(key)}=${enc('>' + gt)}`];
  if (lt !== undefined) return [`${enc(key)}=${enc('<' + lt)}`];
  return [];
}

/** Builds the query string of one search. */
export function searchQueryString(q: DeliverySearch): string {
  const parts: string[] = [];
  if (q.deliveryIds && q.deliveryIds.length) {
    if (q.filters && 'deliveryId' in q.filters)
      throw new TypeError('Give deliveryIds or a deliveryId filter, not both.');
    parts.push(`deliveryId=${q.deliveryIds.join(',')}`);
  }
  for (const [key, value] of Object.entries(q.filters ?? {})) parts.push(...pairsOf(key, value));
  if (q.fields && q.fields.length) parts.push(`fields=${q.fields.map(enc).join(',')}`);
  return parts.join('&');
}

/**
 * Splits values into chunks of at most `maxCount`, each of whose URL (as built by `urlOf`) stays
 * within `maxBytes`. Values are de-duplicated, order kept. A single value too long on its own is
 * an error (it could never be asked for).
 */
export function splitForUrl<T>(
  values: readonly T[],
  urlOf: (chunk: readonly T[]) => string,
  maxCount = MAX_RESULTS,
  maxBytes = MAX_URL_BYTES,
): T[][] {
  const unique = [...new Set(values)];
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const v of unique) {
    const candidate = [...current, v];
    if (candidate.length <= maxCount && Buffer.byteLength(urlOf(candidate)) <= maxBytes) {
      current = candidate;
      continue;
    }
    if (current.length === 0) throw new RangeError(`A single search value makes a URL longer than ${maxBytes} bytes.`);
    chunks.push(current);
    current = [v];
    if (Buffer.byteLength(urlOf(current)) > maxBytes)
      throw new RangeError(`A single search value makes a URL longer than ${maxBytes} bytes.`);
  }
  if (current.length) chunks.push(current);
  return chunks;
}
