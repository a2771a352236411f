/**
 * The spec's rules for a shipment draft, checked before anything is sent: the form shows them on
 * their fields at once, and the core checks them again before an insert or edit (the renderer
 * is untrusted). The service stays the authority for everything else (formats, carrier rules):
 * its errors come back on their fields too.
 *
 * - spec "Party type rules" 1-3: address = all data of the person (names, address, phone or
 *   e-mail); collectionPlace = only its identifier; pickUpPlace = identifier + personal data
 *   without an address, and only for the recipient ("Delivery: request fields" `<party>.type`).
 * - spec "Delivery: request fields": value + valueCurrency required; codCurrency and
 *   variableSymbol required when cod is given; every package has a weight.
 * - spec "GET /api/v3/transports": package dimensions are always required for the search.
 * - spec "Delivery: request fields" `<party>.address.street`: the street must include the house
 *   number unless `streetNumber` is given. The search carries the street (and the number) as the
 *   insert does, so both check it; and a number typed in both Street and No. would print twice on
 *   the label ("Úpská 12 12/3"), so that is refused too. Named here in the worker's words: the
 *   service's own message names its keys (`street`, `streetNumber`).
 * - spec "Transport option": phoneRequired / dimensionsRequired of the chosen delivery type;
 *   `bans` (services that cannot be combined) and `arguments` of the extra services.
 * - spec "Common conventions" 5-6: money with at most 2 decimals, weight with at most 3 (grams),
 *   dimensions in whole cm. The contract (shared/contract/newShipment.ts) refuses the same with
 *   these predicates; checked here too so the form names the field in the UI language instead of
 *   passing on the contract's English parameter message.
 */
import type { PartyDraft, ShipmentDraft, TransportRequirements } from '../contract/newShipment';
import { compareDecimals } from '../decimal';
import { DESK_CODE_PREFIX, readsAsDeskCode } from '../scan/deskCodes';
import type { ScannerAffixes } from '../scan/normaliseScan';

export type DraftIssueCode =
  | 'required'
  | 'phoneOrEmail'
  | 'phoneRequired'
  | 'dimensionsRequired'
  | 'dimensionsForSearch'
  | 'houseNumber'
  | 'houseNumberTwice'
  | 'pickUpRecipientOnly'
  | 'transportRequired'
  | 'argumentRequired'
  | 'banned'
  | 'amountFormat'
  | 'weightFormat'
  | 'weightPositive'
  | 'dimensionFormat'
  | 'deskCodePrefix';

export interface DraftIssue {
  field: string;
  code: DraftIssueCode;
  /** For the message: e.g. the service that bans this one. */
  params?: Record<string, string>;
}

/** English texts of the codes (the core's messages; the form shows its own translations). */
export const draftIssueMessages: Record<DraftIssueCode, string> = {
  required: 'This field is required.',
  phoneOrEmail: 'Give a phone or an e-mail.',
  phoneRequired: 'The chosen delivery type requires the recipient’s phone.',
  dimensionsRequired: 'The chosen delivery type requires package dimensions.',
  dimensionsForSearch: 'Package dimensions are needed to search transports.',
  houseNumber: 'Give the house number (here or at the end of the street).',
  houseNumberTwice: 'The house number is in the street and in No.: keep it in one of them.',
  pickUpRecipientOnly: 'Only the recipient can be a pick-up place.',
  transportRequired: 'Choose a transport first.',
  argumentRequired: 'This service needs this value.',
  banned: 'This service cannot be combined with {other}.',
  amountFormat: 'Give an amount: a number with at most 2 decimals, e.g. 12,5.',
  weightFormat: 'Give the weight in kg: a number with at most 3 decimals, e.g. 2,5.',
  weightPositive: 'The weight must be more than 0 kg.',
  dimensionFormat: 'Give whole centimetres, 1 to 9999.',
  deskCodePrefix: 'An order number cannot begin with {prefix}: the station would read it as a command barcode.',
};

/** Typed decimal -> exact decimal text: spaces dropped, a decimal comma becomes a point; '' stays ''. */
export function normaliseDecimalInput(s: string): string {
  return s.replace(/[\s\u00a0]/g, '').replace(',', '.');
}

