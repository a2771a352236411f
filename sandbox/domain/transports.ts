/**
 * Transport search (spec "GET /api/v3/transports", "Transport option"). Items are insert items
 * without agent, deliveryType, extraServices, variableSymbol, personal data, ticketNote and
 * externalId; package dimensions are always required. `agent` / `deliveryType`, when given,
 * narrow the options (sandbox convenience).
 *
 * Pricing model (all in haléře, integers; shown in CZK with 2 decimals):
 * 1. chargeable weight of a package = max(actual grams, volumetric grams), volumetric grams =
 *    ceil(length x width x height [cm] x 1000 / carrier's volumetric divisor);
 * 2. a package's price = the first weight band of the delivery type whose upper limit >= its
 *    chargeable weight (no band fits -> the type is not offered);
 * 3. base = sum of package prices + the type's surcharge for a foreign destination country
 *    (recipient address country; pick-up points and collection places count as domestic CZ unless
 *    the place says otherwise);
 * 4. fees: category 1 "fuel surcharge" = base x carrier per mille, rounded half up to whole
 *    haléře; category 2 "toll" = carrier's fixed toll per shipment; total = base + fees;
 * 5. extra service prices are fixed per shipment (catalogue); implicit services are `cod` (when
 *    cod is given) and `direct_delivery` / `back_delivery` by the party types;
 * 6. final price = total + prices of all implicit extra services (spec "Transport option").
 * An unpaid carrier (contract prices, CCR) has no `price` element and no service prices.
 * Options appear only when the type accepts the recipient's party type, the country, every
 * package's weight and sides, cash on delivery if asked, and the implied services.
 */
import type { Lang, Msg } from '../i18n';
import { CURRENCIES, INVALID, isAbsent, isRecord, readList, readText } from './coerce';
import { catalogue } from './catalogue';
import { isAmount, kgToGrams, MAX_AMOUNT, parseDecimal, scaledToNumber } from './decimal';
import { effectiveKind, impliedServices, placeOf } from './parties';
import { addWorkingDays, atPragueTime, formatTimestamp, nextWorkingDay } from './time';
import type {
  CarrierDef,
  CollectionPlaceRecord,
  DeliveryTypeDef,
  DomainResult,
  FieldError,
  StoredParty,
  TransportOption,
  TransportResult,
} from './types';
import { type PackageInput, readPackages } from './validatePackages';
import { msgRequired, readParty } from './validateParty';

const m = (en: string, cs: string): Msg => ({ en, cs });

export const FEE_FUEL = { category: 1, name: m('Fuel surcharge', 'Palivový příplatek') };
export const FEE_TOLL = { category: 2, name: m('Toll', 'Mýtné') };

/** Chargeable grams of one package (step 1). */
export function chargeableGrams(p: PackageInput, divisor: number): number {
  const actual = kgToGrams(p.weight);
  if (p.length === null || p.width === null || p.height === null) return actual;
  const volumetric = Math.ceil((p.length * p.width * p.height * 1000) / divisor);
  return Math.max(actual, volumetric);
}

/** Base, fees and total in haléře; null when a package fits no band (steps 2-4). */
export function priceOf(
  carrier: CarrierDef,
  type: DeliveryTypeDef,
  packages: PackageInput[],
  country: string,
): { base: number; fees: Array<{ category: number; name: Msg; fee: number }>; total: number } | null {
  let base = 0;
  for (const p of packages) {
    const grams = chargeableGrams(p, carrier.volumetricDivisor);
    const band = type.bands.find((b) => b.upToGrams >= grams);
    if (!band) return null;
    base += band.priceMinor;
  }
  base +=
    country === 'CZ' || !Object.hasOwn(type.foreignSurchargeMinor, country)
      ? 0
      : (type.foreignSurchargeMinor[country] ?? 0);
  const fees: Array<{ category: number; name: Msg; fee: number }> = [];
  if (carrier.fuelSurchargePermille > 0) {
    fees.push({
      category: FEE_FUEL.category,
      name: FEE_FUEL.name,
      fee: Math.floor((base * carrier.fuelSurchargePermille + 500) / 1000),
    });
  }
  if (carrier.tollMinor > 0) fees.push({ category: FEE_TOLL.category, name: FEE_TOLL.name, fee: carrier.tollMinor });
  return { base, fees, total: base + fees.reduce((s, f) => s + f.fee, 0) };
}

