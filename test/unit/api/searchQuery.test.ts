import { describe, expect, it } from 'vitest';
import { MAX_URL_BYTES, searchQueryString, splitForUrl } from '../../../electron/api/searchQuery';

describe('search query strings (spec "GET /api/v3/deliveries" filter rules)', () => {
  it('joins enumerations with commas (rule 3) and fields likewise', () => {
    expect(searchQueryString({ deliveryIds: [3, 1, 2], fields: ['deliveryId', 'deliveryState'] })).toBe(
      'deliveryId=3,1,2&fields=deliveryId,deliveryState',
    );
    expect(searchQueryString({ filters: { agent: ['NP', 'PPR'] } })).toBe('agent=NP,PPR');
  });

  it('writes a comparison with a > or < prefix (rule 4), and a range as key[] twice', () => {
    expect(searchQueryString({ filters: { deliveryId: { gt: 120 } } })).toBe('deliveryId=%3E120');
    expect(searchQueryString({ filters: { value: { gt: '10', lt: '20.5' } } })).toBe('value[]=%3E10&value[]=%3C20.5');
  });

  it('encodes full-text values (rule 2)', () => {
    expect(searchQueryString({ filters: { 'recipient.surname': 'Nováková & syn' } })).toBe(
      'recipient.surname=Nov%C3%A1kov%C3%A1%20%26%20syn',
    );
  });

  it('refuses ids together with a deliveryId filter', () => {
    expect(() => searchQueryString({ deliveryIds: [1], filters: { deliveryId: { gt: 1 } } })).toThrow();
  });
});

describe('splitting (spec Limits: 100 results, ~8000-byte URL)', () => {
  const url = (ids: readonly (number | string)[]) => `http://127.0.0.1:1/api/v3/deliveries?deliveryId=${ids.join(',')}`;

  it('makes chunks of at most 100, de-duplicated, order kept', () => {
    const ids = Array.from({ length: 250 }, (_, i) => i + 1);
    const chunks = splitForUrl([...ids, 5, 6], url);
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(ids);
  });

  it('keeps every URL under the byte limit with long values', () => {
    const long = Array.from({ length: 100 }, (_, i) => `${'č'.repeat(40)}-${i}`);
    const enc = (v: readonly string[]) =>
      `http://127.0.0.1:1/api/v3/deliveries?externalId=${v.map(encodeURIComponent).join(',')}`;
    const chunks = splitForUrl(long, enc);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(Buffer.byteLength(enc(c))).toBeLessThanOrEqual(MAX_URL_BYTES);
    expect(chunks.flat()).toEqual(long);
  });

  it('refuses a single value that can never fit', () => {
    expect(() => splitForUrl(['x'.repeat(9000)], (v) => v.join(','))).toThrow(RangeError);
  });
});
