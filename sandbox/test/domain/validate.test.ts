import { describe, expect, test } from 'vitest';
import { demoDeliveries, validateDeliveries } from '../../domain';
import { errorsOf, item, places, valid } from './fixtures';

const fields = (errs: Array<{ field: string }>) => errs.map((e) => e.field);

describe('spec "Common conventions" 5-6: request types are informative', () => {
  test('the string "2.3" and the number 2.3 give the same shipment', () => {
    const [a, b] = valid([
      item({ packages: [{ weight: 2.3 }], value: 1500 }),
      item({ packages: [{ weight: '2.3' }], value: '1500' }),
    ]);
    expect(a!.packages).toEqual(b!.packages);
    expect(a!.value).toBe(b!.value);
  });
  test('a decimal comma is accepted in weight', () => {
    expect(valid([item({ packages: [{ weight: '1,25' }] })])[0]!.packages[0]!.weight).toBe('1.25');
  });
  test('dimensions given as strings are whole numbers', () => {
    const [d] = valid([
      item({
        agent: 'PPR',
        deliveryType: 'PPR-PRIVATE',
        packages: [{ weight: 1, length: '40', width: 30, height: '20' }],
      }),
    ]);
    expect(d!.packages[0]).toEqual({ weight: '1', length: 40, width: 30, height: 20 });
  });
  test('weights and money stay exact decimals (no float drift)', () => {
    const [d] = valid([item({ value: '0.1', packages: [{ weight: '0.1' }, { weight: '0.2' }] })]);
    expect(d!.value).toBe('0.1');
    expect(d!.packages.map((p) => p.weight)).toEqual(['0.1', '0.2']);
  });
});

describe('spec "POST /api/v3/deliveries": all-or-nothing with every error listed', () => {
  test('errors of several shipments are all listed with the leading [index]', () => {
    const errs = errorsOf([item(), item({ value: 'abc' }), item({ agent: 'XX' })]);
    expect(fields(errs)).toEqual(['[1].value', '[2].agent']);
    expect(errs[0]!.value).toBe('abc');
    expect(errs[0]!.message.en).toMatch(/value/);
    expect(errs[0]!.message.cs).toMatch(/value/);
  });
  test('required fields are reported with their paths', () => {
    const errs = errorsOf([{ sender: {}, recipient: {} }]);
    expect(fields(errs)).toEqual(
      expect.arrayContaining([
        '[0].agent',
        '[0].deliveryType',
        '[0].value',
        '[0].valueCurrency',
        '[0].packages',
        '[0].sender.type',
        '[0].recipient.type',
      ]),
    );
  });
  test('an empty or missing list is an error, not a crash', () => {
    expect(validateDeliveries([], { places, mode: 'insert' }).ok).toBe(false);
    expect(validateDeliveries('nonsense', { places, mode: 'insert' }).ok).toBe(false);
    expect(errorsOf([42])[0]!.field).toBe('[0]');
  });
  test('form and XML lists (index-keyed objects, single element) read like arrays', () => {
    const [d] = valid([
      item({ packages: { 0: { weight: '1' }, 1: { weight: '2' } }, extraServices: { code: 'addressee_only' } }),
    ]);
    expect(d!.packages).toHaveLength(2);
    expect(d!.extraServices.map((s) => s.code)).toEqual(['addressee_only']);
  });
  test('spec "PUT /api/v3/deliveries": edit additionally requires deliveryId', () => {
    expect(fields(errorsOf([item()], 'edit'))).toEqual(['[0].deliveryId']);
    expect(valid([item({ deliveryId: '7' })], 'edit')[0]!.deliveryId).toBe(7);
  });
});

