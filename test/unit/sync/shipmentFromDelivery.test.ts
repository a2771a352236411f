import { describe, expect, it } from 'vitest';
import { delivery } from '../../../electron/api/schemas';
import { shipmentFromDelivery } from '../../../electron/sync/shipmentFromDelivery';

/** A record as the service sends it, read by the client's schema, then mapped: the station's one path. */
const fromService = (raw: unknown, etag?: string | null) => shipmentFromDelivery(delivery.parse(raw), etag);

describe('a delivery record as a cached shipment (spec "Delivery: response fields")', () => {
  const closedRecord = {
    deliveryId: 1042,
    deliveryNumber: 'DR1042CZ',
    deliveryState: 1,
    deliveryStateName: 'Neodeslaná',
    source: 3,
    sourceName: 'API',
    created: '2026-11-20T10:00:00+01:00',
    closed: '2026-11-21T08:00:00+01:00',
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    value: 4200.5,
    valueCurrency: 'CZK',
    cod: '4200,50',
    codCurrency: 'CZK',
    variableSymbol: '20241002',
    externalId: 'ORD-1002',
    ticketNote: '',
    extraServices: [
      { code: 'cod', arguments: [] },
      { code: 'email_advice_unload', arguments: { email: 'a@b.cz' } },
    ],
    packages: [{ weight: 1.5, barcode: 'NP1042-1', length: null, width: '30', height: null }],
    recipient: {
      type: 'address',
      firstname: 'Karel',
      surname: 'Procházka',
      address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
    },
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
  };

  it('maps every field, leniently where the spec says types are informative', () => {
    expect(fromService(closedRecord, '"e1"')).toMatchObject({
      deliveryId: 1042,
      state: 1,
      value: '4200.5',
      cod: '4200.50',
      ticketNote: null,
      collectionPlace: 'WH-PRAHA',
      etag: '"e1"',
      extraServices: [
        { code: 'cod', arguments: {} },
        { code: 'email_advice_unload', arguments: { email: 'a@b.cz' } },
      ],
      packages: [{ weight: '1.5', barcode: 'NP1042-1', length: null, width: 30, height: null }],
      recipient: { firstname: 'Karel', address: { city: 'Praha 1', streetNumber: null } },
    });
  });

  it('reads an expanded collection-place sender (shown after creation) with its name and address', () => {
    const r = fromService({
      ...closedRecord,
      sender: {
        type: 'collectionPlace',
        collectionPlace: 'WH-BRNO',
        name: 'Sklad Brno',
        street: 'Vídeňská 55',
        city: 'Brno',
        postalCode: '63900',
        state: 'CZ',
      },
    });
    expect(r.sender).toMatchObject({
      collectionPlace: 'WH-BRNO',
      name: 'Sklad Brno',
      address: { city: 'Brno', street: 'Vídeňská 55' },
    });
  });

  it("a record without a usable deliveryId, state or value is refused by the client's schema, saying which", () => {
    const refused = (raw: unknown) => {
      const r = delivery.safeParse(raw);
      return r.success ? null : r.error.issues.map((i) => i.path.join('.')).join(',');
    };
    expect(refused({ ...closedRecord, deliveryId: 'abc' })).toMatch(/deliveryId/);
    expect(refused({ ...closedRecord, deliveryId: -4 })).toMatch(/deliveryId/);
    expect(refused({ ...closedRecord, deliveryState: null })).toMatch(/deliveryState/);
    expect(refused({ ...closedRecord, deliveryState: 7 })).toMatch(/deliveryState/);
    expect(refused({ ...closedRecord, value: '12 Kč' })).toMatch(/value/);
    expect(refused('nonsense')).not.toBeNull();
    expect(refused({ ...closedRecord, cod: '.5' })).toBeNull();
    expect(fromService({ ...closedRecord, cod: '-0007,10' }).cod).toBe('-7.10');
  });
});
