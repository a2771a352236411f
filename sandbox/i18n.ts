/**
 * Every message the sandbox writes exists in English and Czech, side by side, so the two
 * catalogues cannot drift apart (spec "Common conventions" 9: `accept-language: cs`).
 */
export interface Msg {
  en: string;
  cs: string;
}

export type Lang = 'en' | 'cs';

/** `accept-language: cs` (alone or first with any weight) selects Czech; anything else English. */
export function langOf(acceptLanguage: string | undefined): Lang {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first === 'cs' || first.startsWith('cs-') || first.startsWith('cs;') ? 'cs' : 'en';
}

/** Picks the language and fills `{name}` placeholders. */
export function t(msg: Msg, lang: Lang, params: Record<string, string | number> = {}): string {
  return msg[lang].replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(params, key) ? String(params[key]) : whole,
  );
}
