/**
 * The one plural rule of the UI: the form of a counted text comes from Intl.PluralRules of the UI
 * language (Czech: one = 1, few = 2–4, many = decimals, other = 0 and 5+; English: one, other).
 * A text `key` with `{n}` picks `key.<form>` when its catalogue has it, else `key` (the `other`
 * form), so every `t(key, { n })` is declined right without the screen knowing the language.
 */
export type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

const rules = new Map<string, Intl.PluralRules>();

export function pluralForm(language: string, n: number): PluralForm {
  let r = rules.get(language);
  if (!r) rules.set(language, (r = new Intl.PluralRules(language)));
  return r.select(n);
}

/** The key of the plural form of `key` for `n` in a catalogue, or `key` itself (the `other` form). */
export function pluralKey(
  catalogue: Readonly<Record<string, string>>,
  language: string,
  key: string,
  n: number,
): string {
  const form = pluralForm(language, n);
  const variant = `${key}.${form}`;
  return form !== 'other' && variant in catalogue ? variant : key;
}

/** A count as the language writes it: decimals with the language's separator ("1,5"), whole numbers as they are. */
export function countText(language: string, n: number): string {
  return Number.isInteger(n) ? String(n) : new Intl.NumberFormat(language).format(n);
}
