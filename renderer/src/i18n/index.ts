/**
 * The UI language: Czech when the system (browser) locale is Czech, English otherwise, until the
 * worker picks one. `useT()` gives the translate function of the current language.
 */
import { create } from 'zustand';
import type { MessageKey } from './en';
import { errorText, type MainError } from './errors';
import { translate, type Language } from './translate';

export { translate, type Language };

export function systemLanguage(langs: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  return langs[0]?.toLowerCase().startsWith('cs') ? 'cs' : 'en';
}

interface LanguageState {
  language: Language;
  setLanguage(l: Language): void;
}

export const useLanguage = create<LanguageState>((set) => ({
  language: systemLanguage(),
  setLanguage: (language) => {
    document.documentElement.lang = language;
    set({ language });
  },
}));

export type T = (key: MessageKey, params?: Record<string, string | number>) => string;

export function useT(): T {
  const language = useLanguage((s) => s.language);
  return (key, params) => translate(language, key, params);
}

/** An error of the core in the current UI language, for stores outside React (screens use errorText(useT(), e)). */
export function errorTextNow(e: MainError): string {
  const language = useLanguage.getState().language;
  return errorText((key, params) => translate(language, key, params), e);
}
