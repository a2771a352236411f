/**
 * The life of a stored shipment before closing (spec "States and transitions"): create (state
 * 0), full replacement on edit, cancel (state 10); and its presentation (spec "Delivery:
 * response fields").
 */
import type { Msg } from '../i18n';
import { placeOf } from './parties';
import { formatTimestamp } from './time';
import type { CollectionPlaceRecord, DeliveryInput, DomainResult, StoredDelivery, StoredParty } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

/** Spec "States and transitions": state id -> name exactly as returned. */
export const STATE_NAMES: Record<number, string> = {
  0: 'Připravená',
  1: 'Neodeslaná',
  2: 'Odeslaná',
  3: 'Doručená',
  4: 'Vrácená',
  5: 'Doručená',
  6: 'Vrácená',
  10: 'Zrušená',
};

export const STATE = {
  prepared: 0,
  closed: 1,
  sent: 2,
  delivered: 3,
  returned: 4,
  deliveredPoint: 5,
  returnedPoint: 6,
  cancelled: 10,
} as const;

/** Spec "Delivery: response fields": source 3 = API. */
export const SOURCE_API = { source: 3, sourceName: 'API' } as const;

function inputData(input: DeliveryInput) {
  return {
    agent: input.agent,
    deliveryType: input.deliveryType,
    value: input.value,
    valueCurrency: input.valueCurrency,
    cod: input.cod,
    codCurrency: input.codCurrency,
    variableSymbol: input.variableSymbol,
    externalId: input.externalId,
    ticketNote: input.ticketNote,
    extraServices: input.extraServices.map((s) => ({ code: s.code, arguments: { ...s.arguments } })),
    packages: input.packages.map((p) => ({ ...p, barcode: null })),
    recipient: { ...input.recipient },
    sender: { ...input.sender },
  };
}

export function createDelivery(input: DeliveryInput, ctx: { deliveryId: number; now: Date }): StoredDelivery {
  return {
    deliveryId: ctx.deliveryId,
    deliveryNumber: null,
    deliveryState: STATE.prepared,
    deliveryStateName: STATE_NAMES[STATE.prepared]!,
    ...SOURCE_API,
    created: formatTimestamp(ctx.now),
    closed: null,
    ...inputData(input),
    version: 1,
    protocolId: null,
    sentAt: null,
    finalState: null,
  };
}

function wrongState(d: StoredDelivery, field: string, action: Msg): DomainResult<never> {
  const cancelled = d.deliveryState === STATE.cancelled;
  return {
    ok: false,
    status: 422,
    message: cancelled
      ? m('The shipment is cancelled.', 'Zásilka je zrušená.')
      : m('The shipment is already closed.', 'Zásilka je už uzavřená.'),
    errors: [
      {
        field,
        value: d.deliveryId,
        message: cancelled
          ? m(
              `Shipment ${d.deliveryId} is cancelled and cannot be ${action.en}.`,
              `Zásilku ${d.deliveryId} nelze ${action.cs}, je zrušená.`,
            )
          : m(
              `Shipment ${d.deliveryId} is closed and cannot be ${action.en}.`,
              `Zásilku ${d.deliveryId} nelze ${action.cs}, je uzavřená.`,
            ),
      },
    ],
  };
}

const fieldOf = (index: number | undefined) => (index === undefined ? 'deliveryId' : `[${index}].deliveryId`);

/** PUT: full replacement of an unclosed, uncancelled shipment (rule of sequence 1). */
export function replaceDelivery(
  existing: StoredDelivery,
  input: DeliveryInput,
  ctx: { now: Date; index?: number },
): DomainResult<StoredDelivery> {
  if (existing.deliveryState !== STATE.prepared)
    return wrongState(existing, fieldOf(ctx.index), m('edited', 'upravit'));
  return { ok: true, value: { ...existing, ...inputData(input), version: existing.version + 1 } };
}

/** DELETE: state 0 -> 10 (rule of sequence 1). */
export function cancelDelivery(d: StoredDelivery, ctx: { index?: number } = {}): DomainResult<StoredDelivery> {
  if (d.deliveryState !== STATE.prepared) return wrongState(d, fieldOf(ctx.index), m('cancelled', 'zrušit'));
  return {
    ok: true,
    value: {
      ...d,
      deliveryState: STATE.cancelled,
      deliveryStateName: STATE_NAMES[STATE.cancelled]!,
      version: d.version + 1,
    },
  };
}

