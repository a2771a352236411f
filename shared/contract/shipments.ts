/**
 * Shipments as the station knows them: the service's delivery records (spec "Delivery: response
 * fields") in the station's own shape, read from the local cache. Also the scanner lookup, the
 * scan log and the shipment sync, which the UI drives through these methods and events.
 *
 * Money and weights are exact decimal strings ("12.50", "2.3"): never floats (spec "Common
 * conventions" 5-6: the service sends numbers, strings or decimal commas; we normalise to a
 * decimal point and keep the digits: shared/decimal.ts).
 */
import { z } from 'zod';
import { DECIMAL_PATTERN } from '../decimal';
import { scanLogOutcomes } from '../errors/codes';

/** An exact decimal with a point, e.g. "1234.5" or "-0.25". */
export const decimalString = z.string().regex(DECIMAL_PATTERN, 'expected a decimal number like 12.50');

/** Spec "States and transitions". 1-6 are closed; 10 is cancelled. */
export const shipmentStates = {
  prepared: 0,
  closedUnsent: 1,
  sent: 2,
  delivered: 3,
  returned: 4,
  delivered2: 5,
  returned2: 6,
  cancelled: 10,
} as const;

export type ShipmentState = (typeof shipmentStates)[keyof typeof shipmentStates];

/** Closed at the service, whatever happened after (sent, delivered, returned): states 1-6. */
export const isClosedState = (state: number): boolean =>
  state >= shipmentStates.closedUnsent && state <= shipmentStates.returned2;

/** The states as a worker names them: the spec's two "delivered" (3, 5) and two "returned" (4, 6) are one each. */
export const shipmentStateFamilies = {
  prepared: [shipmentStates.prepared],
  closed: [shipmentStates.closedUnsent],
  sent: [shipmentStates.sent],
  delivered: [shipmentStates.delivered, shipmentStates.delivered2],
  returned: [shipmentStates.returned, shipmentStates.returned2],
  cancelled: [shipmentStates.cancelled],
} as const satisfies Record<string, readonly ShipmentState[]>;

export type ShipmentStateFamily = keyof typeof shipmentStateFamilies;

/** The family of a state, or null for a state the spec does not name. */
export function stateFamily(state: number): ShipmentStateFamily | null {
  for (const [family, states] of Object.entries(shipmentStateFamilies) as [ShipmentStateFamily, readonly number[]][])
    if (states.includes(state)) return family;
  return null;
}

export const shipmentAddress = z.object({
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  state: z.string().nullable(),
});

/** Recipient or sender (spec "Delivery: request fields", `<party>`); every field may be absent in a response. */
export const shipmentParty = z.object({
  type: z.string().nullable(),
  collectionPlace: z.string().nullable(),
  pickUpPlace: z.string().nullable(),
  /** A collection-place sender is shown expanded after creation or edit: its name. */
  name: z.string().nullable(),
  firstname: z.string().nullable(),
  surname: z.string().nullable(),
  contactPerson: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: shipmentAddress.nullable(),
});

