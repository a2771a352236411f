/**
 * The form's draft <-> the service's shapes: an insert/edit item (spec "Delivery: request
 * fields", shaped by "Party type rules"), a transport search item (spec "GET
 * /api/v3/transports": personal data, agent, services not needed; dimensions always), a cached
 * shipment back into a draft for editing, and the service's `errors[]` paths onto form fields.
 */
import type { PartyDraft, ShipmentDraft, FieldError } from '../../shared/contract/newShipment';
import type { Shipment, ShipmentParty } from '../../shared/contract/shipments';
import type { DeliveryInput, PartyInput, ShipmentFieldError, TransportQuery } from '../api/index';

/** Spec "Party type rules" 4: these are applied by the service from the party types / cod, never chosen. */
export const IMPLICIT_CODES = ['cod', 'direct_delivery', 'back_delivery'];

const opt = (v: string) => (v.trim() === '' ? undefined : v.trim());

function partyInput(p: PartyDraft, personal: boolean): PartyInput {
  // Spec "Party type rules" 2: a collection place needs only its identifier.
  if (p.type === 'collectionPlace') return { type: 'collectionPlace', collectionPlace: p.collectionPlace };
  const out: PartyInput = { type: p.type };
  // Rule 3: a pick-up place recipient has its identifier and no address.
  if (p.type === 'pickUpPlace') out.pickUpPlace = p.pickUpPlace;
  if (p.type === 'address') {
    const a = p.address;
    // The search needs only where it goes (country, postal code); street, house number and city go
    // when typed. The house number goes with the street in the search as in the insert (spec
    // "Delivery: request fields": the street must include it unless `streetNumber` is given).
    const streetNumber = opt(a.streetNumber) ? { streetNumber: a.streetNumber } : {};
    out.address = personal
      ? { street: a.street, ...streetNumber, city: a.city, postalCode: a.postalCode, state: a.state }
      : ({
          ...(opt(a.street) ? { street: a.street, ...streetNumber } : {}),
          ...(opt(a.city) ? { city: a.city } : {}),
          postalCode: a.postalCode,
          state: a.state,
        } as PartyInput['address']);
  }
  if (personal) {
    for (const k of ['firstname', 'surname', 'contactPerson', 'email', 'phone'] as const) {
      const v = opt(p[k]);
      if (v !== undefined) out[k] = v;
    }
  }
  return out;
}

const dims = (p: ShipmentDraft['packages'][number]) => ({
  ...(opt(p.length) ? { length: Number(p.length) } : {}),
  ...(opt(p.width) ? { width: Number(p.width) } : {}),
  ...(opt(p.height) ? { height: Number(p.height) } : {}),
});

/** An insert item; with `deliveryId` for an edit. Decimals stay exact text (the client writes them digit for digit). */
export function draftToDelivery(d: ShipmentDraft): DeliveryInput {
  const hasCod = opt(d.cod) !== undefined;
  const services = d.extraServices
    .filter((s) => !IMPLICIT_CODES.includes(s.code))
    .map((s) => {
      const args = Object.fromEntries(Object.entries(s.arguments).filter(([, v]) => v.trim() !== ''));
      return Object.keys(args).length ? { code: s.code, arguments: args } : { code: s.code };
    });
  return {
    sender: partyInput(d.sender, true),
    recipient: partyInput(d.recipient, true),
    value: d.value,
    valueCurrency: d.valueCurrency,
    ...(hasCod ? { cod: d.cod, codCurrency: d.codCurrency, variableSymbol: d.variableSymbol } : {}),
    packages: d.packages.map((p) => ({ weight: p.weight, ...dims(p) })),
    agent: d.agent,
    deliveryType: d.deliveryType,
    ...(services.length ? { extraServices: services } : {}),
    ...(opt(d.ticketNote) ? { ticketNote: d.ticketNote } : {}),
    ...(opt(d.externalId) ? { externalId: d.externalId } : {}),
  };
}

