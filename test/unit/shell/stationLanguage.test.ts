import { describe, expect, it } from 'vitest';
import { createStationLanguage, systemLanguage } from '../../../electron/status/stationLanguage';

describe('the language the core speaks to the service', () => {
  it("the worker's choice first, then the page's language, then the system's", () => {
    let chosen: 'en' | 'cs' | null = null;
    const lang = createStationLanguage(
      () => chosen,
      () => 'en',
    );
    expect(lang.current()).toBe('en');
    expect(lang.pageShows('cs')).toBe('cs');
    chosen = 'en';
    expect(lang.current()).toBe('en');
  });

  it('reads a Czech system locale from the environment', () => {
    expect(systemLanguage({ LANG: 'cs_CZ.UTF-8' })).toBe('cs');
    expect(systemLanguage({ LC_ALL: 'en_GB.UTF-8', LANG: 'cs_CZ.UTF-8' })).toBe('en');
  });
});
