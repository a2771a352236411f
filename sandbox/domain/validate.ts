/**
 * Insert and edit validation (spec "Delivery: request fields", "Party type rules", "POST
 * /api/v3/deliveries", "PUT /api/v3/deliveries"). All-or-nothing: every item is checked and
 * every error listed, each `field` starting with the failing shipment's zero-based [index]
 * (spec "Errors"). The result items are normalised and carry the implicit extra services.
 */
import type { Msg } from '../i18n';
import { CURRENCIES, INVALID, isAbsent, isRecord, readInt, readList, readText } from './coerce';
import { carrierOf, deliveryTypeOf } from './catalogue';
import { isAmount, MAX_AMOUNT, parseDecimal } from './decimal';
import { readExtraServices } from './validateServices';
import { readPackages } from './validatePackages';
import { msgRequired, msgText, readParty } from './validateParty';
import { effectiveKind, placeOf } from './parties';
import type { CollectionPlaceRecord, DeliveryInput, DomainResult, FieldError } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

export const MSG_VALIDATION = m('Validation failed', 'Validace selhala');

export function validateDeliveries(
  items: unknown,
  ctx: { places: CollectionPlaceRecord[]; mode: 'insert' | 'edit' },
): DomainResult<DeliveryInput[]> {
  const list = readList(items);
  if (list === INVALID || list.length === 0) {
    return {
      ok: false,
      status: 422,
      message: MSG_VALIDATION,
      errors: [
        {
          field: 'deliveries',
          value: items ?? null,
          message: m(
            'deliveries must be a non-empty list of shipments.',
            'Pole deliveries musí být neprázdný seznam zásilek.',
          ),
        },
      ],
    };
  }
  const errors: FieldError[] = [];
  const out: DeliveryInput[] = [];
  list.forEach((item, i) => {
    const before = errors.length;
    const d = readDelivery(item, `[${i}]`, errors, ctx);
    if (d && errors.length === before) out.push(d);
  });
  return errors.length ? { ok: false, status: 422, message: MSG_VALIDATION, errors } : { ok: true, value: out };
}

function requiredText(obj: Record<string, unknown>, key: string, at: string, errors: FieldError[]): string | null {
  const v = readText(obj[key]);
  if (v === INVALID) errors.push({ field: `${at}.${key}`, value: obj[key], message: msgText(key) });
  else if (v === undefined) errors.push({ field: `${at}.${key}`, value: obj[key] ?? null, message: msgRequired(key) });
  else return v;
  return null;
}

function optionalText(
  obj: Record<string, unknown>,
  key: string,
  at: string,
  errors: FieldError[],
  max: number,
): string | null {
  const v = readText(obj[key]);
  if (v === INVALID) errors.push({ field: `${at}.${key}`, value: obj[key], message: msgText(key) });
  else if (v !== undefined && v.length > max) {
    errors.push({
      field: `${at}.${key}`,
      value: obj[key],
      message: m(`${key} is longer than ${max} characters.`, `Pole ${key} je delší než ${max} znaků.`),
    });
  } else if (v !== undefined) return v;
  return null;
}

function currency(obj: Record<string, unknown>, key: string, at: string, errors: FieldError[]): string | null {
  const v = requiredText(obj, key, at, errors);
  if (v === null) return null;
  const c = v.toUpperCase();
  if (!CURRENCIES.includes(c)) {
    errors.push({
      field: `${at}.${key}`,
      value: obj[key],
      message: m(
        `${key} must be one of ${CURRENCIES.join(', ')}.`,
        `Pole ${key} musí být jedno z ${CURRENCIES.join(', ')}.`,
      ),
    });
    return null;
  }
  return c;
}

/** Money: a decimal with at most 2 places, at most MAX_AMOUNT; `positive` excludes 0. */
function money(
  obj: Record<string, unknown>,
  key: string,
  at: string,
  errors: FieldError[],
  positive: boolean,
): string | null {
  const d = parseDecimal(obj[key]);
  if (d === null || !isAmount(d) || (positive && d === '0')) {
    errors.push({
      field: `${at}.${key}`,
      value: obj[key],
      message: positive
        ? m(
            `${key} must be a positive amount with at most 2 decimals, up to ${MAX_AMOUNT}.`,
            `Pole ${key} musí být kladná částka s nejvýše 2 desetinnými místy, nejvýše ${MAX_AMOUNT}.`,
          )
        : m(
            `${key} must be an amount from 0 to ${MAX_AMOUNT} with at most 2 decimals.`,
            `Pole ${key} musí být částka od 0 do ${MAX_AMOUNT} s nejvýše 2 desetinnými místy.`,
          ),
    });
    return null;
  }
  return d;
}

