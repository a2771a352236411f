/** Counted texts take the plural form of the UI language (Intl.PluralRules); dates read and show as the UI language writes them. */
import { describe, expect, it } from 'vitest';
import { translate } from '../../../renderer/src/i18n/translate';
import { cs } from '../../../renderer/src/i18n/cs';
import { en } from '../../../renderer/src/i18n/en';
import { pluralForm } from '../../../renderer/src/i18n/plural';

describe('plural forms', () => {
  it('Czech declines a count of shipments: 1 zásilka, 2–4 zásilky, 0 and 5+ zásilek, decimals zásilky', () => {
    expect(translate('cs', 'endOfDay.count', { n: 1 })).toBe('1 zásilka');
    expect(translate('cs', 'endOfDay.count', { n: 2 })).toBe('2 zásilky');
    expect(translate('cs', 'endOfDay.count', { n: 4 })).toBe('4 zásilky');
    expect(translate('cs', 'endOfDay.count', { n: 5 })).toBe('5 zásilek');
    expect(translate('cs', 'endOfDay.count', { n: 0 })).toBe('0 zásilek');
    expect(translate('cs', 'endOfDay.count', { n: 22 })).toBe('22 zásilek');
    expect(translate('cs', 'endOfDay.count', { n: 1.5 })).toBe('1,5 zásilky');
  });

  it('Czech verbs agree with the count too', () => {
    expect(translate('cs', 'queue.waitingScans', { n: 1 })).toBe('1 sken čeká na uzavření a tisk');
    expect(translate('cs', 'queue.waitingScans', { n: 3 })).toBe('3 skeny čekají na uzavření a tisk');
    expect(translate('cs', 'queue.waitingScans', { n: 7 })).toBe('7 skenů čeká na uzavření a tisk');
  });

  it('the Station screen says štítek / label for a shipment of one package and štítky / labels for more (the title has no numeral)', () => {
    expect(translate('cs', 'station.kind.queued', { n: 1 })).toBe('Uzavřeno — štítek se tiskne');
    expect(translate('cs', 'station.kind.queued', { n: 3 })).toBe('Uzavřeno — štítky se tisknou');
    expect(translate('cs', 'station.kind.queued', { n: 5 })).toBe('Uzavřeno — štítky se tisknou');
    expect(translate('cs', 'station.kind.queuedWaiting', { n: 1 })).toBe('Uzavřeno — štítek čeká');
    expect(translate('en', 'station.kind.queued', { n: 1 })).toBe('Closed — label is printing');
    expect(translate('en', 'station.kind.queuedWaiting', { n: 4 })).toBe('Closed — labels wait');
    // Without a count (a recent scan's line), the plural: never a raw {n}.
    expect(translate('cs', 'station.kind.queued')).toBe('Uzavřeno — štítky se tisknou');
  });

  it('English has one and other', () => {
    expect(translate('en', 'endOfDay.count', { n: 1 })).toBe('1 shipment');
    expect(translate('en', 'endOfDay.count', { n: 2 })).toBe('2 shipments');
    expect(translate('en', 'station.packages', { n: 0 })).toBe('0 packages');
    expect(translate('en', 'station.packages', { n: 1 })).toBe('1 package');
  });

  it('the forms follow Intl.PluralRules: Czech decimals are "many"', () => {
    expect(['one', 'few', 'few', 'other', 'many'].map((f, i) => [f, pluralForm('cs', [1, 2, 4, 5, 0.5][i]!)])).toEqual(
      ['one', 'few', 'few', 'other', 'many'].map((f) => [f, f]),
    );
  });

  it('every counted text with an English "one" form has all Czech forms, and no form lacks its base text', () => {
    const bases = Object.keys(en)
      .filter((k) => k.endsWith('.one'))
      .map((k) => k.slice(0, -4));
    expect(bases.length).toBeGreaterThan(8);
    for (const b of bases) {
      expect(en, b).toHaveProperty([b]);
      for (const f of ['', '.one', '.few', '.many']) expect(cs, b + f).toHaveProperty([b + f]);
    }
  });

  it('a text without plural forms keeps its number as given (an id is not a count)', () => {
    expect(translate('cs', 'shipments.detail.package', { n: 3 })).toBe('Balík 3');
  });
});

import { formatIsoDate, parseDate } from '../../../renderer/src/format/date';

describe('dates in the UI language', () => {
  it('shows a date as the tables do: 23/11/2026 in English, 23. 11. 2026 in Czech', () => {
    expect(formatIsoDate('2026-11-23', 'en')).toBe('23/11/2026');
    expect(formatIsoDate('2026-11-23', 'cs').replace(/\s/g, ' ')).toBe('23. 11. 2026');
  });
  it('reads day, month, year in either form, and refuses a day that does not exist', () => {
    expect(parseDate('23/11/2026')).toBe('2026-11-23');
    expect(parseDate('23. 11. 2026')).toBe('2026-11-23');
    expect(parseDate('3.1.26')).toBe('2026-01-03');
    expect(parseDate('2026-11-23')).toBe('2026-11-23');
    expect(parseDate('31/02/2026')).toBeNull();
    expect(parseDate('11/23/2026')).toBeNull();
    expect(parseDate('zítra')).toBeNull();
  });
});
