/** A message of a catalogue with its parameters filled in, declined for counts (plural.ts). */
import { cs } from './cs';
import { en, type MessageKey } from './en';
import { countText, pluralKey } from './plural';

export type Language = 'en' | 'cs';
const catalogues = { en, cs } as const;

/** A text with its parameters; a numeric `n` picks the text's plural form in this language (plural.ts). */
export function translate(language: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const catalogue: Readonly<Record<string, string>> = catalogues[language];
  const n = params.n;
  const text = typeof n === 'number' ? catalogue[pluralKey(catalogue, language, key, n)]! : catalogue[key]!;
  const value = (k: string) => (k === 'n' && typeof n === 'number' ? countText(language, n) : String(params[k]));
  return text.replace(/\{(\w+)\}/g, (whole, k: string) => (k in params ? value(k) : whole));
}
