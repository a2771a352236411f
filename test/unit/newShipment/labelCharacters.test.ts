/**
 * Characters a label cannot print (an emoji in a name printed as a box, with no
 * warning). The labels print in the printer's font 0 under ^CI28 (ZPL) and in DejaVu Sans (PDF):
 * Latin with Czech and other accents, Greek, Cyrillic and common punctuation print; emoji and
 * pictographs do not (shared/newShipment/labelCharacters.ts names its sources).
 */
import { describe, expect, it } from 'vitest';
import { printsOnLabel, unprintableCharacters } from '../../../shared/newShipment/labelCharacters';

describe('characters the label cannot print', () => {
  it('Czech, Slovak, German, Polish names, Greek, Cyrillic and common punctuation print', () => {
    for (const name of [
      'Říčanská Žofie',
      'Ľubomír Ťažký',
      'Jürgen Weiß',
      'Łukasz Gęślą',
      'Σοφία',
      'Иван Петров',
      'O’Brien – „Firma“ s.r.o. № 5 €',
    ])
      expect(unprintableCharacters(name)).toEqual([]);
    // A "č" typed as c + combining caron (macOS keyboards, pasted text) prints too.
    expect(unprintableCharacters('Nova\u0301kova\u0301')).toEqual([]);
  });
  it('an emoji is named once, whole as the worker sees it (skin tone, flag, a family joined by ZWJ)', () => {
    expect(unprintableCharacters('Nováková 😀 😀')).toEqual(['😀']);
    expect(unprintableCharacters('👍🏽 🇨🇿 👨‍👩‍👧 ♥️')).toEqual(['👍🏽', '🇨🇿', '👨‍👩‍👧', '♥️']);
    expect(unprintableCharacters('山田')).toEqual(['山', '田']);
  });
  it('the names, the address and the note print on the label; phone, e-mail and numbers do not', () => {
    for (const f of [
      'recipient.surname',
      'sender.firstname',
      'recipient.contactPerson',
      'recipient.address.street',
      'recipient.address.city',
      'ticketNote',
    ])
      expect(printsOnLabel(f)).toBe(true);
    for (const f of ['recipient.phone', 'recipient.email', 'packages.0.weight', 'value'])
      expect(printsOnLabel(f)).toBe(false);
  });
});
