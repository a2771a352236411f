/**
 * Exact decimal text as the worker reads it, never through a float (spec "Common conventions":
 * amounts and weights travel as decimal text; the UI shows the language's separators).
 */
import { splitDecimal } from '../../../shared/decimal';

/** The UI languages (as in i18n); kept here so this module stays free of the DOM for unit tests. */
type Language = 'en' | 'cs';

/** Read by the station's one decimal module (shared/decimal.ts): ".5" is 0.5, "-0007.10" is -7.10. */
function split(dec: string): { negative: boolean; int: string; frac: string } {
  return splitDecimal(dec) ?? { negative: false, int: dec, frac: '' };
}

function join(negative: boolean, int: string, frac: string, lang: Language): string {
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'cs' ? '\u00a0' : ',');
  return `${negative ? '−' : ''}${grouped}${frac ? (lang === 'cs' ? ',' : '.') + frac : ''}`;
}

/** Money: "1234.5" -> "1 234,50" (cs) / "1,234.50" (en); at least two decimals. */
export function formatAmount(dec: string, lang: Language): string {
  const { negative, int, frac } = split(dec);
  return join(negative, int, (frac + '00').slice(0, Math.max(2, frac.length)), lang);
}

/** A quantity such as a weight: "2.5" -> "2,5" (cs); decimals kept as given. */
export function formatQuantity(dec: string, lang: Language): string {
  const { negative, int, frac } = split(dec);
  return join(negative, int, frac, lang);
}
