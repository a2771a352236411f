/**
 * Extra services of one shipment: each code must be offered by the carrier with the chosen
 * delivery type, carry its arguments (spec "Transport option": `arguments` with `identifier`),
 * and not be banned by another service of the shipment (`bans`). The implicit ones are added:
 * `cod` when a cash-on-delivery amount is given (spec "Delivery: response fields") and
 * `direct_delivery` / `back_delivery` by the party types (spec "Party type rules" 4-5).
 */
import type { Msg } from '../i18n';
import { DATE, EMAIL, INVALID, PHONE, isAbsent, isRecord, normalisePhone, readList, readText } from './coerce';
import { serviceOf } from './catalogue';
import { impliedServices } from './parties';
import type {
  CarrierDef,
  CollectionPlaceRecord,
  DeliveryTypeDef,
  ExtraServiceValue,
  FieldError,
  ServiceArgumentDef,
  StoredParty,
} from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

interface Ctx {
  at: string;
  carrier: CarrierDef;
  type: DeliveryTypeDef;
  sender: StoredParty;
  recipient: StoredParty;
  places: CollectionPlaceRecord[];
  hasCod: boolean;
  errors: FieldError[];
}

function argumentValid(def: ServiceArgumentDef, v: string): boolean {
  switch (def.kind) {
    case 'email':
      return EMAIL.test(v);
    case 'phone':
      return PHONE.test(v);
    case 'date':
      return DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
    default:
      return v.length <= 200;
  }
}

/** `arguments` arrives as an object, [] (empty in JSON), '' (empty XML element) or absent. */
function readArguments(raw: unknown): Record<string, unknown> | typeof INVALID {
  if (isAbsent(raw) || (Array.isArray(raw) && raw.length === 0)) return {};
  return isRecord(raw) ? raw : INVALID;
}

