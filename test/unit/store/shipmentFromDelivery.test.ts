import { describe, expect, it } from 'vitest';
import { toDecimalString } from '../../../electron/sync/decimal';
import { shipmentFromDelivery } from '../../../electron/sync/shipmentFromDelivery';

describe('exact decimals from the service (spec "Common conventions" 5-6)', () => {
  it('keeps the digits of numbers, strings and decimal commas', () => {
    expect(toDecimalString(2.3)).toBe('2.3');
    expect(toDecimalString('2,30')).toBe('2.30');
    expect(toDecimalString(' 1250.50 ')).toBe('1250.50');
    expect(toDecimalString(-0.25)).toBe('-0.25');
    expect(toDecimalString(1e-7)).toBe('0.0000001');
    expect(toDecimalString(1.5e21)).toBe('1500000000000000000000');
    expect(toDecimalString(0.1 + 0.2)).toBe('0.30000000000000004'); // what was sent, not rounded
  });

  it('gives null for what is not a number, never NaN or a guess', () => {
    for (const v of ['', 'abc', '1.2.3', '1,2,3', null, undefined, NaN, Infinity, {}, []]) expect(toDecimalString(v)).toBeNull();
  });
});

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
    extraServices: [{ code: 'cod', arguments: [] }, { code: 'email_advice_unload', arguments: { email: 'a@b.cz' } }],
    packages: [{ weight: 1.5, barcode: 'NP1042-1', length: null, width: '30', height: null }],
    recipient: { type: 'address', firstname: 'Karel', surname: 'Procházka', address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' } },
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
  };

  it('maps every field, leniently where the spec says types are informative', () => {
    const r = shipmentFromDelivery(closedRecord, '"e1"');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.record).toMatchObject({
      deliveryId: 1042,
      state: 1,
      value: '4200.5',
      cod: '4200.50',
      ticketNote: null,
      collectionPlace: 'WH-PRAHA',
      etag: '"e1"',
      extraServices: [{ code: 'cod', arguments: {} }, { code: 'email_advice_unload', arguments: { email: 'a@b.cz' } }],
      packages: [{ weight: '1.5', barcode: 'NP1042-1', length: null, width: 30, height: null }],
      recipient: { firstname: 'Karel', address: { city: 'Praha 1', streetNumber: null } },
    });
  });

  it('reads an expanded collection-place sender (shown after creation) with its name and address', () => {
    const r = shipmentFromDelivery({ ...closedRecord, sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO', name: 'Sklad Brno', street: 'Vídeňská 55', city: 'Brno', postalCode: '63900', state: 'CZ' } });
    expect(r.ok && r.record.sender).toMatchObject({ collectionPlace: 'WH-BRNO', name: 'Sklad Brno', address: { city: 'Brno', street: 'Vídeňská 55' } });
  });

  it('refuses records without a usable deliveryId or state, saying which', () => {
    expect(shipmentFromDelivery({ ...closedRecord, deliveryId: 'abc' })).toMatchObject({ ok: false, message: expect.stringMatching(/deliveryId/) });
    expect(shipmentFromDelivery({ ...closedRecord, deliveryId: -4 })).toMatchObject({ ok: false });
    expect(shipmentFromDelivery({ ...closedRecord, deliveryState: null })).toMatchObject({ ok: false, message: expect.stringMatching(/deliveryState/) });
    expect(shipmentFromDelivery('nonsense')).toMatchObject({ ok: false });
    expect(shipmentFromDelivery({ ...closedRecord, deliveryId: '1042' })).toMatchObject({ ok: true, record: { deliveryId: 1042 } });
  });
});
