/**
 * The one mapping from a delivery as the service returns it (spec "Delivery: response fields",
 * read and checked by electron/api/schemas.ts) to the station's cached shipment. The schema has
 * already refused what would corrupt the cache (a deliveryId that is not a positive integer, an
 * unknown deliveryState, a value that is not a decimal) and read the informative types (numbers
 * as strings, decimal comma, `[]` for empty arguments), so this only renames and flattens.
 */
import type { ShipmentParty } from '../../shared/contract/shipments';
import type { Delivery, Party } from '../api/index';
import type { ShipmentRecord } from '../store/shipmentsRepo';

/** '' from the service means "not given". */
const given = (v: string | null | undefined): string | null => (v === undefined || v === '' ? null : v);

function party(p: Party): ShipmentParty {
  // A collection-place sender may come expanded with its address fields at the top level.
  const flat = !p.address && (p.street != null || p.city != null);
  const addr =
    p.address ??
    (flat
      ? {
          street: p.street ?? undefined,
          city: p.city ?? undefined,
          postalCode: p.postalCode ?? undefined,
          state: p.state ?? undefined,
        }
      : null);
  return {
    type: given(p.type),
    collectionPlace: given(p.collectionPlace),
    pickUpPlace: given(p.pickUpPlace),
    name: given(p.name),
    firstname: given(p.firstname),
    surname: given(p.surname),
    contactPerson: given(p.contactPerson),
    email: given(p.email),
    phone: given(p.phone),
    address: addr
      ? {
          street: given(addr.street),
          streetNumber: given((addr as { streetNumber?: string }).streetNumber),
          city: given(addr.city),
          postalCode: given(addr.postalCode),
          state: given(addr.state),
        }
      : null,
  };
}

export function shipmentFromDelivery(d: Delivery, etag?: string | null): ShipmentRecord {
  const sender = party(d.sender);
  const record: ShipmentRecord = {
    deliveryId: d.deliveryId,
    externalId: given(d.externalId),
    deliveryNumber: given(d.deliveryNumber),
    state: d.deliveryState,
    stateName: given(d.deliveryStateName),
    agent: given(d.agent),
    deliveryType: given(d.deliveryType),
    collectionPlace: sender.collectionPlace,
    recipient: party(d.recipient),
    sender,
    value: d.value,
    valueCurrency: given(d.valueCurrency),
    cod: d.cod,
    codCurrency: given(d.codCurrency),
    variableSymbol: given(d.variableSymbol),
    ticketNote: given(d.ticketNote),
    packages: d.packages.map((p) => ({
      barcode: given(p.barcode),
      weight: p.weight,
      length: p.length,
      width: p.width,
      height: p.height,
    })),
    extraServices: d.extraServices.map((s) => ({ code: s.code, arguments: s.arguments ?? {} })),
    source: d.source,
    sourceName: given(d.sourceName),
    created: given(d.created),
    closed: given(d.closed),
  };
  if (etag !== undefined) record.etag = etag;
  return record;
}
