/**
 * What the Station screen says of a scan waiting in line (its hover text in "Scans in line")
 * follows the session's usable state, not only the reason the scan stored when it began to wait
 * (issue 39: a screen never keeps words a later event made false). Both languages.
 */
import { describe, expect, it } from 'vitest';
import { cs, en, type MessageKey } from '../../../renderer/src/i18n/en';
import type { Translate } from '../../../renderer/src/i18n/errors';
import { reasonText } from '../../../renderer/src/i18n/reasons';
import { waitingReason } from '../../../renderer/src/screens/station/waitingReason';

const tr =
  (cat: Record<MessageKey, string>): Translate =>
  (key, params = {}) =>
    cat[key].replace(/\{(\w+)\}/g, (w, k: string) => (k in params ? String(params[k]) : w));
const words = (cat: Record<MessageKey, string>, r: ReturnType<typeof waitingReason>) =>
  r ? reasonText(tr(cat), r.code, r.message) : '';

const loggedOut = { code: 'login_required', message: 'The station is not logged in.' };
const outage = { code: 'service_unreachable', message: 'connect ECONNREFUSED 127.0.0.1:8080' };

describe('why a waiting scan waits, as things are now', () => {
  it('stored "log in", but the company logged in again and the service went down: it says the service, not the login', () => {
    expect(words(en, waitingReason(loggedOut, 'unreachable'))).toBe('The service did not answer.');
    expect(words(cs, waitingReason(loggedOut, 'unreachable'))).toBe('Služba neodpověděla.');
  });

  it('stored "service down", but the service answers and wants a login now: it says log in', () => {
    expect(words(en, waitingReason(outage, 'login_needed'))).toContain('not logged in');
    expect(words(cs, waitingReason(outage, 'login_needed'))).toContain('není přihlášena');
  });

  it('where the usable state says nothing new, the stored reason stays', () => {
    expect(waitingReason(outage, 'unreachable')).toEqual(outage);
    expect(waitingReason(outage, 'usable')).toEqual(outage);
    expect(waitingReason(outage, undefined)).toEqual(outage);
    expect(waitingReason(null, 'usable')).toBeNull();
  });
});
