/**
 * Shipments made by hand at the desk: a draft typed into the "New shipment" form, the
 * transport search for it with prices (spec "GET /api/v3/transports", "Transport option"),
 * insert (spec "POST /api/v3/deliveries"), edit with If-Match (spec "PUT /api/v3/deliveries",
 * 412), and the address book of recipients used before (the local cache).
 *
 * The draft is what the form holds: every text may be empty (the party type rules of the spec
 * decide what is required: shared/newShipment/draftRules.ts checks them on both sides and names
 * the field). Money and weights are typed with a decimal comma or point and become exact decimal
 * strings with a point here, never floats (spec "Common conventions" 5-6).
 */
import { z } from 'zod';
import {
  isDecimalInput,
  isDimensionInput,
  isNotPositiveNumber,
  normaliseDecimalInput,
} from '../newShipment/draftRules';
import { actionError, actionPrint } from './shipmentActions';
import { decimalString, shipment } from './shipments';

/**
 * The longest text each draft field takes, one number per field for the schema below and for the
 * form's `maxLength` (so a field never takes what the contract refuses with its English message).
 */
const draftTextLimits = {
  street: 150,
  streetNumber: 20,
  city: 100,
  postalCode: 20,
  state: 2,
  collectionPlace: 100,
  pickUpPlace: 100,
  firstname: 100,
  surname: 150,
  contactPerson: 150,
  email: 200,
  phone: 40,
  value: 24,
  cod: 24,
  weight: 24,
  length: 6,
  width: 6,
  height: 6,
  valueCurrency: 3,
  codCurrency: 3,
  variableSymbol: 20,
  agent: 60,
  deliveryType: 60,
  ticketNote: 300,
  externalId: 100,
  /** An extra service's argument (`extraServices.<code>.arguments.<identifier>`). */
  argument: 200,
} as const;

/** The form field's limit by its draft path ("recipient.address.street", "packages.0.weight", "extraServices.x.arguments.email"). */
export function draftFieldMaxLength(field: string): number | undefined {
  if (/\.arguments\./.test(field)) return draftTextLimits.argument;
  const last = field.split('.').pop() ?? '';
  return Object.hasOwn(draftTextLimits, last) ? draftTextLimits[last as keyof typeof draftTextLimits] : undefined;
}
const L = draftTextLimits;

/** A decimal the worker typed, at most `places` decimals; '' = not given (same rule as the form: draftRules). */
const decimalInput = (places: number, what: string) =>
  z
    .string()
    .max(L.value)
    .refine((s) => isDecimalInput(s, places), {
      message: `${what}: a number with at most ${places} decimals, e.g. 12,5`,
    })
    .transform(normaliseDecimalInput);

/** Money: at most 2 decimals (the sandbox's "amount" rule and every ISO 4217 currency used here). */
export const moneyInput = decimalInput(2, 'amount');
/** Weight in kg: at most 3 decimals (grams). */
export const weightInput = decimalInput(3, 'weight').refine((s) => s === '' || !isNotPositiveNumber(s), {
  message: 'weight: more than 0 kg',
});
/** A dimension in whole cm; '' = not given. */
export const dimensionInput = z
  .string()
  .max(L.length)
  .refine(isDimensionInput, { message: 'dimension: whole centimetres, 1-9999' })
  .transform((s) => s.trim());

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim());
/** ISO 4217 code or '' (not given). */
const currencyInput = z
  .string()
  .max(L.valueCurrency)
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => s === '' || /^[A-Z]{3}$/.test(s), { message: 'currency: a 3-letter ISO 4217 code' });

/** Spec "Delivery: request fields" `<party>.type`; `pickUpPlace` only for the recipient ("Party type rules"). */
export const partyType = z.enum(['address', 'collectionPlace', 'pickUpPlace']);
export type PartyTypeName = z.infer<typeof partyType>;

export const addressDraft = z
  .object({
    street: text(L.street).default(''),
    streetNumber: text(L.streetNumber).default(''),
    city: text(L.city).default(''),
    postalCode: text(L.postalCode).default(''),
    /** Country, ISO 3166-2 style code (CZ, SK, ...). */
    state: z
      .string()
      .max(L.state)
      .transform((s) => s.trim().toUpperCase())
      .default(''),
  })
  .strict();