/** A non-negative decimal with at most `places` decimals (typed with a comma or a point), or ''. */
export function isDecimalInput(s: string, places: number): boolean {
  const n = normaliseDecimalInput(s);
  return n === '' || new RegExp(`^\\d{1,9}(\\.\\d{1,${places}})?$`).test(n);
}

/**
 * A typed weight that is a number but not above zero ("0", "0,000", "-1"): a parcel weighs something
 * (spec "Delivery: request fields" `packages.weight`, "Weight in kg"), and "-1" is said to be too
 * small rather than to have the wrong format.
 */
export function isNotPositiveNumber(s: string): boolean {
  const n = normaliseDecimalInput(s);
  return /^-?\d{1,9}(\.\d+)?$/.test(n) && compareDecimals(n, '0') <= 0;
}

/** A dimension in whole cm, 1-9999, or ''. */
export function isDimensionInput(s: string): boolean {
  const n = s.trim();
  return n === '' || /^[1-9]\d{0,3}$/.test(n);
}

export interface ServiceRules {
  code: string;
  implicit: boolean;
  bans: readonly string[];
  arguments: readonly { identifier: string }[];
}

export interface CheckOptions {
  /** 'search' checks what a transport search needs; 'save' what an insert or edit needs. */
  purpose: 'search' | 'save';
  requires?: TransportRequirements;
  /** The chosen transport's extra services (bans, arguments), when known. */
  services?: readonly ServiceRules[];
  /** The desk scanner's prefix and suffix: an order number is read as the scanner would read it. */
  scanner?: ScannerAffixes;
}

const empty = (s: string | undefined) => !s || s.trim() === '';

function checkParty(p: PartyDraft, role: 'sender' | 'recipient', purpose: CheckOptions['purpose'], out: DraftIssue[]) {
  const need = (field: string, v: string) => {
    if (empty(v)) out.push({ field: `${role}.${field}`, code: 'required' });
  };
  if (p.type === 'pickUpPlace' && role === 'sender') {
    out.push({ field: `${role}.type`, code: 'pickUpRecipientOnly' });
    return;
  }
  if (p.type === 'collectionPlace') {
    need('collectionPlace', p.collectionPlace);
    return;
  }
  if (p.type === 'pickUpPlace') need('pickUpPlace', p.pickUpPlace);
  if (p.type === 'address') {
    // The transport search needs only the country and postal code of an address (where it goes).
    need('address.postalCode', p.address.postalCode);
    need('address.state', p.address.state);
    if (purpose === 'save') {
      need('address.street', p.address.street);
      need('address.city', p.address.city);
    }
    checkHouseNumber(p.address, role, out);
  }
  if (purpose === 'save') {
    need('surname', p.surname);
    if (empty(p.phone) && empty(p.email)) out.push({ field: `${role}.phone`, code: 'phoneOrEmail' });
  }
}

/** The street's last word holds a digit ("Úpská 12", "Dlouhá 5a"); a number inside its name ("28. října") does not count. */
function endsWithNumber(street: string): boolean {
  const words = street.trim().split(/\s+/);
  return words.length > 1 && /\d/.test(words[words.length - 1]!);
}

/** Spec "Delivery: request fields" street / streetNumber, for a street that was typed (the search does not need one). */
function checkHouseNumber(a: PartyDraft['address'], role: 'sender' | 'recipient', out: DraftIssue[]) {
  if (empty(a.street)) return;
  if (empty(a.streetNumber)) {
    // The service's rule: any digit in the street counts as its house number.
    if (!/\d/.test(a.street)) out.push({ field: `${role}.address.streetNumber`, code: 'houseNumber' });
  } else if (endsWithNumber(a.street)) {
    out.push({ field: `${role}.address.street`, code: 'houseNumberTwice' });
  }
}

