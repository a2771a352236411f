/**
 * Reading one party (sender or recipient) of a shipment: spec "Delivery: request fields" and
 * "Party type rules" 1-3.
 * - address: every datum of the person (surname, address with street/city/postalCode/state,
 *   e-mail or phone);
 * - collectionPlace: only the identifier, which must name an active place of the company;
 * - pickUpPlace (recipient only): the identifier and personal data without an address.
 * For transport search (`personal: false`) names, e-mail and phone are not needed.
 */
import type { Msg } from '../i18n';
import { EMAIL, INVALID, PHONE, isAbsent, isRecord, normalisePhone, readText } from './coerce';
import { placeOf } from './parties';
import type { AddressRecord, CollectionPlaceRecord, FieldError, PartyKind, StoredParty } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });
const KINDS: PartyKind[] = ['address', 'collectionPlace', 'pickUpPlace'];

export const msgRequired = (field: string): Msg => m(`${field} is required.`, `Pole ${field} je povinné.`);
export const msgText = (field: string): Msg => m(`${field} must be text.`, `Pole ${field} musí být text.`);

export interface PartyContext {
  role: 'sender' | 'recipient';
  path: string;
  places: CollectionPlaceRecord[];
  personal: boolean;
  errors: FieldError[];
}

/** Reads an optional text field, reporting a non-text value. */
function text(
  obj: Record<string, unknown>,
  key: string,
  path: string,
  errors: FieldError[],
  required = false,
): string | null {
  const v = readText(obj[key]);
  if (v === INVALID) {
    errors.push({ field: `${path}.${key}`, value: obj[key], message: msgText(key) });
    return null;
  }
  if (v === undefined) {
    if (required) errors.push({ field: `${path}.${key}`, value: obj[key] ?? null, message: msgRequired(key) });
    return null;
  }
  return v;
}

function readAddress(raw: unknown, path: string, errors: FieldError[], personal: boolean): AddressRecord | null {
  if (!isRecord(raw)) {
    errors.push({
      field: path,
      value: raw ?? null,
      message: m('The address is required for a party of type address.', 'Pro stranu typu address je adresa povinná.'),
    });
    return null;
  }
  const before = errors.length;
  // Transport search needs only where the parcel goes: country and postal code.
  const street = text(raw, 'street', path, errors, personal);
  const streetNumber = text(raw, 'streetNumber', path, errors);
  const city = text(raw, 'city', path, errors, personal);
  const postalCode = text(raw, 'postalCode', path, errors, true);
  const stateRaw = text(raw, 'state', path, errors, true);
  const state = stateRaw?.toUpperCase() ?? null;
  if (state !== null && !/^[A-Z]{2}$/.test(state)) {
    errors.push({
      field: `${path}.state`,
      value: raw.state,
      message: m(
        'state must be a two-letter country code, e.g. CZ.',
        'Pole state musí být dvoupísmenný kód země, např. CZ.',
      ),
    });
  }
  if (street !== null && streetNumber === null && !/\d/.test(street)) {
    errors.push({
      field: `${path}.street`,
      value: raw.street,
      message: m(
        'street must include the house number unless streetNumber is given.',
        'Pole street musí obsahovat číslo domu, pokud není zadáno streetNumber.',
      ),
    });
  }
  if (errors.length > before) return null;
  return { street: street ?? '', streetNumber, city: city ?? '', postalCode: postalCode!, state: state! };
}

/** Reads a party; returns null (with errors pushed) when it cannot be used. */
export function readParty(raw: unknown, ctx: PartyContext): StoredParty | null {
  const { path, errors, role, personal } = ctx;
  if (!isRecord(raw)) {
    errors.push({ field: path, value: raw ?? null, message: msgRequired(role) });
    return null;
  }
  const before = errors.length;
  const typeRaw = readText(raw.type);
  const type = typeof typeRaw === 'string' && (KINDS as string[]).includes(typeRaw) ? (typeRaw as PartyKind) : null;
  if (type === null) {
    errors.push({
      field: `${path}.type`,
      value: raw.type ?? null,
      message: m(
        'type must be address, collectionPlace or pickUpPlace.',
        'Pole type musí být address, collectionPlace nebo pickUpPlace.',
      ),
    });
    return null;
  }
  if (type === 'pickUpPlace' && role === 'sender') {
    errors.push({
      field: `${path}.type`,
      value: type,
      message: m('pickUpPlace is allowed only for the recipient.', 'Typ pickUpPlace je povolen jen pro příjemce.'),
    });
    return null;
  }

  const needsPerson = personal && type !== 'collectionPlace';
  const firstname = text(raw, 'firstname', path, errors);
  const surname = text(raw, 'surname', path, errors, needsPerson);
  const contactPerson = text(raw, 'contactPerson', path, errors);
  const email = text(raw, 'email', path, errors);
  const phoneRaw = text(raw, 'phone', path, errors);
  const phone = phoneRaw === null ? null : normalisePhone(phoneRaw);

  if (email !== null && !EMAIL.test(email)) {
    errors.push({
      field: `${path}.email`,
      value: raw.email,
      message: m('email is not a valid e-mail address.', 'Pole email není platná e-mailová adresa.'),
    });
  }
  if (phone !== null && !PHONE.test(phone)) {
    errors.push({
      field: `${path}.phone`,
      value: raw.phone,
      message: m(
        'phone must be 9 to 15 digits, optionally with a leading +.',
        'Pole phone musí mít 9 až 15 číslic, případně s + na začátku.',
      ),
    });
  }
  if (needsPerson && email === null && phone === null) {
    errors.push({
      field: `${path}.email`,
      value: null,
      message: m(
        'Give an e-mail or a phone (at least one is required).',
        'Zadejte e-mail nebo telefon (alespoň jedno je povinné).',
      ),
    });
  }

  let address: AddressRecord | null = null;
  let collectionPlace: string | null = null;
  let pickUpPlace: string | null = null;
  if (type === 'address') {
    address = readAddress(raw.address, `${path}.address`, errors, personal);
  } else if (type === 'collectionPlace') {
    collectionPlace = text(raw, 'collectionPlace', path, errors, true);
    if (collectionPlace !== null) {
      const place = placeOf(ctx.places, collectionPlace);
      if (!place) {
        errors.push({
          field: `${path}.collectionPlace`,
          value: collectionPlace,
          message: m(
            `Collection place ${collectionPlace} does not exist.`,
            `Svozové místo ${collectionPlace} neexistuje.`,
          ),
        });
      } else if (!place.active) {
        errors.push({
          field: `${path}.collectionPlace`,
          value: collectionPlace,
          message: m(
            `Collection place ${collectionPlace} is not active.`,
            `Svozové místo ${collectionPlace} není aktivní.`,
          ),
        });
      }
    }
  } else {
    pickUpPlace = text(raw, 'pickUpPlace', path, errors, personal);
    if (!isAbsent(raw.address)) {
      errors.push({
        field: `${path}.address`,
        value: raw.address,
        message: m(
          'A pick-up place recipient has no address; give only pickUpPlace.',
          'Příjemce na výdejním místě nemá adresu; zadejte jen pickUpPlace.',
        ),
      });
    }
  }
  if (errors.length > before) return null;
  return { type, address, collectionPlace, pickUpPlace, firstname, surname, contactPerson, email, phone };
}