export const partyDraft = z
  .object({
    type: partyType,
    collectionPlace: text(L.collectionPlace).default(''),
    pickUpPlace: text(L.pickUpPlace).default(''),
    firstname: text(L.firstname).default(''),
    surname: text(L.surname).default(''),
    contactPerson: text(L.contactPerson).default(''),
    email: text(L.email).default(''),
    phone: text(L.phone).default(''),
    address: addressDraft.default({ street: '', streetNumber: '', city: '', postalCode: '', state: '' }),
  })
  .strict();
export type PartyDraft = z.output<typeof partyDraft>;

export const packageDraft = z
  .object({
    weight: weightInput,
    length: dimensionInput.default(''),
    width: dimensionInput.default(''),
    height: dimensionInput.default(''),
  })
  .strict();
export type PackageDraft = z.output<typeof packageDraft>;

export const extraServiceDraft = z
  .object({
    code: z.string().min(1).max(60),
    /** Argument identifier -> value (spec "Transport option": `arguments.identifier`). */
    arguments: z.record(z.string().min(1).max(60), text(L.argument)).default({}),
  })
  .strict();

export const shipmentDraft = z
  .object({
    sender: partyDraft,
    recipient: partyDraft,
    value: moneyInput,
    valueCurrency: currencyInput,
    /** Cash on delivery; '' = none (then codCurrency and variableSymbol are not sent). */
    cod: moneyInput.default(''),
    codCurrency: currencyInput.default(''),
    variableSymbol: text(L.variableSymbol).default(''),
    packages: z.array(packageDraft).min(1, 'at least one package').max(30),
    /** Carrier code, filled by choosing a transport. */
    agent: text(L.agent).default(''),
    deliveryType: text(L.deliveryType).default(''),
    /** Explicitly chosen services; implicit ones (cod, direct, back) are never sent (the service adds them). */
    extraServices: z.array(extraServiceDraft).max(20).default([]),
    ticketNote: text(L.ticketNote).default(''),
    externalId: text(L.externalId).default(''),
  })
  .strict();
export type ShipmentDraft = z.output<typeof shipmentDraft>;
export type ShipmentDraftInput = z.input<typeof shipmentDraft>;

/** What the chosen transport demands at insert (spec "Transport option": phoneRequired, dimensionsRequired). */
export const transportRequirements = z
  .object({ phoneRequired: z.boolean().default(false), dimensionsRequired: z.boolean().default(false) })
  .strict();
export type TransportRequirements = z.output<typeof transportRequirements>;

/**
 * A problem with one form field. `field` is the form's path ("recipient.phone",
 * "packages.0.weight", "extraServices.day_definite.arguments.date"); `code` is one the UI
 * translates ("required", ...) or "service" when `message` is the service's own text (already in
 * the UI language: the station sends accept-language).
 */
export const fieldError = z.object({ field: z.string(), code: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldError>;

const price = z.object({ total: decimalString, currency: z.string() });

/** One transport option as the form shows it (spec "Transport option"), with the station's figures. */
export const transportOption = z.object({
  agent: z.object({ code: z.string(), name: z.string() }),
  deliveryType: z.object({
    code: z.string(),
    name: z.string(),
    phoneRequired: z.boolean(),
    dimensionsRequired: z.boolean(),
  }),
  deliveryTime: z.object({
    pickUpFrom: z.string().nullable(),
    pickUpTo: z.string().nullable(),
    minDeliveryFrom: z.string().nullable(),
    minDeliveryTo: z.string().nullable(),
    maxDeliveryFrom: z.string().nullable(),
    maxDeliveryTo: z.string().nullable(),
  }),
  insurance: z.string().nullable(),
  extraServices: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      description: z.string(),
      implicit: z.boolean(),
      bans: z.array(z.string()),
      arguments: z.array(z.object({ name: z.string(), identifier: z.string(), example: z.string() })),
      /** null: an unpaid service. */
      price: price.nullable(),
    }),
  ),
  /** null: an unpaid transport (contract prices). */
  price: z
    .object({
      base: decimalString.nullable(),
      total: decimalString,
      currency: z.string(),
      fees: z.array(z.object({ categoryName: z.string(), category: z.number().int().nullable(), fee: decimalString })),
    })
    .nullable(),
  /** Spec: final price = price.total + prices of all implicit extra services; null when unpaid. */
  finalPrice: price.nullable(),
  cheapest: z.boolean(),
  fastest: z.boolean(),
});
export type TransportOption = z.infer<typeof transportOption>;