const crowns = (minor: number) => scaledToNumber(minor, 2);

interface Request {
  packages: PackageInput[];
  hasCod: boolean;
  sender: StoredParty;
  recipient: StoredParty;
  agent: string | null;
  deliveryType: string | null;
}

function readRequest(item: unknown, at: string, errors: FieldError[], places: CollectionPlaceRecord[]): Request | null {
  if (!isRecord(item)) {
    errors.push({
      field: at,
      value: item ?? null,
      message: m('A shipment must be an object.', 'Zásilka musí být objekt.'),
    });
    return null;
  }
  const before = errors.length;
  const value = parseDecimal(item.value);
  if (isAbsent(item.value))
    errors.push({ field: `${at}.value`, value: item.value ?? null, message: msgRequired('value') });
  else if (value === null || !isAmount(value)) {
    errors.push({
      field: `${at}.value`,
      value: item.value,
      message: m(
        `value must be an amount from 0 to ${MAX_AMOUNT} with at most 2 decimals.`,
        `Pole value musí být částka od 0 do ${MAX_AMOUNT} s nejvýše 2 desetinnými místy.`,
      ),
    });
  }
  const currencyOk = (key: string) => {
    const c = readText(item[key]);
    if (c === undefined || c === INVALID || !CURRENCIES.includes(c.toUpperCase())) {
      errors.push({
        field: `${at}.${key}`,
        value: item[key] ?? null,
        message: m(
          `${key} must be one of ${CURRENCIES.join(', ')}.`,
          `Pole ${key} musí být jedno z ${CURRENCIES.join(', ')}.`,
        ),
      });
    }
  };
  currencyOk('valueCurrency');
  const hasCod = !isAbsent(item.cod);
  if (hasCod) {
    const cod = parseDecimal(item.cod);
    if (cod === null || cod === '0' || !isAmount(cod)) {
      errors.push({
        field: `${at}.cod`,
        value: item.cod,
        message: m(
          `cod must be a positive amount with at most 2 decimals, up to ${MAX_AMOUNT}.`,
          `Pole cod musí být kladná částka s nejvýše 2 desetinnými místy, nejvýše ${MAX_AMOUNT}.`,
        ),
      });
    }
    currencyOk('codCurrency');
  }
  const packages = readPackages(item.packages, `${at}.packages`, errors, { dimensionsRequired: true });
  const sender = readParty(item.sender, { role: 'sender', path: `${at}.sender`, places, personal: false, errors });
  const recipient = readParty(item.recipient, {
    role: 'recipient',
    path: `${at}.recipient`,
    places,
    personal: false,
    errors,
  });
  const agent = readText(item.agent);
  const deliveryType = readText(item.deliveryType);
  if (errors.length > before || !packages || !sender || !recipient) return null;
  return {
    packages,
    hasCod,
    sender,
    recipient,
    agent: typeof agent === 'string' ? agent : null,
    deliveryType: typeof deliveryType === 'string' ? deliveryType : null,
  };
}

