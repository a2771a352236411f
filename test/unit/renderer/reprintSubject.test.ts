/**
 * The reprint question names the parcels as the worker knows them (order number, recipient), never
 * a record or job number, with the count declined in Czech: 1 zásilka, 2–4 zásilky, 5+ zásilek.
 */
import { describe, expect, it } from 'vitest';
import { translate, type Language } from '../../../renderer/src/i18n/translate';
import { reprintSubject } from '../../../renderer/src/reprint/reprintSubject';

const t = (language: Language) => (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate(language, key, params);
const parcels = [
  { code: 'ORD-1001', recipient: 'Jana Nováková' },
  { code: 'ORD-1002', recipient: 'Petr Dvořák' },
  { code: 'ORD-1003', recipient: 'Šárka Růžičková' },
  { code: 'ORD-1004', recipient: null },
  { code: 'ORD-1005', recipient: 'Jiří Černý' },
];

describe('reprint question subject', () => {
  it('one parcel: its order number and recipient, no count', () => {
    expect(reprintSubject(t('en'), parcels.slice(0, 1))).toBe('Parcel ORD-1001 (Jana Nováková)');
    expect(reprintSubject(t('cs'), parcels.slice(0, 1))).toBe('Zásilka ORD-1001 (Jana Nováková)');
    expect(reprintSubject(t('cs'), [parcels[3]!])).toBe('Zásilka ORD-1004');
  });

  it('Czech declines the count: 2–4 zásilky, 5 zásilek; English parcels', () => {
    expect(reprintSubject(t('cs'), parcels.slice(0, 2))).toBe(
      '2 zásilky: ORD-1001 (Jana Nováková), ORD-1002 (Petr Dvořák)',
    );
    expect(reprintSubject(t('cs'), parcels.slice(0, 4))).toBe(
      '4 zásilky: ORD-1001 (Jana Nováková), ORD-1002 (Petr Dvořák), ORD-1003 (Šárka Růžičková) a 1 další',
    );
    expect(reprintSubject(t('cs'), parcels)).toBe(
      '5 zásilek: ORD-1001 (Jana Nováková), ORD-1002 (Petr Dvořák), ORD-1003 (Šárka Růžičková) a 2 další',
    );
    expect(reprintSubject(t('en'), parcels.slice(0, 2))).toBe(
      '2 parcels: ORD-1001 (Jana Nováková), ORD-1002 (Petr Dvořák)',
    );
    expect(reprintSubject(t('en'), parcels)).toBe(
      '5 parcels: ORD-1001 (Jana Nováková), ORD-1002 (Petr Dvořák), ORD-1003 (Šárka Růžičková) and 2 more',
    );
  });
});
