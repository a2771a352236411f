import { describe, expect, test } from 'vitest';
import {
  cancelDelivery,
  closeDeliveries,
  createDelivery,
  presentDelivery,
  presentPlace,
  replaceDelivery,
  STATE_NAMES,
} from '../../domain';
import { NOW, item, places, stored, valid } from './fixtures';

const close = (ds = [stored()]) => {
  const r = closeDeliveries(ds, { now: NOW, places, nextCarrierNumber: () => '1' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.closed;
};

describe('spec "States and transitions"', () => {
  test('state names are exactly as the spec table', () => {
    expect(STATE_NAMES).toEqual({
      0: 'Připravená',
      1: 'Neodeslaná',
      2: 'Odeslaná',
      3: 'Doručená',
      4: 'Vrácená',
      5: 'Doručená',
      6: 'Vrácená',
      10: 'Zrušená',
    });
  });
  test('POST: a new shipment is in state 0 with its deliveryId, source 3 "API" and the created timestamp', () => {
    const d = createDelivery(valid([item()])[0]!, { deliveryId: 42, now: NOW });
    expect(d).toMatchObject({
      deliveryId: 42,
      deliveryState: 0,
      deliveryStateName: 'Připravená',
      source: 3,
      sourceName: 'API',
      created: '2024-05-02T10:00:00+02:00',
      closed: null,
      deliveryNumber: null,
    });
    expect(d.packages[0]!.barcode).toBeNull();
  });
  test('PUT replaces the data of an unclosed shipment, keeps id and created, bumps the version', () => {
    const d = stored();
    const r = replaceDelivery(d, valid([item({ value: 99, ticketNote: 'new' })])[0]!, { now: NOW });
    expect(r.ok && r.value).toMatchObject({
      deliveryId: 1,
      created: d.created,
      value: '99',
      ticketNote: 'new',
      version: d.version + 1,
    });
  });
  test('rule 1: closed and cancelled shipments cannot be edited (422)', () => {
    const input = valid([item()])[0]!;
    const edited = replaceDelivery(close()[0]!, input, { now: NOW, index: 3 });
    expect(edited.ok).toBe(false);
    if (!edited.ok) {
      expect(edited.status).toBe(422);
      expect(edited.errors[0]!.field).toBe('[3].deliveryId');
      expect(edited.errors[0]!.message.cs).toMatch(/uzavřená/);
    }
    const cancelled = cancelDelivery(stored());
    expect(cancelled.ok && replaceDelivery(cancelled.value, input, { now: NOW }).ok).toBe(false);
  });
  test('DELETE: state 0 -> 10; closed or cancelled -> 422', () => {
    const r = cancelDelivery(stored());
    expect(r.ok && [r.value.deliveryState, r.value.deliveryStateName]).toEqual([10, 'Zrušená']);
    expect(r.ok && cancelDelivery(r.value).ok).toBe(false);
    const again = cancelDelivery(close()[0]!);
    expect(!again.ok && again.status).toBe(422);
  });
});

describe('spec "Delivery: response fields"', () => {
  test('decimals are JSON numbers and types are normalised', () => {
    const p = presentDelivery(stored({ value: '1500.50', packages: [{ weight: '2,30' }] }), { places });
    expect(p.value).toBe(1500.5);
    expect(p.packages).toEqual([{ weight: 2.3, length: null, width: null, height: null, barcode: null }]);
  });
  test('a cod amount lists the cod extra service with empty arguments (an empty array in JSON)', () => {
    const p = presentDelivery(stored({ cod: 250, codCurrency: 'CZK', variableSymbol: '77' }), { places });
    expect(p.extraServices).toEqual([{ code: 'cod', arguments: [] }]);
    expect(p.cod).toBe(250);
  });
  test('spaces in phone numbers are removed', () => {
    expect((presentDelivery(stored(), { places }).recipient as { phone: string }).phone).toBe('+420601234567');
  });
  test('after create a collection-place sender is expanded with name, contact data and address', () => {
    expect(presentDelivery(stored(), { places }).sender).toEqual({
      type: 'collectionPlace',
      collectionPlace: 'WH-PRAHA',
      name: 'Demo Shop s.r.o. - sklad Praha',
      surname: 'Demo Shop s.r.o. - sklad Praha',
      contactPerson: 'Petr Svoboda',
      email: 'sklad.praha@example.cz',
      phone: '+420222111000',
      address: { street: 'Průmyslová 1472/11', streetNumber: null, city: 'Praha 10', postalCode: '10200', state: 'CZ' },
    });
  });
  test('after closing a collection-place sender is reduced to type and collectionPlace; parties carry type', () => {
    const p = presentDelivery(close()[0]!, { places });
    expect(p.sender).toEqual({ type: 'collectionPlace', collectionPlace: 'WH-PRAHA' });
    expect((p.recipient as { type: string }).type).toBe('address');
  });
  test('fields selects keys; unknown names are ignored; order does not matter', () => {
    const d = stored();
    expect(Object.keys(presentDelivery(d, { places, fields: ['value', 'deliveryId', 'nonsense'] })).sort()).toEqual([
      'deliveryId',
      'value',
    ]);
    expect(Object.keys(presentDelivery(d, { places, fields: ['nonsense'] }))).toHaveLength(21);
    expect(Object.keys(presentDelivery(d, { places }))).toHaveLength(21);
  });
  test('sandbox-internal fields are never presented', () => {
    const p = presentDelivery(stored(), { places });
    for (const k of ['version', 'protocolId', 'sentAt', 'finalState']) expect(p).not.toHaveProperty(k);
  });
});

test('spec "Collection place": the record has exactly the spec fields', () => {
  expect(Object.keys(presentPlace(places[0]!)).sort()).toEqual([
    'city',
    'contactPerson',
    'email',
    'identificator',
    'name',
    'phone',
    'postalCode',
    'state',
    'street',
  ]);
});