export const shipmentPackage = z.object({
  /** Package barcode; filled only after closing. */
  barcode: z.string().nullable(),
  /** Weight in kg as an exact decimal string. */
  weight: decimalString.nullable(),
  length: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

export const shipmentExtraService = z.object({
  code: z.string(),
  arguments: z.record(z.string(), z.string()),
});

export const shipment = z.object({
  /** The station account (company) the shipment belongs to: several companies never mix. */
  accountId: z.string(),
  deliveryId: z.number().int().positive(),
  externalId: z.string().nullable(),
  /** Carrier's shipment number; filled only after closing. */
  deliveryNumber: z.string().nullable(),
  state: z.number().int(),
  stateName: z.string().nullable(),
  /** Carrier code. */
  agent: z.string().nullable(),
  deliveryType: z.string().nullable(),
  /** The sender's collection place identifier when the sender is one (closing groups by it). */
  collectionPlace: z.string().nullable(),
  recipient: shipmentParty,
  sender: shipmentParty,
  value: decimalString.nullable(),
  valueCurrency: z.string().nullable(),
  cod: decimalString.nullable(),
  codCurrency: z.string().nullable(),
  variableSymbol: z.string().nullable(),
  ticketNote: z.string().nullable(),
  packages: z.array(shipmentPackage),
  extraServices: z.array(shipmentExtraService),
  source: z.number().int().nullable(),
  sourceName: z.string().nullable(),
  created: z.string().nullable(),
  closed: z.string().nullable(),
  /** ETag of the last single-shipment GET without `fields` (usable for If-Match on edit), if known. */
  etag: z.string().nullable(),
  /** Increases by one every time the cached record changes. */
  version: z.number().int(),
  /** When the station last stored this record from the service (ISO 8601). */
  syncedAt: z.string(),
});

export type Shipment = z.infer<typeof shipment>;
export type ShipmentParty = z.infer<typeof shipmentParty>;
export type ShipmentPackage = z.infer<typeof shipmentPackage>;

/** The keys a scanned code can match, in the cache lookup's order (see electron/lookup/lookupScan.ts). */
export const matchedBy = z.enum(['packageBarcode', 'deliveryNumber', 'externalId', 'deliveryId']);
export type MatchedBy = z.infer<typeof matchedBy>;

export const shipmentSummary = shipment
  .pick({
    deliveryId: true,
    externalId: true,
    deliveryNumber: true,
    state: true,
    stateName: true,
    agent: true,
    deliveryType: true,
    collectionPlace: true,
    value: true,
    valueCurrency: true,
    cod: true,
    codCurrency: true,
    created: true,
    closed: true,
    version: true,
  })
  .extend({
    recipientName: z.string(),
    recipientCity: z.string().nullable(),
    packageCount: z.number().int(),
  });
export type ShipmentSummary = z.infer<typeof shipmentSummary>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');

export const shipmentQuery = z
  .object({
    states: z.array(z.number().int()).max(20).optional(),
    agents: z.array(z.string().max(100)).max(50).optional(),
    collectionPlaces: z.array(z.string().max(100)).max(50).optional(),
    /** Created on or after this day (UTC day of the stored timestamp's date part). */
    createdFrom: isoDate.optional(),
    /** Created on or before this day. */
    createdTo: isoDate.optional(),
    /** Substring of externalId, deliveryNumber, deliveryId, recipient name, city, e-mail, phone or ticket note. */
    text: z.string().max(200).optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type ShipmentQuery = z.input<typeof shipmentQuery>;

export const shipmentPage = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  items: z.array(shipmentSummary),
});
export type ShipmentPage = z.infer<typeof shipmentPage>;

export const lookupResult = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('found'),
    code: z.string(),
    shipment,
    matchedBy,
    source: z.enum(['cache', 'service']),
  }),
  z.object({
    kind: z.literal('ambiguous'),
    code: z.string(),
    candidates: z.array(z.object({ shipment, matchedBy })),
  }),
  z.object({
    kind: z.literal('not_found'),
    code: z.string(),
    /** False when the service could not be asked (offline, logged out): the code may still exist. */
    serviceChecked: z.boolean(),
    serviceError: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
  z.object({ kind: z.literal('invalid'), code: z.string(), message: z.string() }),
]);
export type LookupResult = z.infer<typeof lookupResult>;

export const scanOutcome = z.enum(scanLogOutcomes);
export type ScanOutcome = z.infer<typeof scanOutcome>;

export const scanLogEntry = z.object({
  id: z.number().int(),
  accountId: z.string(),
  /** The code after normalisation (what was looked up). */
  code: z.string(),
  /** The code as the scanner typed it, when it differed (prefix/suffix stripped). */
  rawCode: z.string().nullable(),
  scannedAt: z.string(),
  outcome: scanOutcome,
  deliveryId: z.number().int().nullable(),
  matchedBy: matchedBy.nullable(),
  message: z.string().nullable(),
});
export type ScanLogEntry = z.infer<typeof scanLogEntry>;

export const syncProgress = z.object({
  accountId: z.string(),
  phase: z.enum(['running', 'done', 'failed']),
  pages: z.number().int(),
  requests: z.number().int(),
  notModified: z.number().int(),
  stored: z.number().int(),
  /** The cursor reached (deliveryId>): the next run resumes here. */
  cursor: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

export const collectionPlace = z.object({
  identificator: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  contactPerson: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  /** False once the service stopped listing it as active (kept so old shipments show its name). */
  active: z.boolean(),
  syncedAt: z.string(),
});
export type CachedCollectionPlace = z.infer<typeof collectionPlace>;

export const shipmentMethods = {
  /** A page of cached shipments of the active account, newest first, with filters. */
  'shipments.query': { reads: true, params: shipmentQuery, result: shipmentPage },
  /** One cached shipment with every field, or null when it is not in the cache. */
  'shipments.get': {
    reads: true,
    params: z.object({ deliveryId: z.number().int().positive() }).strict(),
    result: shipment.nullable(),
  },
  /** Syncs recent and changed shipments now; answers when done (progress arrives as events). */
  'shipments.sync': { params: z.object({}).strict(), result: syncProgress },
  /** Resolves a scanned code to a shipment: the cache first, then the service. */
  'shipments.lookup': {
    params: z.object({ code: z.string().max(500) }).strict(),
    result: lookupResult,
  },
  /** The cached collection places of the active account (refreshed by shipments.sync), active first. */
  'collectionPlaces.list': { reads: true, params: z.object({}).strict(), result: z.array(collectionPlace) },
  /** The latest scans of the active account, newest first. */
  'scans.recent': {
    reads: true,
    params: z
      .object({ limit: z.number().int().min(1).max(1000).default(100), beforeId: z.number().int().optional() })
      .strict(),
    result: z.array(scanLogEntry),
  },
};

export const shipmentEvents = {
  'shipments.syncProgress': syncProgress,
  /**
   * Cached shipments changed (sync, close, edit, cancel): lists refresh. Gathered per account over
   * a short window; `all`: too many to name, anything shown may have changed.
   */
  'shipments.changed': z.object({
    accountId: z.string(),
    deliveryIds: z.array(z.number().int()),
    all: z.boolean().optional(),
  }),
};
