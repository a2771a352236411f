/**
 * Every translated text comes from the catalogue: the Czech catalogue has every
 * English key, and every code of the registry (shared/errors/codes.ts), which is every code a
 * workflow gives the screen, is one the catalogue translates, in both languages, or the service's
 * own words by the registry.
 */
import { describe, expect, it } from 'vitest';
import { cs, en } from '../../../renderer/src/i18n/en';
import { errors } from '../../../renderer/src/i18n/messages/errors';
import { reasons } from '../../../renderer/src/i18n/messages/reasons';
import { allCodes, reasonCodes, stationErrorCodes } from '../../../shared/errors/codes';

const PLURAL = /\.(one|few|many)$/;

describe('the catalogue', () => {
  it('has every English text in Czech, and no Czech text without its English one', () => {
    const enKeys = Object.keys(en);
    const csKeys = Object.keys(cs);
    // Empty only where English is empty too (a state with nothing to say).
    expect(
      enKeys.filter((k) => !(k in cs) || (!cs[k as keyof typeof cs].trim() && en[k as keyof typeof en].trim())),
    ).toEqual([]);
    // Czech has more plural forms (few, many) than English; nothing else of its own.
    expect(csKeys.filter((k) => !(k in en) && !(PLURAL.test(k) && k.replace(PLURAL, '') in en))).toEqual([]);
  });

  it('translates every code of the error registry in both languages', () => {
    const missing = Object.entries(stationErrorCodes)
      .filter(([, shown]) => shown === 'translated')
      .map(([code]) => `error.${code}`)
      .filter((k) => !(k in errors.en) || !(k in errors.cs));
    expect(missing).toEqual([]);
  });

  // Every code a workflow, the queue or the journal gives the screen is a registry code (tsc:
  // WorkflowError, PrintError, the journal's reason). Each one is shown in the UI language, or is
  // the service's (the system's) own words by the registry.
  it("shows every code of the registry in the UI language, or as the service's or the system's own words", () => {
    const ownWords = (code: string) =>
      (stationErrorCodes as Record<string, string>)[code] === 'ownWords' ||
      (reasonCodes as Record<string, string>)[code] === 'ownWords';
    const shown = (code: string) =>
      (`error.${code}` in errors.cs && `error.${code}` in errors.en) ||
      (`reason.${code}` in reasons.cs && `reason.${code}` in reasons.en);
    expect(allCodes.filter((code) => !shown(code) && !ownWords(code))).toEqual([]);
    // The workflows' own refusals that once reached the Czech screen in English.
    expect(errors.cs['error.no_traces']).toMatch(/[ěščřžýáíéůú]/);
    expect(errors.cs['error.reprint_refused']).toMatch(/[ěščřžýáíéůú]/);
  });
});
