import { describe, expect, test } from 'vitest';
import { searchTransports } from '../../domain';
import type { TransportOption } from '../../domain';
import { NOW, places } from './fixtures';

const fromPraha = { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' };
const toAddress = { type: 'address', address: { postalCode: '11000', state: 'CZ' } };
const request = (over: Record<string, unknown> = {}) => ({
  value: 100,
  valueCurrency: 'CZK',
  packages: [{ weight: 2, length: 30, width: 20, height: 10 }],
  sender: fromPraha,
  recipient: toAddress,
  ...over,
});

function options(over: Record<string, unknown> = {}, lang: 'en' | 'cs' = 'en'): TransportOption[] {
  const r = searchTransports([request(over)], { places, now: NOW, lang });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value[0]!.transports;
}
const option = (type: string, over: Record<string, unknown> = {}) =>
  options(over).find((o) => o.deliveryType.code === type)!;
const finalPrice = (o: TransportOption) =>
  Math.round(
    o.price!.total * 100 +
      o.extraServices.filter((s) => s.implicit).reduce((sum, s) => sum + (s.price ? s.price.total * 100 : 0), 0),
  ) / 100;

describe('spec "GET /api/v3/transports"', () => {
  test('one item per requested shipment with its zero-based delivery index', () => {
    const r = searchTransports([request(), request({ recipient: { type: 'pickUpPlace' } })], { places, now: NOW });
    expect(r.ok && r.value.map((x) => x.delivery)).toEqual([0, 1]);
  });
  test('package dimensions are always required here', () => {
    const r = searchTransports([request({ packages: [{ weight: 2 }] })], { places, now: NOW });
    expect(!r.ok && r.errors.map((e) => e.field)).toEqual([
      '[0].packages[0].length',
      '[0].packages[0].width',
      '[0].packages[0].height',
    ]);
  });
  test('agent, deliveryType and personal data are not needed', () => {
    expect(options().length).toBeGreaterThan(3);
  });
  test('bad input is a 422 listing errors, not a crash', () => {
    const r = searchTransports('x', { places, now: NOW });
    expect(!r.ok && r.status).toBe(422);
  });
  test('only delivery types accepting the recipient party type are offered', () => {
    expect(options({ recipient: { type: 'pickUpPlace' } }).map((o) => o.deliveryType.code)).toEqual([
      'NP-POST',
      'BOX-LOCKER',
      'SHP-POINT',
    ]);
  });
  test('a foreign destination limits the offer to carriers serving it', () => {
    expect(
      options({ recipient: { type: 'address', address: { postalCode: '10115', state: 'DE' } } }).map(
        (o) => o.deliveryType.code,
      ),
    ).toEqual(['PPR-BUSINESS']);
  });
});

describe('spec "Transport option" fields', () => {
  test('agent, deliveryType with phoneRequired/dimensionsRequired, insurance', () => {
    const o = option('PPR-PRIVATE');
    expect(o.agent).toEqual({ code: 'PPR', name: 'ParcelPro' });
    expect(o.deliveryType).toEqual({
      code: 'PPR-PRIVATE',
      name: 'Private parcel',
      phoneRequired: true,
      dimensionsRequired: true,
    });
    expect(o.insurance.description).toMatch(/100,000 CZK/);
  });
  test('texts come in Czech when asked', () => {
    const o = options({}, 'cs').find((x) => x.deliveryType.code === 'PPR-PRIVATE')!;
    expect(o.deliveryType.name).toBe('Soukromý balík');
    expect(o.price!.fees[0]!.categoryName).toBe('Palivový příplatek');
  });
  test('deliveryTime: pick-up interval for a collected shipment, nulls where the carrier has no windows', () => {
    expect(option('PPR-BUSINESS').deliveryTime).toEqual({
      pickUpFrom: '2024-05-03T10:00:00+02:00',
      pickUpTo: '2024-05-03T14:00:00+02:00',
      minDeliveryFrom: '2024-05-06T08:00:00+02:00',
      minDeliveryTo: '2024-05-06T18:00:00+02:00',
      maxDeliveryFrom: '2024-05-06T08:00:00+02:00',
      maxDeliveryTo: '2024-05-06T18:00:00+02:00',
    });
    const np = option('NP-DOOR', {
      sender: { type: 'address', address: { postalCode: '11000', state: 'CZ' } },
    }).deliveryTime;
    expect([np.pickUpFrom, np.pickUpTo, np.minDeliveryFrom, np.maxDeliveryFrom]).toEqual([null, null, null, null]);
    expect(np.minDeliveryTo).toBe('2024-05-06T18:00:00+02:00');
  });
  test('extraServices: implicit flag, bans, arguments; price absent for an unpaid service', () => {
    const o = option('PPR-BUSINESS', { cod: 100, codCurrency: 'CZK' });
    const byCode = Object.fromEntries(o.extraServices.map((s) => [s.code, s]));
    expect(byCode.cod).toMatchObject({
      implicit: true,
      bans: ['back_delivery'],
      arguments: [],
      price: { total: 29, currency: 'CZK' },
    });
    expect(byCode.email_advice_unload).toMatchObject({
      implicit: false,
      arguments: [{ name: 'E-mail', identifier: 'email', example: 'jana.novakova@example.cz' }],
    });
    expect(byCode.email_advice_unload).not.toHaveProperty('price');
    expect(byCode.guaranteed_24!.price).toEqual({ total: 60, currency: 'CZK' });
    // direct/back appear only where the party types imply them.
    expect(byCode.direct_delivery).toBeUndefined();
  });
  test('price is absent for an unpaid transport (contract-priced carrier)', () => {
    const o = option('CCR-SAMEDAY');
    expect(o).not.toHaveProperty('price');
    expect(o.extraServices.every((s) => !('price' in s))).toBe(true);
  });
});

describe('sandbox pricing model (sandbox/domain/README.md)', () => {
  test('base by weight band, fuel fee rounded half up, toll, total = base + fees', () => {
    const o = option('PPR-BUSINESS');
    expect(o.price).toEqual({
      base: 99,
      total: 115.88,
      currency: 'CZK',
      fees: [
        { categoryName: 'Fuel surcharge', category: 1, fee: 12.38 },
        { categoryName: 'Toll', category: 2, fee: 4.5 },
      ],
    });
  });
  test('volumetric weight from dimensions moves a light, bulky package to a higher band', () => {
    // 60 x 40 x 40 cm / 5000 = 19.2 kg chargeable at ParcelPro -> band up to 20 kg.
    expect(option('PPR-BUSINESS', { packages: [{ weight: 1, length: 60, width: 40, height: 40 }] }).price!.base).toBe(
      169,
    );
  });
  test('a foreign destination adds the country surcharge to base', () => {
    expect(
      option('PPR-BUSINESS', { recipient: { type: 'address', address: { postalCode: '81101', state: 'SK' } } }).price!
        .base,
    ).toBe(219);
  });
  test('packages are priced one by one', () => {
    expect(
      option('NP-DOOR', {
        packages: [
          { weight: 1, length: 10, width: 10, height: 10 },
          { weight: 6, length: 10, width: 10, height: 10 },
        ],
      }).price!.base,
    ).toBe(119 + 169);
  });
  test('final price = total + implicit extra services (cod and direct shipment)', () => {
    const sender = { type: 'address', address: { postalCode: '11000', state: 'CZ' } };
    const o = option('PPR-BUSINESS', { sender, cod: 500, codCurrency: 'CZK' });
    expect(o.extraServices.filter((s) => s.implicit).map((s) => s.code)).toEqual(['cod', 'direct_delivery']);
    expect(finalPrice(o)).toBe(115.88 + 29 + 19);
  });
  test('a back shipment carries the implicit back_delivery price', () => {
    const o = option('NP-DOOR', {
      sender: { type: 'address', address: { postalCode: '11000', state: 'CZ' } },
      recipient: fromPraha,
    });
    expect(o.extraServices.filter((s) => s.implicit)).toMatchObject([{ code: 'back_delivery', price: { total: 25 } }]);
    expect(finalPrice(o)).toBe(119 + 25);
  });
  test('a carrier without collection distinction never lists back or direct services', () => {
    const sender = { type: 'address', address: { postalCode: '11000', state: 'CZ' } };
    const o = option('SHP-HOME', { sender });
    expect(o.extraServices.map((s) => s.code)).toEqual(['email_advice_unload', 'sms_advice_unload', 'cod']);
  });
});

test('README pricing example: PPR-BUSINESS 2 kg from WH-PRAHA with COD -> final 144.88', () => {
  const o = option('PPR-BUSINESS', { cod: 500, codCurrency: 'CZK' });
  expect([o.price!.base, o.price!.total, finalPrice(o)]).toEqual([99, 115.88, 144.88]);
});