describe('spec "Party type rules" 1-3', () => {
  test('1. address: the address, names and phone or email are required', () => {
    const errs = errorsOf([item({ recipient: { type: 'address', address: { street: 'Dlouhá 1' } } })]);
    expect(fields(errs)).toEqual(
      expect.arrayContaining([
        '[0].recipient.surname',
        '[0].recipient.email',
        '[0].recipient.address.city',
        '[0].recipient.address.postalCode',
        '[0].recipient.address.state',
      ]),
    );
  });
  test('1. email may be omitted when phone is given, and phone when email is given', () => {
    const r = item().recipient as Record<string, unknown>;
    valid([item({ recipient: { ...r, email: undefined } }), item({ recipient: { ...r, phone: '' } })]);
    const errs = errorsOf([item({ recipient: { ...r, email: undefined, phone: undefined } })]);
    expect(errs[0]!.message.en).toMatch(/e-mail or a phone/);
  });
  test('the street must include the house number unless streetNumber is given', () => {
    const r = item().recipient as Record<string, unknown>;
    expect(
      fields(
        errorsOf([
          item({ recipient: { ...r, address: { street: 'Dlouhá', city: 'Praha', postalCode: '11000', state: 'CZ' } } }),
        ]),
      ),
    ).toEqual(['[0].recipient.address.street']);
    valid([
      item({
        recipient: {
          ...r,
          address: { street: 'Dlouhá', streetNumber: '12', city: 'Praha', postalCode: '11000', state: 'CZ' },
        },
      }),
    ]);
  });
  test('2. collectionPlace: only the identifier is needed; unknown and inactive places are refused', () => {
    valid([item({ sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' } })]);
    expect(errorsOf([item({ sender: { type: 'collectionPlace', collectionPlace: 'NOPE' } })])[0]!.field).toBe(
      '[0].sender.collectionPlace',
    );
    expect(
      errorsOf([item({ sender: { type: 'collectionPlace', collectionPlace: 'OLD-PLZEN' } })])[0]!.message.en,
    ).toMatch(/not active/);
  });
  test('3. pickUpPlace: the identifier and personal data without an address; recipient only', () => {
    const pup = { type: 'pickUpPlace', pickUpPlace: 'BOX-1234', surname: 'Benešová', phone: '603456789' };
    const box = {
      agent: 'BOX',
      deliveryType: 'BOX-LOCKER',
      packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
    };
    valid([item({ ...box, recipient: pup })]);
    expect(fields(errorsOf([item({ ...box, recipient: { ...pup, address: { street: 'x 1' } } })]))).toEqual([
      '[0].recipient.address',
    ]);
    expect(fields(errorsOf([item({ ...box, recipient: { ...pup, pickUpPlace: undefined } })]))).toEqual([
      '[0].recipient.pickUpPlace',
    ]);
    expect(fields(errorsOf([item({ sender: pup })]))).toEqual(['[0].sender.type']);
  });
  test("a pick-up place identifier must have the carrier's format", () => {
    const errs = errorsOf([
      item({
        agent: 'SHP',
        deliveryType: 'SHP-POINT',
        recipient: { type: 'pickUpPlace', pickUpPlace: 'BOX-1', surname: 'X', phone: '603456789' },
      }),
    ]);
    expect(errs[0]!.field).toBe('[0].recipient.pickUpPlace');
    expect(errs[0]!.message.en).toMatch(/SHP-0042/);
  });
  test('the delivery type must accept the recipient party type', () => {
    const errs = errorsOf([item({ deliveryType: 'NP-POST' })]);
    expect(fields(errs)).toContain('[0].recipient.type');
  });
});

describe('spec "Delivery: request fields": conditional fields', () => {
  test('cod requires codCurrency and variableSymbol', () => {
    expect(fields(errorsOf([item({ cod: 100 })]))).toEqual(['[0].codCurrency', '[0].variableSymbol']);
  });
  test('cod adds the implicit cod extra service with empty arguments', () => {
    const [d] = valid([item({ cod: '100,50'.replace(',', '.'), codCurrency: 'czk', variableSymbol: '123' })]);
    expect(d!.cod).toBe('100.5');
    expect(d!.codCurrency).toBe('CZK');
    expect(d!.extraServices).toContainEqual({ code: 'cod', arguments: {} });
  });
  test('phone spaces are removed', () => {
    expect(valid([item()])[0]!.recipient.phone).toBe('+420601234567');
  });
  test('dimensions are required when the delivery type has dimensionsRequired', () => {
    const errs = errorsOf([item({ agent: 'PPR', deliveryType: 'PPR-PRIVATE', packages: [{ weight: 1 }] })]);
    expect(fields(errs)).toEqual(['[0].packages[0].length', '[0].packages[0].width', '[0].packages[0].height']);
  });
  test("the recipient's phone is required when the delivery type has phoneRequired", () => {
    const r = item().recipient as Record<string, unknown>;
    const errs = errorsOf([
      item({
        agent: 'RGX',
        deliveryType: 'RGX-STD',
        packages: [{ weight: 1, length: 1, width: 1, height: 1 }],
        recipient: { ...r, phone: undefined },
      }),
    ]);
    expect(fields(errs)).toEqual(['[0].recipient.phone']);
  });
  test('weight over the delivery type limit and a country it does not serve are refused', () => {
    const r = item().recipient as Record<string, unknown>;
    const errs = errorsOf([
      item({
        packages: [{ weight: 31 }],
        recipient: { ...r, address: { street: 'Ulica 1', city: 'Wien', postalCode: '1010', state: 'AT' } },
      }),
    ]);
    expect(fields(errs)).toEqual(['[0].packages[0].weight', '[0].recipient.address.state']);
  });
});

describe('spec "Delivery: request fields": extra services', () => {
  test('an extra service the carrier does not offer is refused at its code path', () => {
    const errs = errorsOf([item({ extraServices: [{ code: 'addressee_only' }, { code: 'sms_service' }] })]);
    expect(errs.map((e) => [e.field, e.value])).toEqual([['[0].extraServices[1].code', 'sms_service']]);
  });
  test('arguments are required, validated and unknown ones refused', () => {
    const errs = errorsOf([
      item({ extraServices: [{ code: 'email_advice_unload' }] }),
      item({ extraServices: [{ code: 'email_advice_unload', arguments: { email: 'not-an-email' } }] }),
      item({ extraServices: [{ code: 'email_advice_unload', arguments: { email: 'a@b.cz', colour: 'red' } }] }),
    ]);
    expect(fields(errs)).toEqual([
      '[0].extraServices[0].arguments.email',
      '[1].extraServices[0].arguments.email',
      '[2].extraServices[0].arguments.colour',
    ]);
  });
  test('banned pairs are refused: day_definite with guaranteed_24, cod with back_delivery', () => {
    const errs = errorsOf([
      item({ extraServices: [{ code: 'guaranteed_24' }, { code: 'day_definite', arguments: { date: '2030-06-03' } }] }),
    ]);
    expect(errs.map((e) => [e.field, e.message.en])).toEqual([
      ['[0].extraServices[1].code', 'The extra service day_definite cannot be combined with guaranteed_24.'],
    ]);
    const banned = errorsOf([
      item({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: item().recipient,
        recipient: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
        cod: 10,
        codCurrency: 'CZK',
        variableSymbol: '1',
      }),
    ]);
    expect(banned.map((e) => e.message.en)).toEqual(['The extra service back_delivery cannot be combined with cod.']);
  });
  test('the cod service sent without a cod amount is refused', () => {
    const errs = errorsOf([item({ extraServices: [{ code: 'cod' }] })]);
    expect(errs.map((e) => e.field)).toEqual(['[0].extraServices[0].code']);
  });
  test('an extra service given twice is refused', () => {
    expect(
      fields(errorsOf([item({ extraServices: [{ code: 'addressee_only' }, { code: 'addressee_only' }] })])),
    ).toEqual(['[0].extraServices[1].code']);
  });
});

describe('spec "Party type rules" 4-5: implicit services by party types', () => {
  const address = item().recipient as Record<string, unknown>;
  const codes = (over: Record<string, unknown>) => valid([item(over)])[0]!.extraServices.map((s) => s.code);
  test('4. ordinary collection shipment (collectionPlace -> address): nothing implied', () => {
    expect(codes({})).toEqual([]);
  });
  test('4. direct shipment: both address -> direct_delivery', () => {
    expect(codes({ sender: address })).toEqual(['direct_delivery']);
  });
  test('4. back shipment: address -> collectionPlace -> back_delivery', () => {
    expect(codes({ sender: address, recipient: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } })).toEqual([
      'back_delivery',
    ]);
  });
  test('5. a collection place without a collection type for the carrier behaves like an address', () => {
    expect(codes({ sender: { type: 'collectionPlace', collectionPlace: 'SHOP-OSTRAVA' } })).toEqual([
      'direct_delivery',
    ]);
    // WH-BRNO has a collection type for PPR but not for NP.
    expect(codes({ sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' } })).toEqual(['direct_delivery']);
    expect(
      codes({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      }),
    ).toEqual([]);
  });
  test('5. a carrier without the collection distinction has no back or direct service', () => {
    expect(codes({ agent: 'SHP', deliveryType: 'SHP-HOME', sender: address })).toEqual([]);
  });
  test('an implicit service sent explicitly is accepted when implied and refused otherwise', () => {
    expect(codes({ sender: address, extraServices: [{ code: 'direct_delivery', arguments: [] }] })).toEqual([
      'direct_delivery',
    ]);
    expect(fields(errorsOf([item({ extraServices: [{ code: 'direct_delivery' }] })]))).toEqual([
      '[0].extraServices[0].code',
    ]);
  });
});

test('demo seed: every demo shipment passes insert validation', () => {
  const demo = demoDeliveries();
  expect(valid(demo)).toHaveLength(demo.length);
  const ids = demo.map((d) => (d as { externalId: string }).externalId);
  expect(new Set(ids).size).toBe(ids.length);
});
