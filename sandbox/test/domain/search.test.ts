import { describe, expect, test } from 'vitest';
import { parseSearch } from '../../domain';
import type { StoredDelivery } from '../../domain';
import { stored } from './fixtures';

const address = (surname: string, email: string, phone: string) => ({
  type: 'address',
  surname,
  email,
  phone,
  address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
});

const all: StoredDelivery[] = [
  stored(
    {
      externalId: 'ORD-1001',
      value: 100,
      recipient: address('Nováková', 'jana@example.cz', '+420 601 111 111'),
      packages: [{ weight: 1 }],
    },
    1,
    new Date('2024-05-01T10:00:00Z'),
  ),
  stored(
    {
      externalId: 'ORD-1002',
      value: '150.5',
      ticketNote: 'Křehké zboží',
      recipient: address('Dvořák', 'petr@firma.cz', '602222222'),
      packages: [{ weight: 1 }, { weight: 12 }],
    },
    2,
    new Date('2024-05-02T21:30:00Z'),
  ),
  stored(
    {
      externalId: 'ORD-1010',
      value: 300,
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      cod: 300,
      codCurrency: 'CZK',
      variableSymbol: '555',
      recipient: address('NOVÁK', 'x@y.cz', '603333333'),
      packages: [{ weight: 5 }],
    },
    3,
    new Date('2024-05-03T08:00:00Z'),
  ),
];

function find(...pairs: Array<[string, string]>): number[] {
  const r = parseSearch(pairs);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return all.filter((d) => r.value.matches(d)).map((d) => d.deliveryId);
}

describe('spec "GET /api/v3/deliveries" filter rules', () => {
  test('1. all criteria are combined with AND', () => {
    expect(find(['agent', 'NP'], ['value', '150.5'])).toEqual([2]);
    expect(find(['agent', 'PPR'], ['value', '150.5'])).toEqual([]);
  });
  test('2. full-text keys match a case-insensitive substring', () => {
    expect(find(['recipient.surname', 'nov'])).toEqual([1, 3]);
    expect(find(['recipient.email', 'FIRMA'])).toEqual([2]);
    expect(find(['ticketNote', 'křehké'])).toEqual([2]);
    expect(find(['recipient.phone', '601 111'])).toEqual([1]);
  });
  test('2./5. created with a date matches any time on that (Prague) day', () => {
    // 2024-05-02T21:30Z is 23:30 in Prague on 2 May.
    expect(find(['created', '2024-05-02'])).toEqual([2]);
    expect(find(['created', '2024-05-03'])).toEqual([3]);
  });
  test('3. enumeration keys take comma-separated lists; numbers compare numerically', () => {
    expect(find(['externalId', 'ORD-1001,ORD-1010'])).toEqual([1, 3]);
    expect(find(['value', '100.00,300'])).toEqual([1, 3]);
    expect(find(['deliveryState', '0'])).toEqual([1, 2, 3]);
    expect(find(['source', '3'])).toEqual([1, 2, 3]);
    expect(find(['codCurrency', 'CZK'])).toEqual([3]);
  });
  test('4. > and < compare instead of enumerating (deliveryId> is the cursor of paging)', () => {
    expect(find(['deliveryId', '>1'])).toEqual([2, 3]);
    expect(find(['value', '<150.5'])).toEqual([1]);
    expect(find(['value', '>100'])).toEqual([2, 3]);
  });
  test('4. a range repeats the key as an array with both prefixes', () => {
    expect(find(['value[]', '>100'], ['value[]', '<300'])).toEqual([2]);
  });
  test('5. externalId compares lexicographically', () => {
    // "ORD-1010" < "ORD-1002" is false, but "ORD-1010" > "ORD-1002": lexicographic, not numeric.
    expect(find(['externalId', '>ORD-1002'])).toEqual([3]);
    expect(find(['externalId', '<ORD-1002'])).toEqual([1]);
  });
  test('5. created>date and created<date mean after and before that whole day', () => {
    expect(find(['created', '>2024-05-01'])).toEqual([2, 3]);
    expect(find(['created', '<2024-05-02'])).toEqual([1]);
  });
  test('packages.* keys match when one package matches every criterion of the key', () => {
    expect(find(['packages.weight', '12'])).toEqual([2]);
    expect(find(['packages.weight[]', '>4'], ['packages.weight[]', '<6'])).toEqual([3]);
  });
  test('a plain deliveryId list is returned as ids (for 404 / partial answers) and filters', () => {
    const r = parseSearch([['deliveryId', '3,1,99']]);
    expect(r.ok && r.value.ids).toEqual([3, 1, 99]);
    expect(find(['deliveryId', '3,1,99'])).toEqual([1, 3]);
    expect(
      parseSearch([['deliveryId', '>1']]).ok &&
        (parseSearch([['deliveryId', '>1']]) as { value: { ids: unknown } }).value.ids,
    ).toBeNull();
  });
  test('bracket spelling of a nested key equals the dotted key', () => {
    expect(find(['recipient[surname]', 'dvo'])).toEqual([2]);
  });
  test('fields is not a filter', () => {
    expect(find(['fields', 'deliveryId'])).toEqual([1, 2, 3]);
  });
  test('sandbox choice: an unknown filter key is a 422 naming the key', () => {
    const r = parseSearch([['recipient.nickname', 'x']]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status).toBe(422);
      expect(r.errors[0]!.field).toBe('recipient.nickname');
      expect(r.errors[0]!.message.en).toMatch(/Unknown filter recipient.nickname/);
    }
  });
  test('a non-number for a numeric key is a 422', () => {
    expect(parseSearch([['value', '>abc']]).ok).toBe(false);
    expect(parseSearch([['deliveryId', '1,x']]).ok).toBe(false);
  });
});
