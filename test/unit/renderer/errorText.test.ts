/** The core's errors reach the worker in the UI language (Czech or English). */
import { describe, expect, it } from 'vitest';
import { cs, en, type MessageKey } from '../../../renderer/src/i18n/en';
import { errorText, fieldErrors, serviceErrorText, type Translate } from '../../../renderer/src/i18n/errors';
import { createRpcServer, type Handlers } from '../../../electron/rpc/rpcServer';
import { errors } from '../../../renderer/src/i18n/messages/errors';
import { reasons } from '../../../renderer/src/i18n/messages/reasons';
import { isStationErrorCode, reasonCodes, serviceErrorCode, stationErrorCodes } from '../../../shared/errors/codes';

// The same substitution as renderer/src/i18n/index.ts translate() (which touches navigator, so is not imported here).
const tr =
  (cat: Record<MessageKey, string>): Translate =>
  (key, params = {}) =>
    cat[key].replace(/\{(\w+)\}/g, (w, k: string) => (k in params ? String(params[k]) : w));
const tCs = tr(cs);

const tEn = tr(en);

describe('errors of the core in the UI language', () => {
  it('translates a known code and puts the values of its details in the sentence', () => {
    expect(
      errorText(tCs, {
        code: 'job_busy',
        message: 'Print job 7 is being printed right now. Wait for it to finish.',
        details: { jobId: 7 },
      }),
    ).toBe('Tisková úloha 7 se právě tiskne. Počkejte, až doběhne.');
    expect(
      errorText(tCs, { code: 'printer_format_mismatch', message: 'x', details: { printer: 'Zebra 1', format: 'ZPL' } }),
    ).toBe('Tiskárna Zebra 1 neumí tisknout štítky ZPL. Zvolte jinou tiskárnu nebo formát.');
    expect(errorText(tEn, { code: 'job_not_found', message: 'x', details: { jobId: 3 } })).toBe(
      'Print job 3 does not exist.',
    );
  });

  it('picks the sentence the core meant when a code has several', () => {
    expect(
      errorText(tCs, { code: 'job_not_retryable', message: 'x', details: { jobId: 4, state: 'uncertain' } }),
    ).toContain('se možná vytiskla');
    expect(errorText(tCs, { code: 'job_not_retryable', message: 'x', details: { jobId: 4, state: 'done' } })).toContain(
      'neselhala',
    );
    expect(errorText(tCs, { code: 'account_invalid', message: 'x', details: { reason: 'port' } })).toBe(
      'Port pro přesměrování musí být číslo od 1 do 65535.',
    );
    expect(
      errorText(tCs, {
        code: 'account_invalid',
        message: 'x',
        details: { reason: 'address', environment: 'production' },
      }),
    ).toBe('Zadejte adresu prostředí: produkce.');
    expect(errorText(tCs, { code: 'account_invalid', message: 'x' })).toBe('Údaje účtu nejsou platné.');
    expect(errorText(tCs, { code: 'printer_not_found', message: 'x', details: { printerIds: ['a', 'b'] } })).toContain(
      ': a, b.',
    );
    expect(
      errorText(tCs, { code: 'login_port_unavailable', message: 'x', details: { port: 8123, code: 'EADDRINUSE' } }),
    ).toContain('Port 8123 na 127.0.0.1 používá jiný program');
    expect(errorText(tCs, { code: 'preview_unavailable', message: 'x', details: { reason: 'no_pdftoppm' } })).toContain(
      'pdftoppm',
    );
  });

  it('covers the RPC layer, the transport and the printer reason codes', () => {
    expect(errorText(tCs, { code: 'unavailable', message: 'The station is not connected.' })).toBe(
      'Stanice není připojena. Zkuste to za chvíli znovu.',
    );
    expect(errorText(tCs, { code: 'invalid_params', message: 'Invalid parameters for x: y' })).not.toMatch(/Invalid/);
    expect(errorText(tCs, { code: 'internal', message: 'The station failed to run x. See the log.' })).not.toMatch(
      /failed/,
    );
    expect(errorText(tCs, { code: 'paper_out', message: 'Paper out.' })).toBe(
      'V tiskárně došly štítky: vložte novou roli.',
    );
  });

  it("keeps the service's own words, and frames them in the UI language", () => {
    expect(errorText(tCs, { code: 'carrier_rejected', message: 'PSČ 00000 neexistuje.' })).toBe(
      'PSČ 00000 neexistuje.',
    );
    expect(errorText(tCs, { code: 'service_http', message: 'Zásilka je zamčená.' })).toBe('Zásilka je zamčená.');
    expect(
      errorText(tCs, {
        code: 'service_http',
        message: 'Saving shipment 12 failed: Zásilka je zamčená.',
        details: { doing: 'saveEdit', deliveryId: 12, serviceMessage: 'Zásilka je zamčená.' },
      }),
    ).toBe('Uložení zásilky 12 selhalo: Zásilka je zamčená.');
    expect(
      errorText(tCs, {
        code: 'service_unreachable',
        message:
          'Saving the shipment failed: the service did not answer. (The service cannot be reached (ECONNREFUSED).)',
        details: { doing: 'save', serviceMessage: 'The service cannot be reached (ECONNREFUSED).' },
      }),
    ).toBe('Uložení zásilky selhalo: Služba neodpověděla. Zkontrolujte připojení a zkuste to znovu.');
    expect(
      errorText(tCs, {
        code: 'login_exchange_failed',
        message: 'x',
        details: { kind: 'timeout', message: 'The service did not answer within 10 s.' },
      }),
    ).toBe('Přihlášení se nepodařilo dokončit: Služba neodpověděla včas.');
  });

  it('keeps the English sentence for an unknown code, or when a value the sentence needs is missing', () => {
    expect(errorText(tCs, { code: 'something_new', message: 'A new thing failed.' })).toBe('A new thing failed.');
    expect(errorText(tCs, { code: 'job_busy', message: 'Print job 7 is being printed right now.' })).toBe(
      'Print job 7 is being printed right now.',
    );
  });

  it('says why the health check found the service down', () => {
    expect(
      serviceErrorText(tCs, {
        error: 'The service answered HTTP 503.',
        errorCode: 'service_http',
        errorDetails: { status: 503 },
      }),
    ).toBe('Služba odpověděla chybou (HTTP 503).');
    expect(
      serviceErrorText(tCs, {
        error: 'The service did not answer within 5 s.',
        errorCode: 'service_timeout',
        errorDetails: { seconds: 5 },
      }),
    ).toBe('Služba neodpověděla do 5 s.');
    expect(
      serviceErrorText(tCs, {
        error: 'The service cannot be reached (fetch failed).',
        errorCode: 'service_network',
        errorDetails: null,
      }),
    ).toBe('Služba není dostupná: zkontrolujte připojení k internetu.');
  });

  // Every code is in the registry (StationError takes no other) and the catalogue must have a
  // sentence for each `translated` one (a compile error otherwise, renderer/src/i18n/errors.ts).
  // What typecheck cannot see: a Czech sentence left in English, or an English one left empty.
  it('shows every translated code of the registry in Czech, not in the English of the core', () => {
    const translated = Object.entries(stationErrorCodes)
      .filter(([, shown]) => shown === 'translated')
      .map(([code]) => code);
    expect(translated.length).toBeGreaterThan(50);
    const untranslated = translated.filter((code) => {
      const key = `error.${code}` as keyof typeof errors.en;
      return !errors.en[key]?.trim() || !errors.cs[key]?.trim() || errors.cs[key] === errors.en[key];
    });
    expect(untranslated).toEqual([]);
  });

  it('a service refusal carries its HTTP status as a value, not inside the code', () => {
    expect(errorText(tCs, { code: 'service_http', message: 'Conflict', details: { status: 409 } })).toBe(
      'Služba odpověděla chybou (HTTP 409).',
    );
    expect(isStationErrorCode('service_http_409')).toBe(false);
    expect(serviceErrorCode('login_required')).toBe('service_login_required');
    expect(serviceErrorCode('something-else')).toBe('service_error');
  });

  // PrintError, the queue and the journal take only registry codes (tsc), and the catalogue must
  // have a sentence for each `translated` one (tsc, messages/reasons.ts). What typecheck cannot see:
  // a Czech sentence left in English or empty, and the registry losing the printer's own reasons.
  it('has a reason in the UI language for every printer failure the station words itself', () => {
    const translated = Object.entries(reasonCodes)
      .filter(([, shown]) => shown === 'translated')
      .map(([code]) => code);
    // A code that is an error too (printer_error, service_timeout) is shown with its error sentence.
    const onlyReasons = translated.filter((code) => !isStationErrorCode(code));
    // The printer's reasons a worker meets at the desk (the ZPL host status, the connection).
    expect(translated).toEqual(
      expect.arrayContaining([
        'paper_out',
        'head_open',
        'ribbon_out',
        'paused',
        'not_answering',
        'offline',
        'connection_lost',
      ]),
    );
    const untranslated = translated.filter((code) => {
      const key = `reason.${code}` as keyof typeof reasons.en;
      return !reasons.en[key]?.trim() || !reasons.cs[key]?.trim() || reasons.cs[key] === reasons.en[key];
    });
    expect(untranslated).toEqual([]);
    for (const code of onlyReasons)
      expect(errorText(tCs, { code, message: 'English words of the core.' })).toBe(
        reasons.cs[`reason.${code}` as keyof typeof reasons.cs],
      );
    // Codes whose message carries the system's own words (lp, Windows, the device, the converter): shown as they are.
    expect(errorText(tCs, { code: 'spooler_rejected', message: 'lp: Unsupported document-format' })).toBe(
      'lp: Unsupported document-format',
    );
  });

  it('names each refused field in the UI language, from what the core sends for invalid params', async () => {
    const quiet = { info() {}, warn() {}, error() {} };
    const rpc = createRpcServer({} as Handlers, quiet);
    const r = await rpc.dispatch('accounts.add', {
      name: 'x'.repeat(101),
      environment: 'test',
      clientId: ' ',
      clientSecret: 's',
      redirectPort: 70000,
      redirectPath: 'callback',
    });
    if (r.ok) throw new Error('accepted');
    expect(fieldErrors(tCs, r.error)).toEqual({
      name: 'Nejvýše 100 znaků.',
      clientId: 'Vyplňte toto pole.',
      redirectPort: 'Nejvýše 65535.',
      redirectPath: 'Hodnota nemá očekávaný tvar.',
    });
    expect(fieldErrors(tEn, r.error).name).toBe('At most 100 characters.');
    expect(fieldErrors(tEn, { code: 'internal', message: 'x' })).toEqual({});
  });

  it('a refusal of a New shipment draft names its fields from the catalogue, never with zod’s English', async () => {
    const quiet = { info() {}, warn() {}, error() {} };
    const rpc = createRpcServer({} as Handlers, quiet);
    const draft = {
      sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
      recipient: {
        type: 'address',
        surname: 'x'.repeat(5000),
        phone: '1',
        address: { street: 'Dlouhá 1', city: 'Praha', postalCode: '11000', state: 'CZ' },
      },
      value: '10',
      valueCurrency: 'CZK',
      packages: [{ weight: '1,2345' }],
    };
    const r = await rpc.dispatch('transports.search', { draft });
    if (r.ok) throw new Error('accepted');
    const shown = fieldErrors(tCs, r.error);
    expect(shown['draft.recipient.surname']).toBe('Nejvýše 150 znaků.');
    // A refine's own message ("weight: a number with at most 3 decimals") stays on the core.
    expect(shown['draft.packages.0.weight']).toBe('Hodnota nemá očekávaný tvar.');
    expect(Object.values(shown).join(' ')).not.toMatch(/Too big|expected|decimals|characters/);
  });
});