export function readExtraServices(raw: unknown, ctx: Ctx): ExtraServiceValue[] | null {
  const { at, carrier, type, errors } = ctx;
  const before = errors.length;
  const list = readList(raw);
  if (list === INVALID) {
    errors.push({
      field: `${at}.extraServices`,
      value: raw,
      message: m('extraServices must be a list.', 'Pole extraServices musí být seznam.'),
    });
    return null;
  }
  const implied = impliedServices(carrier.code, ctx.sender, ctx.recipient, ctx.places);
  const explicit: Array<{ value: ExtraServiceValue; field: string }> = [];
  const seen = new Set<string>();

  list.forEach((item, j) => {
    const path = `${at}.extraServices[${j}]`;
    const code = isRecord(item) ? readText(item.code) : INVALID;
    if (code === INVALID || code === undefined || !isRecord(item)) {
      errors.push({
        field: `${path}.code`,
        value: isRecord(item) ? (item.code ?? null) : item,
        message: m('code of the extra service is required.', 'Kód doplňkové služby je povinný.'),
      });
      return;
    }
    const def = serviceOf(carrier, code);
    if (!def || !type.extraServices.includes(code)) {
      errors.push({
        field: `${path}.code`,
        value: code,
        message: m(
          `${carrier.code} does not offer the extra service ${code} with ${type.code}.`,
          `${carrier.code} nenabízí doplňkovou službu ${code} s typem ${type.code}.`,
        ),
      });
      return;
    }
    if (seen.has(code)) {
      errors.push({
        field: `${path}.code`,
        value: code,
        message: m(`The extra service ${code} is given twice.`, `Doplňková služba ${code} je zadána dvakrát.`),
      });
      return;
    }
    seen.add(code);
    if (def.implicitOnly) {
      // Sent explicitly, an implicit service is accepted only when the shipment implies it anyway.
      const impliedHere = code === 'cod' ? ctx.hasCod : (implied as string[]).includes(code);
      if (!impliedHere) {
        errors.push({
          field: `${path}.code`,
          value: code,
          message:
            code === 'cod'
              ? m(
                  'The cod service comes with a cash-on-delivery amount: give cod, codCurrency and variableSymbol.',
                  'Služba cod vyžaduje dobírku: zadejte cod, codCurrency a variableSymbol.',
                )
              : m(
                  `${code} is applied by the party types only (see the party type rules); this shipment does not qualify.`,
                  `${code} se uplatní jen podle typů stran (viz pravidla typů stran); tato zásilka jím není.`,
                ),
        });
      }
      return;
    }
    const args = readArguments(item.arguments);
    if (args === INVALID) {
      errors.push({
        field: `${path}.arguments`,
        value: item.arguments,
        message: m('arguments must be an object.', 'Pole arguments musí být objekt.'),
      });
      return;
    }
    const values: Record<string, string> = {};
    for (const a of def.arguments) {
      let v = readText(args[a.identifier]);
      if (v === undefined || v === INVALID) {
        errors.push({
          field: `${path}.arguments.${a.identifier}`,
          value: args[a.identifier] ?? null,
          message: m(
            `The extra service ${code} needs the argument ${a.identifier} (e.g. ${a.example}).`,
            `Doplňková služba ${code} vyžaduje argument ${a.identifier} (např. ${a.example}).`,
          ),
        });
        continue;
      }
      if (a.kind === 'phone') v = normalisePhone(v);
      if (!argumentValid(a, v)) {
        errors.push({
          field: `${path}.arguments.${a.identifier}`,
          value: args[a.identifier],
          message: m(
            `The argument ${a.identifier} is not valid; it looks like ${a.example}.`,
            `Argument ${a.identifier} není platný; vypadá jako ${a.example}.`,
          ),
        });
        continue;
      }
      values[a.identifier] = v;
    }
    for (const key of Object.keys(args)) {
      if (!def.arguments.some((a) => a.identifier === key)) {
        errors.push({
          field: `${path}.arguments.${key}`,
          value: args[key],
          message: m(
            `The extra service ${code} has no argument ${key}.`,
            `Doplňková služba ${code} nemá argument ${key}.`,
          ),
        });
      }
    }
    explicit.push({ value: { code, arguments: values }, field: `${path}.code` });
  });

  // Implicit services, in a fixed order after the explicit ones.
  const implicit: Array<{ value: ExtraServiceValue; field: string }> = [];
  if (ctx.hasCod) implicit.push({ value: { code: 'cod', arguments: {} }, field: `${at}.cod` });
  for (const code of implied) {
    if (!type.extraServices.includes(code)) {
      errors.push({
        field: `${at}.sender.type`,
        value: ctx.sender.type,
        message:
          code === 'back_delivery'
            ? m(
                `${type.code} cannot carry a back shipment to a collection place.`,
                `${type.code} nemůže přepravit zpětnou zásilku na svozové místo.`,
              )
            : m(
                `${type.code} cannot carry a direct shipment; send it from a collection place with a collection type for ${carrier.code}.`,
                `${type.code} nemůže přepravit přímou zásilku; odešlete ji ze svozového místa se svozem ${carrier.code}.`,
              ),
      });
      continue;
    }
    implicit.push({
      value: { code, arguments: {} },
      field: code === 'back_delivery' ? `${at}.recipient.type` : `${at}.sender.type`,
    });
  }

  // Banned pairs: reported once, on the later of the two.
  const all = [...explicit, ...implicit];
  all.forEach((b, k) => {
    for (const a of all.slice(0, k)) {
      const bansA = serviceOf(carrier, a.value.code)?.bans ?? [];
      const bansB = serviceOf(carrier, b.value.code)?.bans ?? [];
      if (bansA.includes(b.value.code) || bansB.includes(a.value.code)) {
        errors.push({
          field: b.field,
          value: b.value.code,
          message: m(
            `The extra service ${b.value.code} cannot be combined with ${a.value.code}.`,
            `Doplňkovou službu ${b.value.code} nelze kombinovat s ${a.value.code}.`,
          ),
        });
      }
    }
  });
  return errors.length > before ? null : all.map((s) => s.value);
}
