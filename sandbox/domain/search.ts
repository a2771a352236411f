/**
 * Shipment search filters (spec "GET /api/v3/deliveries", filter rules 1-5):
 * 1. every criterion is combined with AND;
 * 2. full-text keys match a case-insensitive substring (`<party>.contactPerson|firstname|surname|
 *    email|phone`, `ticketNote`, `created`);
 * 3. enumeration keys take a comma-separated list and match any listed value exactly (numeric keys
 *    numerically: value=100 matches 100.00);
 * 4. a `>` or `<` prefix compares instead (numbers numerically, other keys lexicographically),
 *    and then neither full-text nor enumeration applies; a range repeats the key as an array
 *    (`value[]=>100&value[]=<200`);
 * 5. `externalId` compares lexicographically; `created` given a date (YYYY-MM-DD) matches any time
 *    on that Prague day, and `created>D` / `created<D` mean after / before that whole day.
 *
 * Sandbox choices (spec silent):
 * - `packages.*` keys match when one package satisfies every criterion of that key;
 * - a few more delivery keys filter by exact enumeration: `deliveryStateName`, `sourceName`,
 *   `<party>.type`, `<party>.collectionPlace`, `recipient.pickUpPlace`, `<party>.address.city|
 *   postalCode|state`; `closed` behaves like `created`;
 * - an unknown key, or a non-number for a numeric key, is a 422 naming the key (a typo must not
 *   silently return everything);
 * - a phone query ignores spaces, like stored phones;
 * - bracket spelling of nested keys (`recipient[surname]`) equals the dotted one.
 */
import type { Msg } from '../i18n';
import { compareDecimal, parseDecimal } from './decimal';
import { parseTimestamp, pragueDate } from './time';
import type { DomainResult, FieldError, StoredDelivery } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

type Kind = 'fulltext' | 'enum' | 'number' | 'date';

const PARTY_TEXT = ['contactPerson', 'firstname', 'surname', 'email', 'phone'] as const;

type KeyDef = { kind: Kind; get(d: StoredDelivery): Array<string | null> };

/**
 * key -> how it is matched and how its values are read from a stored shipment. A Map, so a query
 * key named like an Object.prototype member (`constructor`, `__proto__`, `toString`) is unknown.
 */
const KEYS = new Map<string, KeyDef>(
  Object.entries({
    deliveryId: { kind: 'number', get: (d) => [String(d.deliveryId)] },
    externalId: { kind: 'enum', get: (d) => [d.externalId] },
    agent: { kind: 'enum', get: (d) => [d.agent] },
    deliveryType: { kind: 'enum', get: (d) => [d.deliveryType] },
    deliveryNumber: { kind: 'enum', get: (d) => [d.deliveryNumber] },
    deliveryState: { kind: 'number', get: (d) => [String(d.deliveryState)] },
    value: { kind: 'number', get: (d) => [d.value] },
    valueCurrency: { kind: 'enum', get: (d) => [d.valueCurrency] },
    'packages.weight': { kind: 'number', get: (d) => d.packages.map((p) => p.weight) },
    'packages.width': {
      kind: 'number',
      get: (d) => d.packages.map((p) => (p.width === null ? null : String(p.width))),
    },
    'packages.height': {
      kind: 'number',
      get: (d) => d.packages.map((p) => (p.height === null ? null : String(p.height))),
    },
    'packages.length': {
      kind: 'number',
      get: (d) => d.packages.map((p) => (p.length === null ? null : String(p.length))),
    },
    cod: { kind: 'number', get: (d) => [d.cod] },
    codCurrency: { kind: 'enum', get: (d) => [d.codCurrency] },
    source: { kind: 'number', get: (d) => [String(d.source)] },
    variableSymbol: { kind: 'enum', get: (d) => [d.variableSymbol] },
    ticketNote: { kind: 'fulltext', get: (d) => [d.ticketNote] },
    created: { kind: 'date', get: (d) => [d.created] },
    // sandbox extensions (documented above)
    closed: { kind: 'date', get: (d) => [d.closed] },
    deliveryStateName: { kind: 'enum', get: (d) => [d.deliveryStateName] },
    sourceName: { kind: 'enum', get: (d) => [d.sourceName] },
    'recipient.pickUpPlace': { kind: 'enum', get: (d) => [d.recipient.pickUpPlace] },
  } satisfies Record<string, KeyDef>),
);
for (const party of ['recipient', 'sender'] as const) {
  for (const f of PARTY_TEXT) KEYS.set(`${party}.${f}`, { kind: 'fulltext', get: (d) => [d[party][f]] });
  KEYS.set(`${party}.type`, { kind: 'enum', get: (d) => [d[party].type] });
  KEYS.set(`${party}.collectionPlace`, { kind: 'enum', get: (d) => [d[party].collectionPlace] });
  for (const f of ['city', 'postalCode', 'state'] as const) {
    KEYS.set(`${party}.address.${f}`, { kind: 'enum', get: (d) => [d[party].address?.[f] ?? null] });
  }
}

export const FILTER_KEYS = [...KEYS.keys()];

