/**
 * The language the core speaks to the service (Accept-Language: its messages come back in it,
 * spec "Common conventions" 9) and writes the demo pick list in: the worker's choice in Settings;
 * else the language the page shows (its own system's, told by `settings.pageLanguage`); else this
 * process's system locale.
 */
type Language = 'en' | 'cs';

/** The system locale's language, for service messages while the worker has not picked one. */
export function systemLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const lang = env.LC_ALL || env.LC_MESSAGES || env.LANG || Intl.DateTimeFormat().resolvedOptions().locale;
  return /^cs/i.test(lang ?? '') ? 'cs' : 'en';
}

export interface StationLanguage {
  current(): Language;
  /** The page says which language it shows; answers the language now in use. */
  pageShows(language: Language | null): Language;
}

export function createStationLanguage(
  chosen: () => Language | null | undefined,
  system: () => Language = systemLanguage,
): StationLanguage {
  let page: Language | null = null;
  const current = () => chosen() ?? page ?? system();
  return {
    current,
    pageShows(language) {
      page = language;
      return current();
    },
  };
}
