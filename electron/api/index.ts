/**
 * The shipping service client: the station's one way to talk to the service
 * (the Parcel Shipping Client API specification). Plain Node; JSON on the wire.
 *
 * Failures throw `ServiceError` (kind, status, the service's message, errors[] mapped to the
 * shipment), except closeDeliveries, which reports an outcome per close group.
 */
import type { Logger } from '../rpc/rpcServer';
import type {
  CloseGroup,
  CloseRequestItem,
  CollectionPlace,
  CollectionProtocol,
  Delivery,
  DeliveryEdit,
  DeliveryField,
  DeliveryInput,
  DeliveryPart,
  DeliverySearch,
  PingOutcome,
  PrintFormat,
  SearchOutcome,
  TicketBatch,
  Traces,
  TransportQuery,
  TransportResult,
  ZplLabels,
  ZplSize,
} from './types';

export * from './types';
export {
  ServiceError,
  isServiceError,
  type ServiceErrorKind,
  type ShipmentFieldError,
  type UnknownOutcome,
} from './errors';
export { createServiceClient } from './client';

/**
 * Where the client gets its Bearer token (the token manager implements it).
 * Both throw ServiceError kind 'login_required' when the user must log in again.
 */
export interface AccessTokenSource {
  /** A valid access token, renewed shortly before it expires; one renewal shared by all callers. */
  accessToken(): Promise<string>;
  /**
   * The service answered 401 invalid_token to `rejected`: renew once (or return the token another
   * caller already renewed). The client retries the request once with the result, never more.
   */
  renewAfterRejection(rejected: string): Promise<string>;
}

export interface ServiceClientOptions {
  /** e.g. "http://127.0.0.1:53000" or "https://api.example.cz"; paths are appended. */
  baseUrl: string;
  tokens: AccessTokenSource;
  /** The UI language, sent as accept-language (Czech messages, spec "Common conventions" 9). */
  language: () => 'en' | 'cs';
  /** Per request; default 20 s (labels "can take several seconds"). */
  timeoutMs?: number;
  log: Logger;
  /** GET retries after a network failure, timeout or 5xx (default 2; 0 turns them off). */
  getRetries?: number;
  /** First backoff before a GET retry (doubles each time; default 300 ms). */
  retryBackoffMs?: number;
  /** Awaited before every request but a GET: what allows the change is on the disk first (core.ts). */
  beforeChange?: () => Promise<void>;
}

/** Options every call accepts. */
export interface CallOptions {
  /** Cancels the call (together with the client's time limit). */
  signal?: AbortSignal;
}

export interface ServiceClient {
  /** GET /api/ (no auth) with If-None-Match. */
  ping(opts?: CallOptions & { etag?: string | null }): Promise<PingOutcome>;

  /**
   * POST /api/v3/deliveries with all items in one request (the spec asks for several per request).
   * Without an answer (network/timeout) it searches the items' externalIds: all found -> returns
   * them; none -> throws with outcome 'not-applied'; otherwise outcome 'unknown'. Never retried blindly.
   */
  insertDeliveries(items: readonly DeliveryInput[], opts?: CallOptions): Promise<Delivery[]>;

  /** GET /api/v3/deliveries: one request (at most 100 results). 404 "none found" = empty list. */
  searchDeliveries(
    query: DeliverySearch & { fields?: undefined },
    opts?: CallOptions & { etag?: string | null },
  ): Promise<SearchOutcome<Delivery>>;
  searchDeliveries(
    query: DeliverySearch & { fields: readonly DeliveryField[] },
    opts?: CallOptions & { etag?: string | null },
  ): Promise<SearchOutcome<DeliveryPart>>;

  /** Any number of ids, split so each request has at most 100 ids and a URL under ~7500 bytes. Missing ids are simply absent. */
  getDeliveriesByIds(ids: readonly number[], opts?: CallOptions): Promise<Delivery[]>;

  /** Shipments by the client's own ids (externalId enumeration), split like getDeliveriesByIds. */
  getDeliveriesByExternalIds(externalIds: readonly string[], opts?: CallOptions): Promise<Delivery[]>;

  /**
   * Cursor paging (spec filter rule 4, `deliveryId=>N`): yields pages of up to 100 in ascending
   * deliveryId, starting after `afterDeliveryId` (default: from the start).
   */
  pageDeliveries(
    query?: Omit<DeliverySearch, 'deliveryIds' | 'fields'>,
    opts?: CallOptions & { afterDeliveryId?: number },
  ): AsyncGenerator<Delivery[], void, void>;

  /** PUT /api/v3/deliveries; `ifMatch` = an ETag from a GET without fields (412 when changed). */
  editDeliveries(items: readonly DeliveryEdit[], opts?: CallOptions & { ifMatch?: string }): Promise<Delivery[]>;

  /**
   * PATCH /api/v3/deliveries with `closed: true`, one request per carrier + sender collection
   * place. Never retried blindly: a lost answer is checked by searching the ids' states.
   */
  closeDeliveries(items: readonly CloseRequestItem[], opts?: CallOptions): Promise<CloseGroup[]>;

  /** DELETE /api/v3/deliveries (state 10). */
  cancelDeliveries(deliveryIds: readonly number[], opts?: CallOptions): Promise<void>;

  /** GET /api/v3/transports with a JSON body; POST + X-HTTP-Method-Override: GET when GET with a body fails. */
  searchTransports(items: readonly TransportQuery[], opts?: CallOptions): Promise<TransportResult[]>;

  /** PDF labels, one request per carrier (spec Limits: one carrier per label request). */
  getTickets(
    deliveries: readonly { deliveryId: number; agent: string }[],
    opts?: CallOptions & { position?: 1 | 2 | 3 | 4; printFormat?: PrintFormat },
  ): Promise<TicketBatch[]>;

  /** ZPL labels, one request per carrier; `size` per carrier (spec "GET .../zpl"). */
  getZpl(
    deliveries: readonly { deliveryId: number; agent: string }[],
    opts?: CallOptions & { size?: ZplSize | ((agent: string) => ZplSize | undefined) },
  ): Promise<ZplLabels[]>;

  getTraces(deliveryIds: readonly number[], opts?: CallOptions): Promise<Traces[]>;

  createCollectionProtocol(
    req: { agent: string; collectionPlace: string },
    opts?: CallOptions,
  ): Promise<CollectionProtocol>;
  getCollectionProtocol(collectionProtocolId: number, opts?: CallOptions): Promise<CollectionProtocol>;
  getCollectionPlaces(opts?: CallOptions): Promise<CollectionPlace[]>;
}
