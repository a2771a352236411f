/**
 * The draft rules the form and the core check before sending (spec "Party type rules",
 * "Delivery: request fields", "GET /api/v3/transports", "Transport option").
 */
import { describe, expect, it } from 'vitest';
import { shipmentDraft, type ShipmentDraftInput } from '../../../shared/contract/newShipment';
import { bannedBy, checkDraft } from '../../../shared/newShipment/draftRules';

const draft = (over: Partial<ShipmentDraftInput> = {}) =>
  shipmentDraft.parse({
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      surname: 'Nováková',
      phone: '+420601234567',
      address: { street: 'Dlouhá 12', city: 'Praha', postalCode: '11000', state: 'cz' },
    },
    value: '1 500,50',
    valueCurrency: 'czk',
    packages: [{ weight: '2,35', length: '30', width: '20', height: '10' }],
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    ...over,
  });
const fields = (d: ReturnType<typeof draft>, o: Parameters<typeof checkDraft>[1]) =>
  checkDraft(d, o).map((i) => `${i.field}:${i.code}`);

describe('draft input (spec "Common conventions" 5-6)', () => {
  it('takes a decimal comma and spaces, keeps exact decimal text, upper-cases codes', () => {
    const d = draft();
    expect(d.value).toBe('1500.50');
    expect(d.packages[0]!.weight).toBe('2.35');
    expect(d.valueCurrency).toBe('CZK');
    expect(d.recipient.address.state).toBe('CZ');
  });
  it('refuses a weight with more than 3 decimals and money with more than 2', () => {
    expect(shipmentDraft.safeParse({ ...draft(), packages: [{ weight: '1,2345' }] }).success).toBe(false);
    expect(shipmentDraft.safeParse({ ...draft(), value: '10.001' }).success).toBe(false);
  });
});

describe('number formats as typed in the form (the form checks them itself, in the UI language)', () => {
  // The form holds the raw typed text: what the worker typed, not yet through the contract.
  const typed = (over: Partial<ReturnType<typeof draft>>) => ({ ...draft(), ...over });
  const pkg = (p: Partial<ReturnType<typeof draft>['packages'][number]>) => [{ ...draft().packages[0]!, ...p }];

  it('letters, a negative amount or too many digits are named on their field with a format code', () => {
    const d = typed({
      value: 'abc',
      cod: '-50',
      codCurrency: 'CZK',
      variableSymbol: '1',
      packages: pkg({ weight: 'dva', length: '-3', width: '99999999999999999999', height: '10,5' }),
    });
    expect(fields(d, { purpose: 'search' })).toEqual([
      'value:amountFormat',
      'cod:amountFormat',
      'packages.0.weight:weightFormat',
      'packages.0.length:dimensionFormat',
      'packages.0.width:dimensionFormat',
      'packages.0.height:dimensionFormat',
    ]);
  });
  it('a decimal comma, spaces and a point are all fine; an optional dimension left empty is not an error on save', () => {
    const d = typed({
      value: '1 500,5',
      cod: '0,2',
      codCurrency: 'CZK',
      variableSymbol: '1',
      packages: pkg({ weight: '0,125', length: '', width: '', height: '' }),
    });
    expect(fields(d, { purpose: 'save' })).toEqual([]);
    expect(fields(typed({ packages: pkg({ weight: '2.5' }) }), { purpose: 'search' })).toEqual([]);
  });
  it('what the form lets through, the contract accepts (one rule on both sides)', () => {
    for (const v of ['0,1', '1 500,50', '999999999.99'])
      expect(shipmentDraft.safeParse({ ...draft(), value: v }).success).toBe(true);
    for (const v of ['abc', '-1', '1e3', '10.001', '1234567890']) {
      expect(shipmentDraft.safeParse({ ...draft(), value: v }).success).toBe(false);
      expect(fields(typed({ value: v }), { purpose: 'search' })).toEqual(['value:amountFormat']);
    }
  });
});

describe("a weight above 0 (0 was once accepted, and −1 got 'a number with at most 3 decimals')", () => {
  const typed = (weight: string) => ({ ...draft(), packages: [{ ...draft().packages[0]!, weight }] });
  it('0, 0,000 and −1 are "more than 0" on the form, and the core refuses them too (the renderer is untrusted)', () => {
    for (const w of ['0', '0,000', '-1', '-0,5']) {
      expect(fields(typed(w), { purpose: 'search' })).toEqual(['packages.0.weight:weightPositive']);
      expect(shipmentDraft.safeParse({ ...draft(), packages: [{ weight: w }] }).success).toBe(false);
    }
  });
  it('the smallest weight the service takes (1 g) is fine; a wrong format is still a format error', () => {
    expect(fields(typed('0,001'), { purpose: 'search' })).toEqual([]);
    expect(shipmentDraft.safeParse({ ...draft(), packages: [{ weight: '0,001' }] }).success).toBe(true);
    expect(fields(typed('-1,2345'), { purpose: 'search' })).toEqual(['packages.0.weight:weightPositive']);
    expect(fields(typed('1,2345'), { purpose: 'search' })).toEqual(['packages.0.weight:weightFormat']);
  });
});

