/**
 * The form's draft (shared/contract/newShipment.ts ShipmentDraft) and small immutable helpers to
 * read and write one field by its path ("recipient.address.street", "packages.0.weight"): the
 * same paths the field errors use, so an error lands on the input it names.
 */
import type { PartyDraft, PartyTypeName, ShipmentDraft } from '../../../../shared/contract/newShipment';

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
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

export function setAt<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const copy: Tree = Array.isArray(obj) ? [...obj] : { ...(obj as Record<string, unknown>) };
  const key = head!;
  const next = rest.length ? setAt((copy as Record<string, unknown>)[key], rest.join('.'), value) : value;
  (copy as Record<string, unknown>)[key] = next;
  return copy as T;
}

/** The fields a transport search depends on: when they change, the shown options are stale. */
export function searchKey(d: ShipmentDraft): string {
  const place = (p: PartyDraft) => [p.type, p.collectionPlace, p.pickUpPlace, p.address.state, p.address.postalCode];
  return JSON.stringify([place(d.sender), place(d.recipient), d.value, d.valueCurrency, d.cod, d.codCurrency, d.packages]);
}
