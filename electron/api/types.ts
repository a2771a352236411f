/**
 * The station's own types for the shipping service (spec "Resources and their fields").
 * Written from the spec, never shared with the sandbox: tests between the two catch a misreading.
 * What the service ANSWERS is typed by the zod schemas that read it (schemas.ts, `z.output`);
 * what the station SENDS (inputs, search requests) is written here.
 *
 * Money and weights are `Decimal`: exact decimal text with a '.' separator ("2.3", "1250.50").
 * The client never turns them into floats, so nothing drifts (spec "Common conventions" 5, 6).
 */
import type { z } from 'zod';
import type { Decimal } from '../../shared/decimal';
import type * as S from './schemas';
import { shipmentStates } from '../../shared/contract/shipments';

export type { Decimal };

export type PartyType = 'address' | 'collectionPlace' | 'pickUpPlace';

export interface Address {
  street: string;
  streetNumber?: string;
  city: string;
  postalCode: string;
  /** ISO 3166-2 style country code. */
  state: string;
}

/** Spec "Delivery: request fields" for `<party>`; which keys are needed depends on `type` ("Party type rules"). */
export interface PartyInput {
  type: PartyType;
  address?: Address;
  collectionPlace?: string;
  pickUpPlace?: string;
  firstname?: string;
  surname?: string;
  contactPerson?: string;
  email?: string;
  phone?: string;
}

export interface PackageInput {
  /** kg */
  weight: Decimal;
  /** cm; conditional (transport search says `dimensionsRequired`). */
  length?: number;
  width?: number;
  height?: number;
}

export interface ExtraService {
  code: string;
  arguments?: Record<string, string>;
}

/** One item of an insert (POST) request. */
export interface DeliveryInput {
  recipient: PartyInput;
  sender: PartyInput;
  value: Decimal;
  valueCurrency: string;
  cod?: Decimal;
  codCurrency?: string;
  variableSymbol?: string;
  packages: PackageInput[];
  deliveryType: string;
  agent: string;
  extraServices?: ExtraService[];
  ticketNote?: string;
  /** The client's own id of the shipment; also how an insert with an unknown outcome is checked. */
  externalId?: string;
}

/** One item of an edit (PUT) request: all insert fields plus the id (spec "PUT"). */
export interface DeliveryEdit extends DeliveryInput {
  deliveryId: number;
}

/**
 * Spec "States and transitions": the service's state ids. The names are the station's one enum,
 * `shipmentStates` in shared/contract/shipments.ts (the renderer shows them too); the wire
 * carries only the numbers, so no mapping is needed at the boundary.
 */
export type DeliveryState = (typeof shipmentStates)[keyof typeof shipmentStates];
export const DELIVERY_STATES: readonly DeliveryState[] = Object.values(shipmentStates);

/** Spec "Delivery: response fields", as schemas.ts reads them. */
export type Delivery = z.output<typeof S.delivery>;
/** A party as the service returns it (expanded after creation, reduced after closing). */
export type Party = Delivery['recipient'];
/** A package; `barcode` is filled only after closing. */
export type Package = Delivery['packages'][number];

/** Names accepted by `fields` (spec "GET /api/v3/deliveries"). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written as a list, as the spec has it; only its type is used
const DELIVERY_FIELDS = [
  'deliveryId',
  'externalId',
  'deliveryNumber',
  'deliveryState',
  'deliveryStateName',
  'value',
  'valueCurrency',
  'closed',
  'cod',
  'codCurrency',
  'source',
  'sourceName',
  'variableSymbol',
  'ticketNote',
  'created',
  'agent',
  'deliveryType',
  'extraServices',
  'recipient',
  'sender',
  'packages',
] as const;
export type DeliveryField = (typeof DELIVERY_FIELDS)[number];

/** A search answer with `fields`: only the requested keys are present. */
export type DeliveryPart = Partial<Delivery>;

