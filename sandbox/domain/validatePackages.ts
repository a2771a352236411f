/**
 * Packages of a shipment (spec "Delivery: request fields"): weight in kg (float; a decimal comma
 * is accepted, spec "Common conventions" 5), dimensions in whole cm, conditional on the delivery
 * type's `dimensionsRequired` (always required in transport search).
 */
import type { Msg } from '../i18n';
import { INVALID, isAbsent, isRecord, readInt, readList } from './coerce';
import { compareDecimal, decimalPlaces, kgToGrams, MAX_SIDE_CM, MAX_WEIGHT_KG, parseDecimal } from './decimal';
import type { DeliveryTypeDef, FieldError, StoredPackage } from './types';
import { msgRequired } from './validateParty';

const m = (en: string, cs: string): Msg => ({ en, cs });
export const MAX_PACKAGES = 50;
const DIMENSIONS = ['length', 'width', 'height'] as const;

export type PackageInput = Omit<StoredPackage, 'barcode'>;

export function readPackages(
  raw: unknown,
  path: string,
  errors: FieldError[],
  opts: { dimensionsRequired: boolean; type?: DeliveryTypeDef },
): PackageInput[] | null {
  const list = readList(raw);
  if (list === INVALID || list.length === 0) {
    errors.push({
      field: path,
      value: raw ?? null,
      message: m('At least one package is required.', 'Je povinný alespoň jeden balík.'),
    });
    return null;
  }
  if (list.length > MAX_PACKAGES) {
    errors.push({
      field: path,
      value: list.length,
      message: m(`At most ${MAX_PACKAGES} packages per shipment.`, `Nejvýše ${MAX_PACKAGES} balíků v jedné zásilce.`),
    });
    return null;
  }
  const before = errors.length;
  const out: PackageInput[] = [];
  list.forEach((p, k) => {
    const at = `${path}[${k}]`;
    if (!isRecord(p)) {
      errors.push({
        field: at,
        value: p ?? null,
        message: m('A package must be an object.', 'Balík musí být objekt.'),
      });
      return;
    }
    const weight = parseDecimal(p.weight, { comma: true });
    if (isAbsent(p.weight)) {
      errors.push({ field: `${at}.weight`, value: p.weight ?? null, message: msgRequired('weight') });
    } else if (
      weight === null ||
      weight.startsWith('-') ||
      weight === '0' ||
      decimalPlaces(weight) > 3 ||
      compareDecimal(weight, String(MAX_WEIGHT_KG)) > 0
    ) {
      errors.push({
        field: `${at}.weight`,
        value: p.weight,
        message: m(
          `weight must be a positive number of kg with at most 3 decimals, up to ${MAX_WEIGHT_KG}.`,
          `Pole weight musí být kladné číslo v kg s nejvýše 3 desetinnými místy, nejvýše ${MAX_WEIGHT_KG}.`,
        ),
      });
    } else if (opts.type && kgToGrams(weight) > opts.type.maxWeightGrams) {
      const max = opts.type.maxWeightGrams / 1000;
      errors.push({
        field: `${at}.weight`,
        value: p.weight,
        message: m(
          `${opts.type.code} accepts packages up to ${max} kg.`,
          `${opts.type.code} přijímá balíky do ${max} kg.`,
        ),
      });
    }
    const dims: Record<(typeof DIMENSIONS)[number], number | null> = { length: null, width: null, height: null };
    for (const d of DIMENSIONS) {
      const v = readInt(p[d]);
      if (v === undefined) {
        if (opts.dimensionsRequired) {
          errors.push({
            field: `${at}.${d}`,
            value: p[d] ?? null,
            message: opts.type
              ? m(
                  `${d} is required: ${opts.type.code} requires package dimensions.`,
                  `Pole ${d} je povinné: ${opts.type.code} vyžaduje rozměry balíků.`,
                )
              : m(
                  `${d} is required: package dimensions are always required in transport search.`,
                  `Pole ${d} je povinné: rozměry balíků jsou při hledání přeprav vždy povinné.`,
                ),
          });
        }
      } else if (v === INVALID || v <= 0 || v > MAX_SIDE_CM) {
        errors.push({
          field: `${at}.${d}`,
          value: p[d],
          message: m(
            `${d} must be a positive whole number of cm, up to ${MAX_SIDE_CM}.`,
            `Pole ${d} musí být kladné celé číslo v cm, nejvýše ${MAX_SIDE_CM}.`,
          ),
        });
      } else if (opts.type && v > opts.type.maxSideCm) {
        errors.push({
          field: `${at}.${d}`,
          value: p[d],
          message: m(
            `${opts.type.code} accepts sides up to ${opts.type.maxSideCm} cm.`,
            `${opts.type.code} přijímá strany do ${opts.type.maxSideCm} cm.`,
          ),
        });
      } else {
        dims[d] = v;
      }
    }
    if (weight !== null) out.push({ weight, ...dims });
  });
  return errors.length > before ? null : out;
}
