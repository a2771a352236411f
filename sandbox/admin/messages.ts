/** Messages of the test controls under /_sandbox/. */
import type { Msg } from '../i18n';

export const adminMessages = {
  bodyNotJson: {
    en: 'The test controls take a JSON object body.',
    cs: 'Testovací ovládání přijímá tělo jako JSON objekt.',
  },
  secondsInvalid: {
    en: '"seconds" must be a number of seconds, 0 or more.',
    cs: '„seconds“ musí být počet sekund, 0 nebo více.',
  },
  clockTooFar: {
    en: 'The clock cannot go past the end of the year 9999.',
    cs: 'Hodiny nelze posunout za konec roku 9999.',
  },
  clientUnknown: { en: 'No client "{clientId}".', cs: 'Klient „{clientId}“ neexistuje.' },
  userUnknown: { en: 'No user "{username}".', cs: 'Uživatel „{username}“ neexistuje.' },
  scopeInvalid: {
    en: '"scope" must be space-separated values of: deliveries, transports, collection-protocols, collection-places.',
    cs: '„scope“ musí obsahovat mezerou oddělené hodnoty z: deliveries, transports, collection-protocols, collection-places.',
  },
  limitInvalid: {
    en: '"limit" must be a whole number 0 or more, or null.',
    cs: '„limit“ musí být celé číslo 0 nebo více, nebo null.',
  },
  seedInvalid: { en: '"seed" must be "demo" or "none".', cs: '„seed“ musí být „demo“ nebo „none“.' },
  faultInvalid: {
    en: 'A fault needs "path" (starting with /) and at least one of latencyMs, status (500-599), reset, hang, carrierReject; "count" is a whole number 1 or more.',
    cs: 'Porucha potřebuje „path“ (začínající /) a alespoň jedno z latencyMs, status (500–599), reset, hang, carrierReject; „count“ je celé číslo 1 nebo více.',
  },
  secretRequired: {
    en: 'The test controls of this sandbox need its admin secret (header x-sandbox-admin-secret).',
    cs: 'Testovací ovládání tohoto sandboxu vyžaduje jeho tajný klíč (hlavička x-sandbox-admin-secret).',
  },
  injectedFault: { en: 'Injected fault (sandbox test control).', cs: 'Vložená porucha (testovací ovládání sandboxu).' },
} satisfies Record<string, Msg>;
