/**
 * Every translated text comes from the catalogue: the Czech catalogue has every
 * English key, and every code a workflow gives the screen (its per-shipment errors) is one the
 * catalogue translates, in both languages, or the service's own words by the registry.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cs, en } from '../../../renderer/src/i18n/en';
import { errors } from '../../../renderer/src/i18n/messages/errors';
import { reasons } from '../../../renderer/src/i18n/messages/reasons';
import { stationErrorCodes } from '../../../shared/errors/codes';

const PLURAL = /\.(one|few|many)$/;

/**
 * The literal codes the workflows put in a per-shipment error: `err('code', …)` / `e('code', …)`
 * (their helpers) and `error: { code: 'code', …}` / `{ code: 'code', message: …}`.
 */
function workflowCodes(): Map<string, string> {
  const dir = path.join('electron', 'workflows');
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/\b(?:err|e)\(\s*'([a-z_.-]+)'\s*,|\{\s*code:\s*'([a-z_.-]+)'\s*,\s*message:/g)) out.set(m[1] ?? m[2]!, f);
  }
  return out;
}

describe('the catalogue', () => {
  it('has every English text in Czech, and no Czech text without its English one', () => {
    const enKeys = Object.keys(en);
    const csKeys = Object.keys(cs);
    // Empty only where English is empty too (a state with nothing to say).
    expect(enKeys.filter((k) => !(k in cs) || (!cs[k as keyof typeof cs].trim() && en[k as keyof typeof en].trim()))).toEqual([]);
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

  it("has every code a workflow gives the screen: in the registry (translated or the service's words) or a reason", () => {
    const codes = workflowCodes();
    expect(codes.size).toBeGreaterThan(15);
    const reasonCodes = new Set(Object.keys(reasons.en).map((k) => k.slice('reason.'.length)));
    const unknown = [...codes].filter(([code]) => !Object.hasOwn(stationErrorCodes, code) && !reasonCodes.has(code)).map(([code, file]) => `${code} (${file})`);
    expect(unknown).toEqual([]);
    // The workflows' own refusals (once English on the Czech screen) are among them.
    expect(codes.has('no_traces') && codes.has('reprint_refused')).toBe(true);
  });
});