/** Every rule the draft breaks, each on its field; empty when it may be sent. */
export function checkDraft(d: ShipmentDraft, o: CheckOptions): DraftIssue[] {
  const out: DraftIssue[] = [];
  // The order number is scanned from the parcel: one that reads as the desk's command barcodes do
  // would be taken for a command (shared/scan/deskCodes.ts), so no shipment key may.
  if (readsAsDeskCode(d.externalId, o.scanner))
    out.push({ field: 'externalId', code: 'deskCodePrefix', params: { prefix: DESK_CODE_PREFIX } });
  checkParty(d.sender, 'sender', o.purpose, out);
  checkParty(d.recipient, 'recipient', o.purpose, out);
  if (empty(d.value)) out.push({ field: 'value', code: 'required' });
  else if (!isDecimalInput(d.value, 2)) out.push({ field: 'value', code: 'amountFormat' });
  if (!empty(d.cod) && !isDecimalInput(d.cod, 2)) out.push({ field: 'cod', code: 'amountFormat' });
  if (empty(d.valueCurrency)) out.push({ field: 'valueCurrency', code: 'required' });
  if (!empty(d.cod)) {
    if (empty(d.codCurrency)) out.push({ field: 'codCurrency', code: 'required' });
    if (o.purpose === 'save' && empty(d.variableSymbol)) out.push({ field: 'variableSymbol', code: 'required' });
  }
  const dimsNeeded = o.purpose === 'search' || !!o.requires?.dimensionsRequired;
  d.packages.forEach((p, i) => {
    if (empty(p.weight)) out.push({ field: `packages.${i}.weight`, code: 'required' });
    else if (isNotPositiveNumber(p.weight)) out.push({ field: `packages.${i}.weight`, code: 'weightPositive' });
    else if (!isDecimalInput(p.weight, 3)) out.push({ field: `packages.${i}.weight`, code: 'weightFormat' });
    for (const k of ['length', 'width', 'height'] as const) {
      if (empty(p[k])) {
        if (dimsNeeded)
          out.push({
            field: `packages.${i}.${k}`,
            code: o.purpose === 'search' ? 'dimensionsForSearch' : 'dimensionsRequired',
          });
      } else if (!isDimensionInput(p[k])) out.push({ field: `packages.${i}.${k}`, code: 'dimensionFormat' });
    }
  });
  if (o.purpose === 'save') {
    if (empty(d.agent) || empty(d.deliveryType)) out.push({ field: 'transport', code: 'transportRequired' });
    if (o.requires?.phoneRequired && empty(d.recipient.phone)) {
      // Replaces a plain "phone or e-mail" issue on the same field: this one says why.
      const i = out.findIndex((x) => x.field === 'recipient.phone');
      if (i >= 0) out.splice(i, 1);
      out.push({ field: 'recipient.phone', code: 'phoneRequired' });
    }
    out.push(...checkServices(d, o.services ?? []));
  }
  return out;
}

/** Codes a service cannot be combined with, both ways (a ban is mutual even if listed on one side). */
export function bannedWith(code: string, services: readonly ServiceRules[]): string[] {
  const own = services.find((s) => s.code === code)?.bans ?? [];
  const others = services.filter((s) => s.bans.includes(code)).map((s) => s.code);
  return [...new Set([...own, ...others])];
}

/** Which service (chosen or implicit) bans `code` now; null when it may be chosen. */
export function bannedBy(code: string, chosen: readonly string[], services: readonly ServiceRules[]): string | null {
  const active = new Set([...chosen, ...services.filter((s) => s.implicit).map((s) => s.code)]);
  active.delete(code);
  return bannedWith(code, services).find((c) => active.has(c)) ?? null;
}

function checkServices(d: ShipmentDraft, services: readonly ServiceRules[]): DraftIssue[] {
  const out: DraftIssue[] = [];
  const chosen = d.extraServices.map((s) => s.code);
  for (const s of d.extraServices) {
    const def = services.find((x) => x.code === s.code);
    const by = bannedBy(s.code, chosen, services);
    if (by) out.push({ field: `extraServices.${s.code}`, code: 'banned', params: { other: by } });
    for (const a of def?.arguments ?? []) {
      if (empty(s.arguments[a.identifier]))
        out.push({ field: `extraServices.${s.code}.arguments.${a.identifier}`, code: 'argumentRequired' });
    }
  }
  return out;
}

/** The issue as text in English (the core's message). */
export function issueMessage(i: DraftIssue): string {
  return draftIssueMessages[i.code].replace(/\{(\w+)\}/g, (w, k: string) => i.params?.[k] ?? w);
}