/** A transport search item: where it goes, what it weighs and measures, its value and COD. */
export function draftToTransportQuery(d: ShipmentDraft): TransportQuery {
  const hasCod = opt(d.cod) !== undefined;
  return {
    sender: partyInput(d.sender, false),
    recipient: partyInput(d.recipient, false),
    value: d.value,
    valueCurrency: d.valueCurrency,
    ...(hasCod ? { cod: d.cod, codCurrency: d.codCurrency } : {}),
    packages: d.packages.map((p) => ({
      weight: p.weight,
      length: Number(p.length),
      width: Number(p.width),
      height: Number(p.height),
    })),
  };
}

const s = (v: string | null | undefined) => v ?? '';

/** A cached party as the form holds it. A party without a type is read from what it carries. */
export function partyToDraft(p: ShipmentParty): PartyDraft {
  const type =
    p.type === 'address' || p.type === 'collectionPlace' || p.type === 'pickUpPlace'
      ? p.type
      : p.collectionPlace
        ? 'collectionPlace'
        : p.pickUpPlace
          ? 'pickUpPlace'
          : 'address';
  return {
    type,
    collectionPlace: s(p.collectionPlace),
    pickUpPlace: s(p.pickUpPlace),
    firstname: s(p.firstname),
    // An expanded collection place shows its name also as surname; the form keeps only the identifier then.
    surname: type === 'collectionPlace' ? '' : s(p.surname),
    contactPerson: type === 'collectionPlace' ? '' : s(p.contactPerson),
    email: type === 'collectionPlace' ? '' : s(p.email),
    phone: type === 'collectionPlace' ? '' : s(p.phone),
    address:
      type === 'address' && p.address
        ? {
            street: s(p.address.street),
            streetNumber: s(p.address.streetNumber),
            city: s(p.address.city),
            postalCode: s(p.address.postalCode),
            state: s(p.address.state),
          }
        : { street: '', streetNumber: '', city: '', postalCode: '', state: '' },
  };
}

/** A cached shipment as a draft for the edit form; implicit services are left to the service. */
export function shipmentToDraft(sh: Shipment): ShipmentDraft {
  return {
    sender: partyToDraft(sh.sender),
    recipient: partyToDraft(sh.recipient),
    value: s(sh.value),
    valueCurrency: s(sh.valueCurrency),
    cod: s(sh.cod),
    codCurrency: s(sh.codCurrency),
    variableSymbol: s(sh.variableSymbol),
    packages: sh.packages.map((p) => ({
      weight: s(p.weight),
      length: p.length === null ? '' : String(p.length),
      width: p.width === null ? '' : String(p.width),
      height: p.height === null ? '' : String(p.height),
    })),
    agent: s(sh.agent),
    deliveryType: s(sh.deliveryType),
    extraServices: sh.extraServices
      .filter((x) => !IMPLICIT_CODES.includes(x.code))
      .map((x) => ({ code: x.code, arguments: { ...x.arguments } })),
    ticketNote: s(sh.ticketNote),
    externalId: s(sh.externalId),
  };
}

/**
 * The service's error path (spec "Errors": "[0].recipient.phone", "[0].packages[1].weight",
 * "[0].extraServices[0].arguments.email") -> the form's field ("recipient.phone",
 * "packages.1.weight", "extraServices.email_advice_unload.arguments.email").
 */
export function formFieldOf(path: string, sent: DeliveryInput | TransportQuery | undefined): string {
  let f = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
  const m = /^extraServices\.(\d+)(.*)$/.exec(f);
  if (m && sent && 'extraServices' in sent) {
    const code = sent.extraServices?.[Number(m[1])]?.code;
    if (code) f = `extraServices.${code}${m[2]}`;
  }
  // Implicit services are reported where the service applied them (cod, party types).
  return f;
}

export function serviceFieldErrors(
  errors: readonly ShipmentFieldError[],
  sent: DeliveryInput | TransportQuery | undefined,
): FieldError[] {
  return errors.map((e) => ({ field: formFieldOf(e.path, sent), code: 'service', message: e.message }));
}
