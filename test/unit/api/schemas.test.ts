import { describe, expect, it } from 'vitest';
import * as S from '../../../electron/api/schemas';

const base = {
  deliveryId: 7,
  deliveryNumber: null,
  deliveryState: 0,
  deliveryStateName: 'Připravená',
  source: 3,
  sourceName: 'API',
  created: '2024-05-01T10:00:00+02:00',
  closed: null,
  agent: 'NP',
  deliveryType: 'NP-DOOR',
  value: 100,
  valueCurrency: 'CZK',
  cod: null,
  codCurrency: null,
  variableSymbol: null,
  externalId: 'E1',
  ticketNote: null,
  extraServices: [],
  packages: [{ weight: 1.5, length: null, width: null, height: null, barcode: null }],
  recipient: { type: 'address', surname: 'A', address: { street: 'S 1', city: 'C', postalCode: 11000, state: 'CZ' } },
  sender: { type: 'collectionPlace', collectionPlace: 'WH' },
};

describe('delivery schema (spec "Delivery: response fields")', () => {
  it('reads a full record, postal code given as a number becomes text', () => {
    const d = S.delivery.parse(base);
    expect(d.value).toBe('100');
    expect(d.recipient.address).toEqual({ street: 'S 1', city: 'C', postalCode: '11000', state: 'CZ' });
  });

  it('accepts every state id of the spec and nothing else', () => {
    for (const st of [0, 1, 2, 3, 4, 5, 6, 10])
      expect(S.delivery.safeParse({ ...base, deliveryState: st }).success).toBe(true);
    for (const st of [7, 9, -1, '0']) expect(S.delivery.safeParse({ ...base, deliveryState: st }).success).toBe(false);
  });

  it('refuses ids that are not positive integers', () => {
    for (const id of ['7', 0, 1.5, null]) expect(S.delivery.safeParse({ ...base, deliveryId: id }).success).toBe(false);
  });

  it('reads extra service arguments: [] is none, an object is kept as text', () => {
    const d = S.delivery.parse({
      ...base,
      extraServices: [
        { code: 'cod', arguments: [] },
        { code: 'sms_advice_unload', arguments: { phone: 420601 } },
      ],
    });
    expect(d.extraServices).toEqual([{ code: 'cod' }, { code: 'sms_advice_unload', arguments: { phone: '420601' } }]);
  });

  it('decodes MIME base64 with line breaks', () => {
    const pdf = Buffer.from('%PDF-1.4 label');
    const mime = pdf.toString('base64').replace(/(.{8})/g, '$1\r\n');
    expect(S.base64Pdf.parse(mime).equals(pdf)).toBe(true);
    expect(S.base64Pdf.safeParse('not base64!').success).toBe(false);
  });

  it('reads a PDF label item as an object or a list', () => {
    const t = { created: '2024-05-01T10:00:00+02:00', size: 3, contents: Buffer.from('abc').toString('base64') };
    expect(S.tickets.parse(t)).toHaveLength(1);
    expect(S.tickets.parse([t, t])).toHaveLength(2);
  });
});
