/**
 * One area's texts in both languages. The Czech catalogue must have exactly the English keys (the
 * type makes a missing or extra key a compile error), so no screen shows a raw key.
 */
export function defineMessages<const E extends Record<string, string>>(m: { en: E; cs: { [K in keyof E]: string } }) {
  return m;
}
