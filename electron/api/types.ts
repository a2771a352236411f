/**
 * The station's own types for the shipping service (spec "Resources and their fields").
 * Written from the spec, never shared with the sandbox: tests between the two catch a misreading.
 *
 * Money and weights are `Decimal`: exact decimal text with a '.' separator ("2.3", "1250.50").
 * The client never turns them into floats, so nothing drifts (spec "Common conventions" 5, 6).
 */

/** Exact decimal text, '.' as separator, optional leading '-'. */
export type Decimal = string;

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

/** Spec "States and transitions". */
export const DELIVERY_STATES = [0, 1, 2, 3, 4, 5, 6, 10] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DeliveryStates = {
  prepared: 0,
  closedNotSent: 1,
  sent: 2,
  delivered: 3,
  returned: 4,
  delivered2: 5,
  returned2: 6,
  cancelled: 10,
} as const satisfies Record<string, DeliveryState>;

/** A party as the service returns it: after creation a collection place is expanded, after closing it is reduced. */
export interface Party {
  type?: PartyType;
  address?: Partial<Address>;
  collectionPlace?: string;
  pickUpPlace?: string;
  firstname?: string | null;
  surname?: string | null;
  contactPerson?: string | null;
  email?: string | null;
  phone?: string | null;
  /** Expanded collection place: its name (spec "Delivery: response fields", observed behaviour). */
  name?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
  state?: string | null;
}

export interface Package {
  weight: Decimal;
  length: number | null;
  width: number | null;
  height: number | null;
  /** Filled only after closing. */
  barcode: string | null;
}

/** Spec "Delivery: response fields". */
export interface Delivery {
  deliveryId: number;
  deliveryNumber: string | null;
  deliveryState: DeliveryState;
  deliveryStateName: string;
  /** null = unknown; 1 manual, 2 CSV, 3 API. */
  source: number | null;
  sourceName: string | null;
  created: string;
  closed: string | null;
  agent: string;
  deliveryType: string;
  value: Decimal;
  valueCurrency: string;
  cod: Decimal | null;
  codCurrency: string | null;
  variableSymbol: string | null;
  externalId: string | null;
  ticketNote: string | null;
  extraServices: ExtraService[];
  packages: Package[];
  recipient: Party;
  sender: Party;
}

/** Names accepted by `fields` (spec "GET /api/v3/deliveries"). */
export const DELIVERY_FIELDS = [
  'deliveryId', 'externalId', 'deliveryNumber', 'deliveryState', 'deliveryStateName', 'value', 'valueCurrency',
  'closed', 'cod', 'codCurrency', 'source', 'sourceName', 'variableSymbol', 'ticketNote', 'created', 'agent',
  'deliveryType', 'extraServices', 'recipient', 'sender', 'packages',
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

export interface CollectionOrder {
  agent: string;
  /** YYYY-MM-DD */
  scheduled: string;
  collectionPlace: string;
}

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
  | { status: 'closed'; deliveries: Delivery[]; collectionOrders: CollectionOrder[]; confirmedBy: 'response' | 'search' }
  /** The service answered with an error: nothing of this group was closed. */
  | { status: 'rejected'; error: import('./errors').ServiceError }
  /** The answer was lost; a search showed none closed: safe to try again. */
  | { status: 'not-closed'; error: import('./errors').ServiceError }
  /** The answer was lost; a search showed some closed and some not. */
  | { status: 'partly-closed'; closed: Delivery[]; open: number[]; error: import('./errors').ServiceError }
  /** The answer was lost and the check failed too: the state is unknown until the next search. */
  | { status: 'unknown'; error: import('./errors').ServiceError };

/** Spec "Transport option". Prices are decimals. */
export interface TransportPrice {
  base: Decimal | null;
  total: Decimal;
  currency: string;
  fees: { categoryName: string; category: number | null; fee: Decimal }[];
}
export interface TransportExtraService {
  code: string;
  name: string;
  description: string;
  implicit: boolean;
  bans: string[];
  arguments: { name: string; identifier: string; example: string }[];
  /** null = unpaid service. */
  price: { total: Decimal; currency: string } | null;
}
export interface Transport {
  agent: { code: string; name: string };
  deliveryType: { code: string; name: string; phoneRequired: boolean; dimensionsRequired: boolean };
  deliveryTime: {
    pickUpFrom: string | null;
    pickUpTo: string | null;
    minDeliveryFrom: string | null;
    minDeliveryTo: string | null;
    maxDeliveryFrom: string | null;
    maxDeliveryTo: string | null;
  };
  insurance: { description: string } | null;
  extraServices: TransportExtraService[];
  /** null = unpaid transport. */
  price: TransportPrice | null;
}
export interface TransportResult {
  /** Zero-based index of the requested shipment. */
  delivery: number;
  transports: Transport[];
}
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

export interface ZplLabels {
  deliveryId: number;
  /** One label per package. */
  zplCodes: string[];
}

export interface Traces {
  deliveryId: number;
  lastChecked: string | null;
  traces: { date: string; text: string }[];
}

export interface CollectionProtocol {
  collectionProtocolId: number;
  agent: string;
  collectionPlace: string;
  /** The decoded PDF. */
  protocol: Buffer;
  created: string;
  deliveries: number[];
}

export interface CollectionPlace {
  identificator: string;
  name: string;
  email: string | null;
  phone: string | null;
  contactPerson: string | null;
  state: string;
  city: string;
  street: string;
  postalCode: string;
}

export interface PingOutcome {
  status: 'ok' | 'not-modified';
  etag: string | null;
  message: string | null;
}
