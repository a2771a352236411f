/**
 * Types of the sandbox domain (plain objects, no behaviour). Every human-readable text that the
 * sandbox writes is a `Msg` ({en, cs}); carrier and place names are proper nouns (plain strings).
 *
 * Decimals are exact: weights and money are kept as canonical decimal strings ("2.3", "1500",
 * "99.9") in stored records and turned into JS numbers only by `presentDelivery` and
 * `searchTransports` (the JSON layer). Prices are computed in integer minor units (haléře).
 */
import type { Msg } from '../i18n';

/** One validation problem (spec "Errors": `field` starts with the shipment's [index]). */
export interface FieldError {
  field: string;
  value: unknown;
  message: Msg;
}

/**
 * A result of a domain operation. On failure `status` is the HTTP status the service should use
 * (422 when absent) and `message` the envelope message (a generic one when absent).
 */
export type DomainResult<T> =
  { ok: true; value: T } | { ok: false; errors: FieldError[]; status?: number; message?: Msg };

/** Spec "Collection place" + sandbox-only fields (`active`, `collectionTypes`). */
export interface CollectionPlaceRecord {
  identificator: string;
  name: string;
  email: string;
  phone: string;
  contactPerson: string;
  state: string;
  city: string;
  street: string;
  postalCode: string;
  active: boolean;
  /** agent code -> collection type; a carrier missing here treats the place as an address (Party type rules 5). */
  collectionTypes: Record<string, string>;
}

export type PartyKind = 'address' | 'collectionPlace' | 'pickUpPlace';

export interface AddressRecord {
  street: string;
  streetNumber: string | null;
  city: string;
  postalCode: string;
  /** ISO 3166 country code, upper case ("CZ"). */
  state: string;
}

/** A party as stored (normalised: phone without spaces, absent values null). */
export interface StoredParty {
  type: PartyKind;
  address: AddressRecord | null;
  collectionPlace: string | null;
  pickUpPlace: string | null;
  firstname: string | null;
  surname: string | null;
  contactPerson: string | null;
  email: string | null;
  phone: string | null;
}

export interface StoredPackage {
  /** kg, canonical decimal string ("2.3"). */
  weight: string;
  /** cm, integers; null when not given. */
  length: number | null;
  width: number | null;
  height: number | null;
  /** Filled only by closing. */
  barcode: string | null;
}

export interface ExtraServiceValue {
  code: string;
  /** identifier -> value; `{}` when the service takes no arguments (presented as [] in JSON). */
  arguments: Record<string, string>;
}

/** A validated insert/edit item: what `validateDeliveries` returns (implicit services already added). */
export interface DeliveryInput {
  /** Required (and set) only in mode 'edit'. */
  deliveryId: number | null;
  agent: string;
  deliveryType: string;
  /** Canonical decimal strings. */
  value: string;
  valueCurrency: string;
  cod: string | null;
  codCurrency: string | null;
  variableSymbol: string | null;
  packages: Array<Omit<StoredPackage, 'barcode'>>;
  /** Explicit services in request order, then implicit ones (cod, direct_delivery, back_delivery). */
  extraServices: ExtraServiceValue[];
  ticketNote: string | null;
  externalId: string | null;
  sender: StoredParty;
  recipient: StoredParty;
}

/** The full record of spec "Delivery: response fields" plus sandbox-internal fields. */
export interface StoredDelivery {
  deliveryId: number;
  deliveryNumber: string | null;
  deliveryState: number;
  deliveryStateName: string;
  source: number;
  sourceName: string;
  /** ISO 8601 with numeric offset (Europe/Prague). */
  created: string;
  closed: string | null;
  agent: string;
  deliveryType: string;
  value: string;
  valueCurrency: string;
  cod: string | null;
  codCurrency: string | null;
  variableSymbol: string | null;
  externalId: string | null;
  ticketNote: string | null;
  extraServices: ExtraServiceValue[];
  packages: StoredPackage[];
  recipient: StoredParty;
  sender: StoredParty;

  // --- sandbox-internal (never presented) ---
  /** Bumped on every change; the service derives ETags from it. */
  version: number;
  /** Set by the service when a collection protocol covers this shipment (spec rule of sequence 3). */
  protocolId: number | null;
  /** When the carrier picks the parcel up (state 1 -> 2); set by closing. ISO timestamp. */
  sentAt: string | null;
  /** Outcome decided at closing by the documented magic values: 'delivered' or 'returned'. */
  finalState: 'delivered' | 'returned' | null;
}

// ---------------------------------------------------------------- carrier catalogue

export type ZplSize = '10x5' | '10x15' | '10x17';