describe('party type rules', () => {
  it('a collection place needs only its identifier; an address needs names, street, city, postal code and phone or e-mail', () => {
    expect(fields(draft(), { purpose: 'save' })).toEqual([]);
    const d = draft({ recipient: { type: 'address', address: { state: 'CZ' } } });
    expect(fields(d, { purpose: 'save' })).toEqual([
      'recipient.address.postalCode:required',
      'recipient.address.street:required',
      'recipient.address.city:required',
      'recipient.surname:required',
      'recipient.phone:phoneOrEmail',
    ]);
  });
  it('a pick-up place needs its identifier and the person, no address; a sender cannot be one', () => {
    const d = draft({
      sender: { type: 'pickUpPlace', pickUpPlace: 'BOX-1234' },
      recipient: { type: 'pickUpPlace', surname: 'Nováková', email: 'j@example.cz' },
    });
    expect(fields(d, { purpose: 'save' })).toEqual([
      'sender.type:pickUpRecipientOnly',
      'recipient.pickUpPlace:required',
    ]);
  });
  it('COD needs its currency and variable symbol; the search needs dimensions, the insert only when the type requires them', () => {
    const d = draft({ cod: '100', codCurrency: '', packages: [{ weight: '1' }] });
    expect(fields(d, { purpose: 'save' })).toEqual(['codCurrency:required', 'variableSymbol:required']);
    expect(fields(d, { purpose: 'search' })).toEqual([
      'codCurrency:required',
      'packages.0.length:dimensionsForSearch',
      'packages.0.width:dimensionsForSearch',
      'packages.0.height:dimensionsForSearch',
    ]);
    expect(
      fields(draft({ packages: [{ weight: '1' }] }), {
        purpose: 'save',
        requires: { phoneRequired: false, dimensionsRequired: true },
      }),
    ).toContain('packages.0.length:dimensionsRequired');
  });
  it('phoneRequired replaces "phone or e-mail" with the reason', () => {
    const d = draft({
      recipient: {
        type: 'address',
        surname: 'N',
        email: 'n@example.cz',
        address: { street: 'A 1', city: 'B', postalCode: '11000', state: 'CZ' },
      },
    });
    expect(fields(d, { purpose: 'save', requires: { phoneRequired: true, dimensionsRequired: false } })).toEqual([
      'recipient.phone:phoneRequired',
    ]);
  });
});

describe('extra services (spec "Transport option": bans, arguments)', () => {
  const services = [
    { code: 'guaranteed_24', implicit: false, bans: ['day_definite'], arguments: [] },
    { code: 'day_definite', implicit: false, bans: ['guaranteed_24'], arguments: [{ identifier: 'date' }] },
    { code: 'back_delivery', implicit: true, bans: ['cod', 'direct_delivery'], arguments: [] },
    { code: 'sms_service', implicit: false, bans: [], arguments: [] },
  ];
  it('a chosen or implicit service bans the other one (both ways)', () => {
    expect(bannedBy('day_definite', ['guaranteed_24'], services)).toBe('guaranteed_24');
    expect(bannedBy('cod', [], services)).toBe('back_delivery');
    expect(bannedBy('sms_service', ['guaranteed_24'], services)).toBeNull();
  });
  it('a banned pair and a missing argument are refused on their fields', () => {
    const d = draft({ extraServices: [{ code: 'guaranteed_24' }, { code: 'day_definite', arguments: { date: '' } }] });
    expect(fields(d, { purpose: 'save', services })).toEqual([
      'extraServices.guaranteed_24:banned',
      'extraServices.day_definite:banned',
      'extraServices.day_definite.arguments.date:argumentRequired',
    ]);
  });
});

describe('house number (spec "Delivery: request fields": street must include it unless streetNumber is given)', () => {
  const at = (street: string, streetNumber: string) =>
    draft({
      recipient: {
        ...draft().recipient,
        address: { street, streetNumber, city: 'Trutnov', postalCode: '54101', state: 'CZ' },
      },
    });
  it('a street without a number needs No., for the search as for the insert', () => {
    expect(fields(at('Úpská', ''), { purpose: 'search' })).toContain('recipient.address.streetNumber:houseNumber');
    expect(fields(at('Úpská', ''), { purpose: 'save' })).toContain('recipient.address.streetNumber:houseNumber');
    expect(fields(at('Úpská', '12/3'), { purpose: 'search' })).toEqual([]);
    expect(fields(at('Úpská 12', ''), { purpose: 'save' })).toEqual([]);
  });
  it('a number in both Street and No. would print twice ("Úpská 12 12/3"): refused on the street', () => {
    expect(fields(at('Úpská 12', '12/3'), { purpose: 'search' })).toEqual([
      'recipient.address.street:houseNumberTwice',
    ]);
    // A number inside the street's name is not its house number.
    expect(fields(at('28. října', '5'), { purpose: 'save' })).toEqual([]);
  });
});
