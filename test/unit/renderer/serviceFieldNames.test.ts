/**
 * The service's refusals name a field by its API name also in Czech; the form names it by the label
 * it shows. The messages are the sandbox's own (sandbox/domain/validateParty.ts, validate.ts).
 */
import { describe, expect, it } from 'vitest';
import { cs, en, type MessageKey } from '../../../renderer/src/i18n/en';
import { withFieldLabels } from '../../../renderer/src/screens/newShipment/serviceFieldNames';

// The same substitution as renderer/src/i18n/index.ts translate() (which touches navigator, so is not imported here).
const tr =
  (cat: Record<MessageKey, string>) =>
  (key: MessageKey, params: Record<string, string | number> = {}) =>
    cat[key].replace(/\{(\w+)\}/g, (w, k: string) => (k in params ? String(params[k]) : w));

describe('a field of a service refusal named by its label on the form', () => {
  it('Czech: "Pole phone musí…" names the Telefon field', () => {
    expect(
      withFieldLabels(tr(cs), 'Pole phone musí mít 9 až 15 číslic, případně s + na začátku.', ['recipient.phone']),
    ).toBe('Pole „Telefon“ musí mít 9 až 15 číslic, případně s + na začátku.');
    expect(
      withFieldLabels(tr(cs), 'Pole street musí obsahovat číslo domu, pokud není zadáno streetNumber.', [
        'recipient.address.street',
      ]),
    ).toBe('Pole „Ulice a číslo“ musí obsahovat číslo domu, pokud není zadáno „Č. p.“.');
  });

  it('English: the label in quotes; a package field by its path with the index', () => {
    expect(withFieldLabels(tr(en), 'weight must be more than 0.', ['packages.1.weight'])).toBe(
      '“Weight (kg)” must be more than 0.',
    );
  });

  it('a plain word that is not the refused field stays (the value, the state of a shipment)', () => {
    expect(withFieldLabels(tr(en), 'The value of the state is wrong.', ['recipient.phone'])).toBe(
      'The value of the state is wrong.',
    );
  });
});
