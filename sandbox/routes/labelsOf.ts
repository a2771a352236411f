/**
 * Stored shipments -> the data printed on their package labels (spec "GET /api/v3/deliveries/
 * tickets" and ".../zpl": one label per package of a closed shipment). The document generators
 * in sandbox/documents/ only lay these out.
 *
 * Sender: a collection place is printed with the place's name and address (the parcel leaves
 * from there), an address sender with its own data. Recipient: the person (or contact person),
 * the address, or the pick-up point. Amounts and weights stay exact decimal strings.
 */
import { carrierOf, type CollectionPlaceRecord, type StoredDelivery, type StoredParty } from '../domain/index';
import type { LabelData, LabelParty } from '../documents/labelData';
import type { Lang } from '../i18n';

function placeOf(places: CollectionPlaceRecord[], id: string | null): CollectionPlaceRecord | undefined {
  return id === null ? undefined : places.find((p) => p.identificator === id);
}

function joinNonEmpty(parts: Array<string | null | undefined>, sep = ' '): string {
  return parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(sep);
}

function placeParty(place: CollectionPlaceRecord): LabelParty & { contactPerson?: string; phone?: string } {
  return {
    name: place.name,
    lines: [place.street, joinNonEmpty([place.postalCode, place.city]), place.state].filter(Boolean),
    contactPerson: place.contactPerson || undefined,
    phone: place.phone || undefined,
  };
}

function partyOf(
  p: StoredParty,
  places: CollectionPlaceRecord[],
): LabelParty & { contactPerson?: string; phone?: string; pickUpPlace?: string } {
  if (p.type === 'collectionPlace') {
    const place = placeOf(places, p.collectionPlace);
    // A place deleted since the insert still has its identifier to print.
    if (place) return placeParty(place);
    return { name: p.collectionPlace ?? '?', lines: [] };
  }
  const person = joinNonEmpty([p.firstname, p.surname]);
  const name = person || p.contactPerson || p.email || '?';
  const a = p.address;
  const lines = a
    ? [joinNonEmpty([a.street, a.streetNumber]), joinNonEmpty([a.postalCode, a.city]), a.state].filter(Boolean)
    : [];
  return {
    name,
    lines,
    contactPerson: person && p.contactPerson ? p.contactPerson : undefined,
    phone: p.phone ?? undefined,
    pickUpPlace: p.type === 'pickUpPlace' ? (p.pickUpPlace ?? undefined) : undefined,
  };
}

/** One label per package, in package order. `now` is the document's creation time. */
export function labelsOf(
  d: StoredDelivery,
  ctx: { places: CollectionPlaceRecord[]; now: Date; lang: Lang },
): LabelData[] {
  const carrier = carrierOf(d.agent);
  const type = carrier?.deliveryTypes.find((t) => t.code === d.deliveryType);
  const sender = partyOf(d.sender, ctx.places);
  const recipient = partyOf(d.recipient, ctx.places);
  return d.packages.map((p, i) => ({
    deliveryId: d.deliveryId,
    agent: { code: d.agent, name: carrier?.name ?? d.agent },
    deliveryNumber: d.deliveryNumber ?? '',
    packageIndex: i + 1,
    packageCount: d.packages.length,
    barcode: p.barcode ?? '',
    weight: p.weight,
    sender: { name: sender.name, lines: sender.lines },
    recipient,
    cod: d.cod !== null && d.codCurrency !== null ? { amount: d.cod, currency: d.codCurrency } : undefined,
    ticketNote: d.ticketNote ?? undefined,
    created: ctx.now,
    deliveryTypeName: type ? type.name[ctx.lang] : d.deliveryType,
  }));
}