export interface ServiceArgumentDef {
  name: Msg;
  /** Key used when inserting (`extraServices[i].arguments.<identifier>`). */
  identifier: string;
  example: string;
  /** What a valid value looks like (checked on insert). */
  kind: 'email' | 'phone' | 'date' | 'text';
}

export interface ExtraServiceDef {
  code: string;
  name: Msg;
  description: Msg;
  arguments: ServiceArgumentDef[];
  /** Codes that cannot be combined with this one (kept symmetric in the catalogue). */
  bans: string[];
  /** Price in haléře (CZK minor units); null = unpaid (no `price` element in transports). */
  priceMinor: number | null;
  /** Implicit-only services (cod, direct_delivery, back_delivery) are added by the sandbox and may also be sent explicitly. */
  implicitOnly: boolean;
}

export interface DeliveryTypeDef {
  code: string;
  name: Msg;
  phoneRequired: boolean;
  dimensionsRequired: boolean;
  /** Recipient party types this delivery type accepts. */
  recipientTypes: PartyKind[];
  /** Destination countries (recipient address state; pick-up places are domestic). */
  countries: string[];
  /** Heaviest package accepted, grams. */
  maxWeightGrams: number;
  /** Longest side accepted, cm. */
  maxSideCm: number;
  /** Format of `recipient.pickUpPlace` when the type delivers to pick-up points. */
  pickUpPlace: { pattern: RegExp; example: string } | null;
  /** Extra services (codes of the carrier's list) offered with this type. */
  extraServices: string[];
  /** Base price per weight band: first band whose upToGrams >= chargeable weight. Haléře. */
  bands: Array<{ upToGrams: number; priceMinor: number }>;
  /** Surcharge per foreign destination country (haléře, added to base); domestic = CZ. */
  foreignSurchargeMinor: Record<string, number>;
  /** Delivery time in working days after the pick-up: min and max. */
  transitDays: { min: number; max: number };
  /** Whether delivery windows are known (false: the carrier gives only "by the end of the day"). */
  timeWindows: boolean;
}

export interface CarrierDef {
  code: string;
  name: string;
  /** null = no ZPL labels for this carrier (PDF only). */
  zpl: { sizes: ZplSize[]; default: ZplSize } | null;
  /** false = no collection/non-collection distinction: no back or direct services (Party type rules 5). */
  distinguishesCollection: boolean;
  deliveryTypes: DeliveryTypeDef[];
  extraServices: ExtraServiceDef[];
  /** Insurance included in the price. */
  insurance: Msg;
  /** Human-readable description of the carrier's shipment number format. */
  numberFormat: string;
  /** Divisor for volumetric weight: L*W*H (cm) / divisor = kg. */
  volumetricDivisor: number;
  /** Fuel surcharge in per mille of the base price (fee category 1). */
  fuelSurchargePermille: number;
  /** Toll fee per shipment in haléře (fee category 2); 0 = no toll fee. */
  tollMinor: number;
  /** Whether the carrier's transports are unpaid (no price element) — a contract-priced carrier. */
  unpaid: boolean;
}

export interface MagicValue {
  /** Where to put the value. */
  field: string;
  value: string;
  effect: Msg;
}

export interface Catalogue {
  carriers: CarrierDef[];
  /** Values that make a carrier reject a close or return a parcel (documented for clients). */
  magicValues: MagicValue[];
}

// ---------------------------------------------------------------- transports (part 2)

export interface TransportOption {
  agent: { code: string; name: string };
  deliveryType: { code: string; name: string; phoneRequired: boolean; dimensionsRequired: boolean };
  deliveryTime: {
    pickUpFrom: string | null;
    pickUpTo: string | null;
    minDeliveryFrom: string | null;
    minDeliveryTo: string;
    maxDeliveryFrom: string | null;
    maxDeliveryTo: string | null;
  };
  insurance: { description: string };
  extraServices: Array<{
    code: string;
    name: string;
    description: string;
    implicit: boolean;
    bans: string[];
    arguments: Array<{ name: string; identifier: string; example: string }>;
    /** Absent for an unpaid service. */
    price?: { total: number; currency: string };
  }>;
  /** Absent for an unpaid transport. */
  price?: {
    base: number;
    total: number;
    currency: string;
    fees: Array<{ categoryName: string; category: number; fee: number }>;
  };
}

export interface TransportResult {
  delivery: number;
  transports: TransportOption[];
}

export interface TrackingResult {
  state: number;
  stateName: string;
  lastChecked: string | null;
  traces: Array<{ date: string; text: string }>;
}

export interface CollectionOrder {
  agent: string;
  scheduled: string;
  collectionPlace: string;
}