/**
 * A search filter value (spec "GET /api/v3/deliveries", filter rules):
 * - a string: full-text (rule 2) or a single enumeration value (rule 3);
 * - a string array: enumeration, sent comma-separated (rule 3);
 * - `{ gt?, lt? }`: comparison with `>` / `<` (rule 4); both give a range sent as `key[]`.
 */
export type FilterValue = string | readonly string[] | { gt?: string | number; lt?: string | number };

export interface DeliverySearch {
  /** Exact ids (an enumeration). Use getDeliveriesByIds for more than fit one request. */
  deliveryIds?: readonly number[];
  /** Other filter keys: `agent`, `externalId`, `recipient.surname`, `created`, `deliveryState`, ... */
  filters?: Readonly<Record<string, FilterValue>>;
  /** Subset of keys to return; omitted = all data. */
  fields?: readonly DeliveryField[];
}

export type SearchOutcome<T> =
  | { status: 'ok'; deliveries: T[]; etag: string | null }
  /** `If-None-Match` matched: nothing changed since that ETag (spec: 304, empty body). */
  | { status: 'not-modified'; etag: string };

export type CollectionOrder = z.output<typeof S.collectionOrder>;

/** What the caller gives closeDeliveries: enough to group by carrier + sender collection place. */
export interface CloseRequestItem {
  deliveryId: number;
  agent: string;
  sender: Pick<Party, 'type' | 'collectionPlace'>;
}

/** One close group: one carrier + one collection place (spec "PATCH", Limits). */
export interface CloseGroup {
  agent: string;
  /** null when the sender is not a collection place. */
  collectionPlace: string | null;
  deliveryIds: number[];
  outcome: CloseOutcome;
}

export type CloseOutcome =
  /** Closed; `confirmedBy: 'search'` when the answer was lost and a search showed them closed (pick-up orders then unknown). */
  | {
      status: 'closed';
      deliveries: Delivery[];
      collectionOrders: CollectionOrder[];
      confirmedBy: 'response' | 'search';
    }
  /** The service answered with an error: nothing of this group was closed. */
  | { status: 'rejected'; error: import('./errors').ServiceError }
  /** The answer was lost; a search showed none closed: safe to try again. */
  | { status: 'not_closed'; error: import('./errors').ServiceError }
  /** The answer was lost; a search showed some closed and some not. */
  | { status: 'partly-closed'; closed: Delivery[]; open: number[]; error: import('./errors').ServiceError }
  /** The answer was lost and the check failed too: the state is unknown until the next search. */
  | { status: 'unknown'; error: import('./errors').ServiceError };

/** Spec "Transport option", as schemas.ts reads it. Prices are decimals; null = unpaid. */
export type TransportResult = z.output<typeof S.transportResults>[number];
export type Transport = TransportResult['transports'][number];
export type TransportPrice = NonNullable<Transport['price']>;
export type TransportExtraService = Transport['extraServices'][number];
/** Items for a transport search: insert fields, most optional; package dimensions always required. */
export interface TransportQuery {
  recipient: Partial<PartyInput> & { type: PartyType };
  sender: Partial<PartyInput> & { type: PartyType };
  value: Decimal;
  valueCurrency: string;
  cod?: Decimal;
  codCurrency?: string;
  packages: Required<Pick<PackageInput, 'weight' | 'length' | 'width' | 'height'>>[];
}

/** Labels of one carrier (spec "GET /api/v3/deliveries/tickets"). */
export interface TicketBatch {
  agent: string;
  deliveryIds: number[];
  created: string | null;
  /** The decoded PDF (spec "Common conventions" 8). */
  pdf: Buffer;
}
export type PrintFormat = 'default' | 'single';
export type ZplSize = '10x5' | '10x15' | '10x17';

/** One label per package. */
export type ZplLabels = z.output<typeof S.zplItems>[number];
export type Traces = z.output<typeof S.traceItems>[number];
/** The protocol PDF decoded. */
export type CollectionProtocol = z.output<typeof S.collectionProtocol>;
export type CollectionPlace = z.output<typeof S.collectionPlaces>[number];

export interface PingOutcome {
  status: 'ok' | 'not-modified';
  etag: string | null;
  message: string | null;
}