type Test = (v: string | null) => boolean;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Compares a timestamp with a day or an instant; null when the operand is neither. */
function dateCompare(operand: string): ((ts: string) => number) | null {
  if (DAY.test(operand))
    return (ts) => {
      const day = pragueDate(new Date(Date.parse(ts)));
      return day < operand ? -1 : day > operand ? 1 : 0;
    };
  const at = parseTimestamp(operand);
  if (!at) return null;
  return (ts) => Math.sign(Date.parse(ts) - at.getTime());
}

function criterion(key: string, kind: Kind, raw: string, errors: FieldError[]): Test | null {
  const bad = (what: Msg) => {
    errors.push({ field: key, value: raw, message: what });
    return null;
  };
  const op = raw.startsWith('>') ? 1 : raw.startsWith('<') ? -1 : 0;
  if (op !== 0) {
    const operand = raw.slice(1).trim();
    if (kind === 'number') {
      const n = parseDecimal(operand, { comma: true });
      if (n === null)
        return bad(
          m(`${key} compares with a number, e.g. ${key}=>100.`, `${key} se porovnává s číslem, např. ${key}=>100.`),
        );
      return (v) => v !== null && compareDecimal(v, n) === op;
    }
    if (kind === 'date') {
      const cmp = dateCompare(operand);
      if (!cmp)
        return bad(
          m(
            `${key} compares with a date (YYYY-MM-DD) or an ISO 8601 timestamp.`,
            `${key} se porovnává s datem (RRRR-MM-DD) nebo časem ISO 8601.`,
          ),
        );
      return (v) => v !== null && cmp(v) === op;
    }
    // Lexicographic (rule 5 for externalId; the same for every text key).
    return (v) => v !== null && (v < operand ? -1 : v > operand ? 1 : 0) === op;
  }
  if (kind === 'fulltext') {
    const needle = (key.endsWith('.phone') ? raw.replace(/\s+/g, '') : raw).toLowerCase();
    return (v) => v !== null && v.toLowerCase().includes(needle);
  }
  if (kind === 'date') {
    if (DAY.test(raw.trim())) {
      const day = raw.trim();
      return (v) => v !== null && pragueDate(new Date(Date.parse(v))) === day;
    }
    const needle = raw.toLowerCase();
    return (v) => v !== null && v.toLowerCase().includes(needle);
  }
  const items = raw.split(',').map((s) => s.trim());
  if (kind === 'number') {
    const nums: Array<string | null> = [];
    for (const item of items) {
      if (item === '') {
        nums.push(null);
        continue;
      }
      const n = parseDecimal(item, { comma: false });
      if (n === null)
        return bad(m(`${key} takes numbers separated by commas.`, `${key} přijímá čísla oddělená čárkami.`));
      nums.push(n);
    }
    return (v) => nums.some((n) => (n === null ? v === null || v === '' : v !== null && compareDecimal(v, n) === 0));
  }
  return (v) => items.some((item) => (item === '' ? v === null || v === '' : v === item));
}

export interface SearchFilter {
  /** The plain `deliveryId` list (when given without a prefix): the shipments asked for by id. */
  ids: number[] | null;
  matches(d: StoredDelivery): boolean;
}

export function parseSearch(pairs: Array<[string, string]>): DomainResult<SearchFilter> {
  const errors: FieldError[] = [];
  const groups = new Map<string, Test[]>();
  let ids: number[] | null = null;
  for (const [rawKey, rawValue] of pairs) {
    // `value[]` / `value[0]` are a repeated key (ranges); `recipient[surname]` reads as `recipient.surname`.
    const key = rawKey.replace(/\[\d*\]$/, '').replace(/\[([A-Za-z]\w*)\]/g, '.$1');
    if (key === 'fields') continue;
    const def = KEYS.get(key);
    if (!def) {
      errors.push({
        field: rawKey,
        value: rawValue,
        message: m(
          `Unknown filter ${key}. Filters: ${FILTER_KEYS.join(', ')}.`,
          `Neznámý filtr ${key}. Filtry: ${FILTER_KEYS.join(', ')}.`,
        ),
      });
      continue;
    }
    const value = rawValue ?? '';
    const test = criterion(key, def.kind, value, errors);
    if (!test) continue;
    if (key === 'deliveryId' && !/^[<>]/.test(value)) {
      const list = value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (list.some((s) => !/^\d+$/.test(s))) {
        errors.push({
          field: rawKey,
          value,
          message: m(
            'deliveryId takes whole numbers separated by commas.',
            'deliveryId přijímá celá čísla oddělená čárkami.',
          ),
        });
        continue;
      }
      const asked = list.map(Number);
      ids = ids === null ? asked : ids.filter((id) => asked.includes(id));
    }
    groups.set(key, [...(groups.get(key) ?? []), test]);
  }
  if (errors.length)
    return { ok: false, status: 422, message: m('Invalid search filter', 'Neplatný filtr hledání'), errors };
  const entries = [...groups.entries()];
  return {
    ok: true,
    value: {
      ids,
      // A key's criteria must hold together for one value (one package for packages.*).
      matches: (d) =>
        entries.every(([key, tests]) =>
          KEYS.get(key)!
            .get(d)
            .some((v) => tests.every((t) => t(v))),
        ),
    },
  };
}