/** The response field names of spec "GET /api/v3/deliveries" `fields`. */
export const DELIVERY_FIELDS = [
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

function presentParty(
  p: StoredParty,
  role: 'sender' | 'recipient',
  closed: boolean,
  places: CollectionPlaceRecord[],
): Record<string, unknown> {
  if (p.type === 'collectionPlace') {
    const place = placeOf(places, p.collectionPlace);
    if (role === 'sender') {
      // After closing a collection-place sender is shown by type and identifier only; before,
      // it is expanded with the place's name, contact data and address (spec "Delivery: response fields").
      if (closed || !place) return { type: p.type, collectionPlace: p.collectionPlace };
      return {
        type: p.type,
        collectionPlace: p.collectionPlace,
        name: place.name,
        surname: place.name,
        contactPerson: place.contactPerson,
        email: place.email,
        phone: place.phone.replace(/\s+/g, ''),
        address: {
          street: place.street,
          streetNumber: null,
          city: place.city,
          postalCode: place.postalCode,
          state: place.state,
        },
      };
    }
    // A collection-place recipient (back shipment) echoes what was sent.
    return {
      type: p.type,
      collectionPlace: p.collectionPlace,
      firstname: p.firstname,
      surname: p.surname,
      contactPerson: p.contactPerson,
      email: p.email,
      phone: p.phone,
    };
  }
  const out: Record<string, unknown> = {
    type: p.type,
    firstname: p.firstname,
    surname: p.surname,
    contactPerson: p.contactPerson,
    email: p.email,
    phone: p.phone,
  };
  if (p.type === 'pickUpPlace') out.pickUpPlace = p.pickUpPlace;
  else out.address = p.address ? { ...p.address } : null;
  return out;
}

/**
 * The delivery as a response (JSON numbers for decimals; the codecs write decimal commas).
 * `fields` selects keys; unknown names are ignored; absent or empty = all.
 */
export function presentDelivery(
  d: StoredDelivery,
  ctx: { places: CollectionPlaceRecord[]; fields?: string[] },
): Record<string, unknown> {
  const closed = d.closed !== null;
  const full: Record<string, unknown> = {
    deliveryId: d.deliveryId,
    externalId: d.externalId,
    deliveryNumber: d.deliveryNumber,
    deliveryState: d.deliveryState,
    deliveryStateName: d.deliveryStateName,
    value: Number(d.value),
    valueCurrency: d.valueCurrency,
    closed: d.closed,
    cod: d.cod === null ? null : Number(d.cod),
    codCurrency: d.codCurrency,
    source: d.source,
    sourceName: d.sourceName,
    variableSymbol: d.variableSymbol,
    ticketNote: d.ticketNote,
    created: d.created,
    agent: d.agent,
    deliveryType: d.deliveryType,
    // Empty arguments are an empty array in JSON (spec "Delivery: response fields").
    extraServices: d.extraServices.map((s) => ({
      code: s.code,
      arguments: Object.keys(s.arguments).length ? { ...s.arguments } : [],
    })),
    recipient: presentParty(d.recipient, 'recipient', closed, ctx.places),
    sender: presentParty(d.sender, 'sender', closed, ctx.places),
    packages: d.packages.map((p) => ({
      weight: Number(p.weight),
      length: p.length,
      width: p.width,
      height: p.height,
      barcode: p.barcode,
    })),
  };
  // Unknown names are ignored; when none of the names is known the subset is "omitted": all data.
  const wanted = (ctx.fields ?? [])
    .map((f) => f.trim())
    .filter((f) => (DELIVERY_FIELDS as readonly string[]).includes(f));
  if (wanted.length === 0) return full;
  const out: Record<string, unknown> = {};
  for (const f of DELIVERY_FIELDS) if (wanted.includes(f)) out[f] = full[f];
  return out;
}

/** Spec "Collection place" record: the sandbox-only fields stay inside. */
export function presentPlace(p: CollectionPlaceRecord): Record<string, string> {
  return {
    identificator: p.identificator,
    name: p.name,
    email: p.email,
    phone: p.phone,
    contactPerson: p.contactPerson,
    state: p.state,
    city: p.city,
    street: p.street,
    postalCode: p.postalCode,
  };
}
