/** Builds cached-shipment records for store and lookup tests (what the sync would store). */
import type { ShipmentRecord } from '../../electron/store/shipmentsRepo';

export function shipmentRecord(deliveryId: number, over: Partial<ShipmentRecord> = {}): ShipmentRecord {
  return {
    deliveryId,
    externalId: `ORD-${deliveryId}`,
    deliveryNumber: null,
    state: 0,
    stateName: 'Připravená',
    agent: 'CP',
    deliveryType: 'DR',
    collectionPlace: 'PLACE-1',
    recipient: {
      type: 'address',
      collectionPlace: null,
      pickUpPlace: null,
      name: null,
      firstname: 'Jan',
      surname: 'Dvořák',
      contactPerson: null,
      email: 'jan@example.cz',
      phone: '+420777000111',
      address: { street: 'Dlouhá 1', streetNumber: null, city: 'Praha', postalCode: '11000', state: 'CZ' },
    },
    sender: {
      type: 'collectionPlace',
      collectionPlace: 'PLACE-1',
      pickUpPlace: null,
      name: null,
      firstname: null,
      surname: null,
      contactPerson: null,
      email: null,
      phone: null,
      address: null,
    },
    value: '1234.50',
    valueCurrency: 'CZK',
    cod: null,
    codCurrency: null,
    variableSymbol: null,
    ticketNote: null,
    packages: [{ barcode: null, weight: '2.3', length: null, width: null, height: null }],
    extraServices: [],
    source: 3,
    sourceName: 'API',
    created: '2026-11-20T10:00:00+01:00',
    closed: null,
    ...over,
  };
}

/** The same record after closing: carrier number and one barcode per package. */
export function closedRecord(deliveryId: number, over: Partial<ShipmentRecord> = {}): ShipmentRecord {
  const base = shipmentRecord(deliveryId, over);
  return {
    ...base,
    state: 1,
    stateName: 'Neodeslaná',
    deliveryNumber: `DR${String(deliveryId).padStart(9, '0')}CZ`,
    closed: '2026-11-21T08:00:00+01:00',
    ...over,
    packages: base.packages.map((p, i) => ({ ...p, barcode: p.barcode ?? `PKG${deliveryId}-${i + 1}` })),
  };
}
