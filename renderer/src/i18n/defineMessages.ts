/**
 * One area's texts in both languages. The Czech catalogue must have exactly the English keys (the
 * type makes a missing or extra key a compile error), so no screen shows a raw key.
 *
 * Counts: a text with `{n}` may have plural forms beside its base key (plural.ts). English adds
 * `key.one`; Czech then must add `key.one`, `key.few` (2–4) and `key.many` (decimals, "1,5
 * zásilky"); the base key is the `other` form (0, 5+: "5 zásilek").
 */
type CzechPluralForms<E> = {
  [K in keyof E & string as K extends `${infer B}.one` ? `${B}.few` | `${B}.many` : never]: string;
};

export function defineMessages<const E extends Record<string, string>>(m: {
  en: E;
  cs: { [K in keyof E]: string } & CzechPluralForms<E>;
}) {
  return m;
}