function optionFor(
  carrier: CarrierDef,
  type: DeliveryTypeDef,
  r: Request,
  ctx: { places: CollectionPlaceRecord[]; now: Date; lang: Lang },
): TransportOption | null {
  const { places, lang } = ctx;
  if (!type.recipientTypes.includes(effectiveKind(r.recipient, carrier.code, places))) return null;
  const country = r.recipient.address?.state ?? placeOf(places, r.recipient.collectionPlace)?.state ?? 'CZ';
  if (!type.countries.includes(country)) return null;
  for (const p of r.packages) {
    if (kgToGrams(p.weight) > type.maxWeightGrams) return null;
    if ([p.length, p.width, p.height].some((s) => s !== null && s > type.maxSideCm)) return null;
  }
  if (r.hasCod && !type.extraServices.includes('cod')) return null;
  const implied = impliedServices(carrier.code, r.sender, r.recipient, places);
  if (implied.some((code) => !type.extraServices.includes(code))) return null;
  const price = priceOf(carrier, type, r.packages, country);
  if (!price) return null;

  const paid = !carrier.unpaid;
  const extraServices: TransportOption['extraServices'] = [];
  for (const code of type.extraServices) {
    const def = carrier.extraServices.find((s) => s.code === code);
    if (!def) continue;
    const implicit = code === 'cod' ? r.hasCod : (implied as string[]).includes(code);
    // direct/back exist only where the party types imply them; they cannot be chosen.
    if (def.implicitOnly && code !== 'cod' && !implicit) continue;
    extraServices.push({
      code,
      name: def.name[lang],
      description: def.description[lang],
      implicit,
      bans: [...def.bans],
      arguments: def.arguments.map((a) => ({ name: a.name[lang], identifier: a.identifier, example: a.example })),
      ...(paid && def.priceMinor !== null ? { price: { total: crowns(def.priceMinor), currency: 'CZK' } } : {}),
    });
  }

  const pickUpDay = nextWorkingDay(ctx.now);
  const collected = effectiveKind(r.sender, carrier.code, places) === 'collectionPlace';
  const { min, max } = type.transitDays;
  const minDay = min === 0 ? pickUpDay : addWorkingDays(pickUpDay, min);
  const maxDay = max === 0 ? pickUpDay : addWorkingDays(pickUpDay, max);
  const from = min === 0 ? 15 : 8;
  const ts = (day: string, hour: number) => formatTimestamp(atPragueTime(day, hour));
  return {
    agent: { code: carrier.code, name: carrier.name },
    deliveryType: {
      code: type.code,
      name: type.name[lang],
      phoneRequired: type.phoneRequired,
      dimensionsRequired: type.dimensionsRequired,
    },
    deliveryTime: {
      // A pick-up interval exists only when the courier collects at a collection place.
      pickUpFrom: collected ? ts(pickUpDay, 10) : null,
      pickUpTo: collected ? ts(pickUpDay, 14) : null,
      minDeliveryFrom: type.timeWindows ? ts(minDay, from) : null,
      minDeliveryTo: ts(minDay, 18),
      maxDeliveryFrom: type.timeWindows ? ts(maxDay, from) : null,
      maxDeliveryTo: ts(maxDay, 18),
    },
    insurance: { description: carrier.insurance[lang] },
    extraServices,
    ...(paid
      ? {
          price: {
            base: crowns(price.base),
            total: crowns(price.total),
            currency: 'CZK',
            fees: price.fees.map((f) => ({ categoryName: f.name[lang], category: f.category, fee: crowns(f.fee) })),
          },
        }
      : {}),
  };
}

export function searchTransports(
  items: unknown,
  ctx: { places: CollectionPlaceRecord[]; now: Date; lang?: Lang },
): DomainResult<TransportResult[]> {
  const lang = ctx.lang ?? 'en';
  const list = readList(items);
  if (list === INVALID || list.length === 0) {
    return {
      ok: false,
      status: 422,
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
  const requests = list.map((item, i) => readRequest(item, `[${i}]`, errors, ctx.places));
  if (errors.length) return { ok: false, status: 422, message: m('Validation failed', 'Validace selhala'), errors };
  return {
    ok: true,
    value: requests.map((r, i) => ({
      delivery: i,
      transports: catalogue.carriers
        .filter((c) => r!.agent === null || c.code === r!.agent)
        .flatMap((c) =>
          c.deliveryTypes
            .filter((t) => r!.deliveryType === null || t.code === r!.deliveryType)
            .map((t) => optionFor(c, t, r!, { places: ctx.places, now: ctx.now, lang }))
            .filter((o): o is TransportOption => o !== null),
        ),
    })),
  };
}