function readDelivery(
  item: unknown,
  at: string,
  errors: FieldError[],
  ctx: { places: CollectionPlaceRecord[]; mode: 'insert' | 'edit' },
): DeliveryInput | null {
  if (!isRecord(item)) {
    errors.push({
      field: at,
      value: item ?? null,
      message: m('A shipment must be an object.', 'Zásilka musí být objekt.'),
    });
    return null;
  }
  const before = errors.length;

  let deliveryId: number | null = null;
  if (ctx.mode === 'edit') {
    const id = readInt(item.deliveryId);
    if (id === undefined)
      errors.push({ field: `${at}.deliveryId`, value: item.deliveryId ?? null, message: msgRequired('deliveryId') });
    else if (id === INVALID || id <= 0) {
      errors.push({
        field: `${at}.deliveryId`,
        value: item.deliveryId,
        message: m('deliveryId must be a positive whole number.', 'Pole deliveryId musí být kladné celé číslo.'),
      });
    } else deliveryId = id;
  }

  // Carrier and delivery type first: the rest of the checks depend on them.
  const agent = requiredText(item, 'agent', at, errors);
  const carrier = agent === null ? undefined : carrierOf(agent);
  if (agent !== null && !carrier) {
    errors.push({
      field: `${at}.agent`,
      value: item.agent,
      message: m(`Unknown carrier ${agent}.`, `Neznámý dopravce ${agent}.`),
    });
  }
  const deliveryType = requiredText(item, 'deliveryType', at, errors);
  const type = carrier && deliveryType !== null ? deliveryTypeOf(carrier, deliveryType) : undefined;
  if (carrier && deliveryType !== null && !type) {
    errors.push({
      field: `${at}.deliveryType`,
      value: item.deliveryType,
      message: m(
        `Carrier ${carrier.code} has no delivery type ${deliveryType}.`,
        `Dopravce ${carrier.code} nemá typ zásilky ${deliveryType}.`,
      ),
    });
  }

  const value = isAbsent(item.value)
    ? (errors.push({ field: `${at}.value`, value: item.value ?? null, message: msgRequired('value') }), null)
    : money(item, 'value', at, errors, false);
  const valueCurrency = currency(item, 'valueCurrency', at, errors);

  let cod: string | null = null;
  let codCurrency: string | null = null;
  let variableSymbol: string | null;
  if (!isAbsent(item.cod)) {
    cod = money(item, 'cod', at, errors, true);
    codCurrency = currency(item, 'codCurrency', at, errors);
    variableSymbol = requiredText(item, 'variableSymbol', at, errors);
    if (variableSymbol !== null && !/^\d{1,10}$/.test(variableSymbol)) {
      errors.push({
        field: `${at}.variableSymbol`,
        value: item.variableSymbol,
        message: m('variableSymbol must be 1 to 10 digits.', 'Pole variableSymbol musí mít 1 až 10 číslic.'),
      });
      variableSymbol = null;
    }
    if (type && !type.extraServices.includes('cod')) {
      errors.push({
        field: `${at}.cod`,
        value: item.cod,
        message: m(`${type.code} does not offer cash on delivery.`, `${type.code} nenabízí dobírku.`),
      });
    }
  } else {
    // Without cod these are merely echoed (a payment reference may still be useful to the client).
    variableSymbol = optionalText(item, 'variableSymbol', at, errors, 10);
  }

  const packages = readPackages(item.packages, `${at}.packages`, errors, {
    dimensionsRequired: type?.dimensionsRequired ?? false,
    type,
  });
  const sender = readParty(item.sender, {
    role: 'sender',
    path: `${at}.sender`,
    places: ctx.places,
    personal: true,
    errors,
  });
  const recipient = readParty(item.recipient, {
    role: 'recipient',
    path: `${at}.recipient`,
    places: ctx.places,
    personal: true,
    errors,
  });
  const ticketNote = optionalText(item, 'ticketNote', at, errors, 300);
  const externalId = optionalText(item, 'externalId', at, errors, 64);

  if (type && recipient) {
    const kind = effectiveKind(recipient, type && carrier ? carrier.code : '', ctx.places);
    if (!type.recipientTypes.includes(kind)) {
      errors.push({
        field: `${at}.recipient.type`,
        value: recipient.type,
        message: m(
          `${type.code} delivers to ${type.recipientTypes.join(', ')}, not to ${kind}.`,
          `${type.code} doručuje na ${type.recipientTypes.join(', ')}, ne na ${kind}.`,
        ),
      });
    }
    const country = recipient.address?.state ?? placeOf(ctx.places, recipient.collectionPlace)?.state ?? null;
    if (country !== null && !type.countries.includes(country)) {
      errors.push({
        field: `${at}.recipient.address.state`,
        value: country,
        message: m(
          `${type.code} delivers only to ${type.countries.join(', ')}.`,
          `${type.code} doručuje jen do ${type.countries.join(', ')}.`,
        ),
      });
    }
    if (recipient.pickUpPlace !== null && type.pickUpPlace && !type.pickUpPlace.pattern.test(recipient.pickUpPlace)) {
      errors.push({
        field: `${at}.recipient.pickUpPlace`,
        value: recipient.pickUpPlace,
        message: m(
          `Unknown pick-up place for ${type.code}; it looks like ${type.pickUpPlace.example}.`,
          `Neznámé výdejní místo pro ${type.code}; vypadá jako ${type.pickUpPlace.example}.`,
        ),
      });
    }
    // A collection-place recipient answers the phone of the place itself.
    const phone =
      recipient.phone ??
      (recipient.type === 'collectionPlace' ? (placeOf(ctx.places, recipient.collectionPlace)?.phone ?? null) : null);
    if (type.phoneRequired && !phone) {
      errors.push({
        field: `${at}.recipient.phone`,
        value: null,
        message: m(`${type.code} requires the recipient's phone.`, `${type.code} vyžaduje telefon příjemce.`),
      });
    }
  }

  const services =
    carrier && type && sender && recipient
      ? readExtraServices(item.extraServices, {
          at,
          carrier,
          type,
          sender,
          recipient,
          places: ctx.places,
          hasCod: cod !== null,
          errors,
        })
      : null;

  if (
    errors.length > before ||
    !carrier ||
    !type ||
    !sender ||
    !recipient ||
    !packages ||
    !services ||
    value === null ||
    !valueCurrency
  )
    return null;
  return {
    deliveryId,
    agent: carrier.code,
    deliveryType: type.code,
    value,
    valueCurrency,
    cod,
    codCurrency: cod === null ? null : codCurrency,
    variableSymbol,
    packages,
    extraServices: services,
    ticketNote,
    externalId,
    sender,
    recipient,
  };
}
