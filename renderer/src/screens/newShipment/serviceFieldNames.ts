/**
 * The service's refusals of a field name the field by its API name, also in Czech ("Pole phone musí
 * mít 9 až 15 číslic": spec "Errors" translates the message with accept-language, not the field's
 * name). On the form the worker sees the field's label, so the API names are put back as the labels
 * the form shows (quoted as the language quotes), in the field's own message and in the banner.
 *
 * Pure (the translate function is passed in), so a unit test runs it in plain Node.
 */
import type { MessageKey } from '../../i18n/en';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** The service's field names (spec "Party", "Address", "Package", "Delivery") → the form's labels. */
const LABELS: Record<string, MessageKey> = {
  firstname: 'newShipment.party.firstname',
  surname: 'newShipment.party.surname',
  contactPerson: 'newShipment.party.contactPerson',
  email: 'newShipment.party.email',
  phone: 'newShipment.party.phone',
  collectionPlace: 'newShipment.party.collectionPlace',
  pickUpPlace: 'newShipment.party.pickUpPlace',
  street: 'newShipment.party.street',
  streetNumber: 'newShipment.party.streetNumber',
  city: 'newShipment.party.city',
  postalCode: 'newShipment.party.postalCode',
  state: 'newShipment.party.state',
  value: 'newShipment.value',
  valueCurrency: 'newShipment.currency',
  cod: 'newShipment.cod',
  codCurrency: 'newShipment.currency',
  variableSymbol: 'newShipment.variableSymbol',
  externalId: 'newShipment.externalId',
  ticketNote: 'newShipment.ticketNote',
  weight: 'newShipment.pkg.weight',
  length: 'newShipment.pkg.length',
  width: 'newShipment.pkg.width',
  height: 'newShipment.pkg.height',
};

/**
 * Names a field by its label in a message of the service. Only the names the refusal is about
 * (`fields`, the form's paths: "recipient.phone", "packages.0.weight") and the ones no prose uses
 * (camelCase: streetNumber) are replaced, so "value" or "state" in a sentence of other words stay.
 */
export function withFieldLabels(t: Translate, message: string, fields: readonly string[]): string {
  const named = new Set(
    fields.map(
      (f) =>
        f
          .split('.')
          .filter((p) => !/^\d+$/.test(p))
          .pop() ?? '',
    ),
  );
  return message.replace(/\b[a-zA-Z]+\b/g, (word) => {
    const key = LABELS[word];
    if (!key || !(named.has(word) || /[a-z][A-Z]/.test(word))) return word;
    return t('newShipment.fieldName', { label: t(key) });
  });
}
