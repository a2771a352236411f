/**
 * What the sync and the scanner lookup need from the service: three narrow calls. The API client
 * (electron/api) provides them; `shipmentSourceFromClient` adapts it. Records come typed and
 * checked by the client's schemas (electron/api/schemas.ts), so a malformed record is refused in
 * one place, before it gets here.
 */
import { isStationErrorCode, serviceErrorCode, type StationErrorCode } from '../../shared/errors/codes';
import type { CollectionPlace, Delivery } from '../api/index';

/** One page of the cursor walk (spec "GET /api/v3/deliveries", filter `deliveryId>`). */
export type ShipmentPageResult =
  | { kind: 'page'; deliveries: Delivery[]; etag: string | null }
  /** 304: the page has not changed since the ETag sent in If-None-Match. */
  | { kind: 'not_modified' };

export type SearchKey = 'externalId' | 'deliveryNumber' | 'deliveryId';

export interface ShipmentSource {
  /** At most `limit` (<= 100) shipments with deliveryId > afterDeliveryId, lowest ids first. */
  pageAfter(afterDeliveryId: number, limit: number, ifNoneMatch: string | null): Promise<ShipmentPageResult>;
  /** Shipments whose `key` equals `value` (an enumeration filter; none found is an empty list, not an error). */
  findBy(key: SearchKey, value: string): Promise<Delivery[]>;
  /** Shipments by deliveryId, split into requests the service accepts (<= 100 ids, URL < 8000 bytes). */
  getMany(deliveryIds: number[]): Promise<Delivery[]>;
  /** The company's active collection places (spec "GET /api/v2/collection-places"). */
  collectionPlaces(): Promise<CollectionPlace[]>;
}

/** An error as a value: what the UI shows (a registered code to translate, message a person can act on). */
export interface SourceError {
  code: StationErrorCode;
  message: string;
}

/** The client's ServiceError carries `kind` (network, timeout, malformed, http, auth, login_required). */
export function toSourceError(err: unknown): SourceError {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; kind?: unknown; message?: unknown; status?: unknown };
    // A 5xx is the service failing, not refusing: retryable like no answer at all (the scan waits in the queue).
    if (e.kind === 'http' && typeof e.status === 'number' && e.status >= 500 && typeof e.message === 'string') {
      return { code: 'service_unreachable', message: e.message };
    }
    if (typeof e.kind === 'string' && typeof e.message === 'string')
      return { code: serviceErrorCode(e.kind), message: e.message };
    if (typeof e.code === 'string' && isStationErrorCode(e.code) && typeof e.message === 'string')
      return { code: e.code, message: e.message };
    if (typeof e.message === 'string') return { code: 'service_error', message: e.message };
  }
  return { code: 'service_error', message: String(err) };
}
