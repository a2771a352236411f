/**
 * The form's draft (shared/contract/newShipment.ts ShipmentDraft) and small immutable helpers to
 * read and write one field by its path ("recipient.address.street", "packages.0.weight"): the
 * same paths the field errors use, so an error lands on the input it names.
 */
import type { PartyDraft, PartyTypeName, ShipmentDraft } from '../../../../shared/contract/newShipment';
import { isDecimalInput, normaliseDecimalInput } from '../../../../shared/newShipment/draftRules';
import type { Language } from '../../i18n/translate';

export function emptyParty(type: PartyTypeName): PartyDraft {
  return {
    type,
    collectionPlace: '',
    pickUpPlace: '',
    firstname: '',
    surname: '',
    contactPerson: '',
    email: '',
    phone: '',
    address: { street: '', streetNumber: '', city: '', postalCode: '', state: 'CZ' },
  };
}

export const emptyPackage = () => ({ weight: '', length: '', width: '', height: '' });

export function emptyDraft(): ShipmentDraft {
  return {
    sender: emptyParty('collectionPlace'),
    recipient: emptyParty('address'),
    value: '',
    valueCurrency: 'CZK',
    cod: '',
    codCurrency: 'CZK',
    variableSymbol: '',
    packages: [emptyPackage()],
    agent: '',
    deliveryType: '',
    extraServices: [],
    ticketNote: '',
    externalId: '',
  };
}

type Tree = Record<string, unknown> | unknown[];

export function getAt(obj: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

export function setAt<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const copy: Tree = Array.isArray(obj) ? [...obj] : { ...(obj as Record<string, unknown>) };
  const key = head!;
  const next = rest.length ? setAt((copy as Record<string, unknown>)[key], rest.join('.'), value) : value;
  (copy as Record<string, unknown>)[key] = next;
  return copy as T;
}

/**
 * A decimal as the language writes it in a field: "4200,5" in Czech, "4200.5" in English (no
 * grouping, so the worker edits what they see). The core sends and answers exact decimal text with a
 * point; the form takes either separator (draftRules.normaliseDecimalInput), so only the shown
 * separator changes and the value stays the same. Text that is not a decimal is left as typed.
 */
export function decimalInLanguage(text: string, lang: Language): string {
  if (text.trim() === '' || !isDecimalInput(text, 9)) return text;
  const d = normaliseDecimalInput(text);
  return lang === 'cs' ? d.replace('.', ',') : d;
}

/** The draft's money and weights in the language's separator (a draft from the core, or the language changed). */
export function draftInLanguage(d: ShipmentDraft, lang: Language): ShipmentDraft {
  const dec = (s: string) => decimalInLanguage(s, lang);
  return {
    ...d,
    value: dec(d.value),
    cod: dec(d.cod),
    packages: d.packages.map((p) => ({ ...p, weight: dec(p.weight) })),
  };
}

/** The fields a transport search depends on: when they change, the shown options are stale (not when only the separator does). */
export function searchKey(d: ShipmentDraft): string {
  const place = (p: PartyDraft) => [p.type, p.collectionPlace, p.pickUpPlace, p.address.state, p.address.postalCode];
  const dec = normaliseDecimalInput;
  return JSON.stringify([
    place(d.sender),
    place(d.recipient),
    dec(d.value),
    d.valueCurrency,
    dec(d.cod),
    d.codCurrency,
    d.packages.map((p) => ({ ...p, weight: dec(p.weight) })),
  ]);
}
