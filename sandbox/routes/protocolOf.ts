/**
 * Stored shipments of one carrier at one collection place -> the collection protocol PDF (spec
 * "POST /api/v2/collection-protocols": `protocol`). The generator in sandbox/documents/ only lays
 * the rows out; this module decides what the courier reads on them: the carrier number, who the
 * parcel goes to, every package barcode (so the sheet can be scanned at pick-up) and the COD.
 */
import { carrierOf, type CollectionPlaceRecord, type StoredDelivery, type StoredParty } from '../domain/index';
import { renderProtocolPdf, type ProtocolData, type ProtocolRow } from '../documents/protocolPdf';

export interface ProtocolInput {
  id: number;
  agent: string;
  place: CollectionPlaceRecord;
  /** The sender company; printed in the place block so the sheet names who hands over. */
  companyName: string;
  /** In the order they are listed (the order of the protocol's `deliveries`). */
  deliveries: StoredDelivery[];
  now: Date;
}

const joinNonEmpty = (parts: Array<string | null | undefined>, sep = ' ') =>
  parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(sep);

/** The recipient as the courier would look for it: person, else contact, else e-mail; the city helps to sort. */
function recipientName(p: StoredParty): string {
  const who = joinNonEmpty([p.firstname, p.surname]) || p.contactPerson || p.email || p.pickUpPlace || '?';
  const where = p.type === 'pickUpPlace' ? p.pickUpPlace : p.address?.city;
  return where && where !== who ? `${who}, ${where}` : who;
}

function rowOf(d: StoredDelivery): ProtocolRow {
  return {
    deliveryId: d.deliveryId,
    deliveryNumber: d.deliveryNumber ?? '',
    recipientName: recipientName(d.recipient),
    // Closed shipments always have barcodes; an empty one makes the generator say so (DocumentError).
    barcodes: d.packages.map((p) => p.barcode ?? ''),
    cod: d.cod !== null && d.codCurrency !== null ? { amount: d.cod, currency: d.codCurrency } : undefined,
  };
}

export function protocolDataOf(input: ProtocolInput): ProtocolData {
  const { place } = input;
  const company = input.companyName.trim();
  return {
    collectionProtocolId: input.id,
    agent: { code: input.agent, name: carrierOf(input.agent)?.name ?? input.agent },
    collectionPlace: {
      identificator: place.identificator,
      name: place.name,
      lines: [
        company && !place.name.includes(company) ? `Odesílatel / Sender: ${company}` : '',
        place.street,
        joinNonEmpty([joinNonEmpty([place.postalCode, place.city]), place.state], ', '),
        joinNonEmpty([place.contactPerson, place.phone], ', '),
      ].filter(Boolean),
    },
    created: input.now,
    rows: input.deliveries.map(rowOf),
  };
}

/** The protocol PDF; throws DocumentError when a shipment cannot be listed (the route answers 422). */
export function protocolPdf(input: ProtocolInput): Promise<Buffer> {
  return renderProtocolPdf(protocolDataOf(input));
}