export const transportSearchResult = z.object({
  options: z.array(transportOption),
  /** The service refused the search (422): what to fix, per field. */
  fieldErrors: z.array(fieldError),
  message: z.string().nullable(),
});
export type TransportSearchResult = z.infer<typeof transportSearchResult>;

/** Close and print right after saving (spec "PATCH /api/v3/deliveries", then labels as routed). */
export const closeAndPrintResult = z.object({
  closed: z.boolean(),
  print: actionPrint,
  jobIds: z.array(z.number().int()),
  error: actionError.nullable(),
});
export type CloseAndPrintResult = z.infer<typeof closeAndPrintResult>;

export const saveResult = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('saved'),
    shipment,
    /** ETag for the next edit's If-Match, when the station read one. */
    etag: z.string().nullable(),
    close: closeAndPrintResult.nullable(),
  }),
  /** The form or the service refused it (422): nothing was saved. */
  z.object({ kind: z.literal('invalid'), message: z.string(), fieldErrors: z.array(fieldError) }),
  /** Edit only: someone changed the shipment since it was read (412); this is the fresh data. */
  z.object({
    kind: z.literal('conflict'),
    message: z.string(),
    shipment,
    etag: z.string().nullable(),
    draft: shipmentDraft,
  }),
]);
export type SaveResult = z.infer<typeof saveResult>;

export const openedShipment = z.object({
  shipment,
  /** ETag of a GET of exactly this shipment without `fields` (spec "PUT": usable as If-Match). */
  etag: z.string().nullable(),
  draft: shipmentDraft,
  /** Only prepared shipments can be edited (spec "States and transitions" rule 1). */
  editable: z.boolean(),
});
export type OpenedShipment = z.infer<typeof openedShipment>;

export const addressBookEntry = z.object({
  /** Stable key of the person + place (folded), for lists. */
  key: z.string(),
  party: partyDraft,
  /** How many cached shipments had this party, and the newest of them. */
  uses: z.number().int(),
  lastDeliveryId: z.number().int(),
  lastUsed: z.string().nullable(),
});
export type AddressBookEntry = z.infer<typeof addressBookEntry>;

const draftParams = { draft: shipmentDraft };

export const newShipmentMethods = {
  /** Transport options for the draft, priced, cheapest and fastest marked. Package dimensions are required. */
  'transports.search': { params: z.object(draftParams).strict(), result: transportSearchResult },
  /** Inserts the draft as a prepared shipment; optionally closes it and prints its labels at once. */
  'shipments.insert': {
    work: true,
    params: z
      .object({
        ...draftParams,
        requires: transportRequirements.default({ phoneRequired: false, dimensionsRequired: false }),
        closeAndPrint: z.boolean().default(false),
      })
      .strict(),
    result: saveResult,
  },
  /** Reads a shipment from the service (fresh, with its ETag) as a draft for editing. */
  'shipments.openForEdit': {
    params: z.object({ deliveryId: z.number().int().positive() }).strict(),
    result: openedShipment,
  },
  /** Edits a prepared shipment with If-Match from the last read (412 -> `conflict` with the fresh data). */
  'shipments.edit': {
    work: true,
    params: z
      .object({
        deliveryId: z.number().int().positive(),
        etag: z.string().max(300).nullable(),
        ...draftParams,
        requires: transportRequirements.default({ phoneRequired: false, dimensionsRequired: false }),
      })
      .strict(),
    result: saveResult,
  },
  /** Parties of cached shipments (recipients, and senders of returns), newest first, matching the text. */
  'addressBook.search': {
    params: z
      .object({
        text: z.string().max(100).default(''),
        /** Only parties of this type (a sender is never a pick-up place). */
        type: z.enum(['address', 'pickUpPlace']).optional(),
        limit: z.number().int().min(1).max(50).default(20),
      })
      .strict(),
    result: z.array(addressBookEntry),
  },
};
