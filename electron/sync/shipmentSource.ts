/**
 * What the sync and the scanner lookup need from the service: three narrow calls. The API client
 * (electron/api) provides them; `shipmentSourceFromClient` adapts it. Records stay raw JSON here
 * and are parsed by shipmentFromDelivery, so a malformed record is refused in one place.
 */

/** One page of the cursor walk (spec "GET /api/v3/deliveries", filter `deliveryId>`). */
export type ShipmentPageResult =
  | { kind: 'page'; deliveries: unknown[]; etag: string | null }
  /** 304: the page has not changed since the ETag sent in If-None-Match. */
  | { kind: 'not_modified' };

export type SearchKey = 'externalId' | 'deliveryNumber' | 'deliveryId';

export interface ShipmentSource {
  /** At most `limit` (<= 100) shipments with deliveryId > afterDeliveryId, lowest ids first. */
  pageAfter(afterDeliveryId: number, limit: number, ifNoneMatch: string | null): Promise<ShipmentPageResult>;
  /** Shipments whose `key` equals `value` (an enumeration filter; none found is an empty list, not an error). */
  findBy(key: SearchKey, value: string): Promise<unknown[]>;
  /** Shipments by deliveryId, split into requests the service accepts (<= 100 ids, URL < 8000 bytes). */
  getMany(deliveryIds: number[]): Promise<unknown[]>;
  /** The company's active collection places (spec "GET /api/v2/collection-places"). */
  collectionPlaces(): Promise<unknown[]>;
}

/** An error as a value: what the UI shows (code to translate, message a person can act on). */
export interface SourceError {
  code: string;
  message: string;
}

/** The client's ServiceError carries `kind` (network, timeout, malformed, http, auth, login-required). */
export function toSourceError(err: unknown): SourceError {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; kind?: unknown; message?: unknown; status?: unknown };
    // A 5xx is the service failing, not refusing: retryable like no answer at all (the scan waits in the queue).
    if (e.kind === 'http' && typeof e.status === 'number' && e.status >= 500 && typeof e.message === 'string') {
      return { code: 'service_unreachable', message: e.message };
    }
    if (typeof e.kind === 'string' && typeof e.message === 'string') return { code: `service_${e.kind.replace(/-/g, '_')}`, message: e.message };
    if (typeof e.code === 'string' && typeof e.message === 'string') return { code: e.code, message: e.message };
    if (typeof e.message === 'string') return { code: 'service_error', message: e.message };
  }
  return { code: 'service_error', message: String(err) };
}
