/**
 * Every printer reason code the printing contract can carry (shared/errors/codes.ts
 * `printerReasonCodes`, the contract's closed enum) reaches the worker as a text in both languages:
 * the catalogue's sentence for a code the station words itself, the system's own words for the
 * others. A code added to the registry without its sentences fails here (and at typecheck:
 * renderer/src/i18n/messages/reasons.ts).
 */
import { describe, expect, it } from 'vitest';
import { reasonText } from '../../../renderer/src/i18n/reasons';
import { translate, type Language } from '../../../renderer/src/i18n/translate';
import { printerReasonCode } from '../../../shared/contract/printing';
import { printerReasonCodes, printerReasonOf } from '../../../shared/errors/codes';

const t = (language: Language) => (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate(language, key, params);
/** What the core sends beside the code: its English sentence, or the system's own words (lp, the device). */
const CORE_WORDS = 'lp: Unsupported document-format';
const CZECH_LETTERS = /[ěščřžýáíéůúň]/i;

describe('the printer reason codes on screen', () => {
  it('are the contract’s closed enum: a code outside the registry is refused', () => {
    expect(printerReasonCode.options).toEqual(Object.keys(printerReasonCodes));
    expect(printerReasonCode.safeParse('paper_out').success).toBe(true);
    expect(printerReasonCode.safeParse('waiting_in_line').success).toBe(false);
    expect(printerReasonCode.safeParse('printer-down').success).toBe(false);
  });

  it.each(Object.entries(printerReasonCodes))('%s has a text in English and in Czech', (code, shown) => {
    const english = reasonText(t('en'), code, CORE_WORDS);
    const czech = reasonText(t('cs'), code, CORE_WORDS);
    if (shown === 'ownWords') {
      // The system's own words, as they are, in either language.
      expect([english, czech]).toEqual([CORE_WORDS, CORE_WORDS]);
      return;
    }
    expect(english.trim()).not.toBe('');
    expect(english).not.toBe(CORE_WORDS);
    expect(czech).not.toBe(english);
    expect(czech).toMatch(CZECH_LETTERS);
  });

  it('shows a code an older version stored, which this one does not know, in the words it stored', () => {
    const stored = 'Tiskárna „Sklad 2“ hlásí chybu.';
    expect(printerReasonOf('error')).toBe('older_version_reason');
    expect(printerReasonOf('printer-down')).toBe('older_version_reason');
    expect(printerReasonOf('__proto__')).toBe('older_version_reason');
    expect(printerReasonOf('paper_out')).toBe('paper_out');
    expect(printerReasonOf(null)).toBe(null);
    expect(reasonText(t('cs'), printerReasonOf('error'), stored)).toBe(stored);
  });
});
