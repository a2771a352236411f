/**
 * Packages at the desk: the rules of editing a parcel's packages before its close, when it turns
 * out to need more boxes (or fewer). Pure, so the page edits with them as the worker types and the
 * core checks the list it is sent with the same rules (the renderer is untrusted).
 *
 * A package is a weight in kg (exact decimal text, shared/decimal.ts; the worker may type a decimal
 * comma, spec "Common conventions" 5) and, where the carrier asks for them, its sides in whole cm
 * (spec "Delivery: request fields": `packages.length` / `width` / `height` are ints, required when
 * the transport search reports `dimensionsRequired` for the delivery type).
 */
import { compareDecimals, DECIMAL_PATTERN, toDecimal, type Decimal } from '../decimal';

export interface DeskPackage {
  /** kg; null until it is weighed or typed. */
  weight: Decimal | null;
  length: number | null;
  width: number | null;
  height: number | null;
}

/** As many packages as New shipment takes (shared/contract/newShipment.ts): a parcel, not a pallet. */
export const MAX_DESK_PACKAGES = 30;
/** Grams are the finest a weight is sent with (as New shipment and the weight correction send it). */
const WEIGHT_PLACES = 3;
/** The sandbox's and the carriers' longest side is far below this; it only bounds what is typed. */
export const MAX_SIDE_CM = 999;

export const SIDES = ['length', 'width', 'height'] as const;
export type Side = (typeof SIDES)[number];

/** Why an edit or a list is refused; the page's catalogue has a sentence for each (`packages.rule.*`). */
export type PackageRule =
  'too_many' | 'last_package' | 'split_count' | 'weight_invalid' | 'weight_missing' | 'side_invalid' | 'sides_missing';

export type Edit = { ok: true; packages: DeskPackage[] } | { ok: false; rule: PackageRule };

export const emptyPackage = (): DeskPackage => ({ weight: null, length: null, width: null, height: null });

/** One more box, empty: it is weighed (or its weight typed) next. */
export function addPackage(list: readonly DeskPackage[]): Edit {
  if (list.length >= MAX_DESK_PACKAGES) return { ok: false, rule: 'too_many' };
  return { ok: true, packages: [...list, emptyPackage()] };
}

/** The package at `index` taken out; a shipment keeps at least one (spec: `packages` is required). */
export function removePackage(list: readonly DeskPackage[], index: number): Edit {
  if (list.length <= 1) return { ok: false, rule: 'last_package' };
  if (index < 0 || index >= list.length) return { ok: true, packages: [...list] };
  return { ok: true, packages: list.filter((_, i) => i !== index) };
}

/**
 * The parcel split into `count` boxes: `count` empty packages, each weighed in turn. No weight is
 * guessed by dividing the old one: the boxes rarely weigh the same, and a guessed weight sent to
 * the carrier is a wrong one.
 */
export function splitInto(count: number): Edit {
  if (!Number.isInteger(count) || count < 2 || count > MAX_DESK_PACKAGES) return { ok: false, rule: 'split_count' };
  return { ok: true, packages: Array.from({ length: count }, emptyPackage) };
}

/** A weight as typed ("2,5", "2.5", " 12 "): kg above zero with at most grams; null when it is not one. */
export function readWeight(typed: string): Decimal | null {
  const d = toDecimal(typed.trim());
  if (d === null || compareDecimals(d, '0') <= 0) return null;
  const frac = d.split('.')[1] ?? '';
  return frac.replace(/0+$/, '').length > WEIGHT_PLACES ? null : d;
}

export function setWeight(list: readonly DeskPackage[], index: number, typed: string): Edit {
  const weight = readWeight(typed);
  if (weight === null) return { ok: false, rule: 'weight_invalid' };
  return { ok: true, packages: list.map((p, i) => (i === index ? { ...p, weight } : p)) };
}

/** A side as typed: whole cm from 1; an empty field clears it. */
export function setSide(list: readonly DeskPackage[], index: number, side: Side, typed: string): Edit {
  const t = typed.trim();
  const cm = t === '' ? null : /^\d+$/.test(t) ? Number(t) : NaN;
  if (cm !== null && (!Number.isSafeInteger(cm) || cm < 1 || cm > MAX_SIDE_CM))
    return { ok: false, rule: 'side_invalid' };
  return { ok: true, packages: list.map((p, i) => (i === index ? { ...p, [side]: cm } : p)) };
}

export interface PackageProblem {
  /** Zero-based; the page names it "package n + 1". */
  index: number;
  rule: PackageRule;
}

/**
 * What keeps the list from going to the service: a package without a weight, a weight that is no
 * weight, sides that are no whole cm, or (where the carrier requires them) a package without all
 * three sides. Empty: it can be sent.
 */
export function problemsOf(list: readonly DeskPackage[], dimensionsRequired: boolean): PackageProblem[] {
  if (list.length === 0) return [{ index: 0, rule: 'last_package' }];
  if (list.length > MAX_DESK_PACKAGES) return [{ index: MAX_DESK_PACKAGES, rule: 'too_many' }];
  const out: PackageProblem[] = [];
  list.forEach((p, index) => {
    if (p.weight === null) out.push({ index, rule: 'weight_missing' });
    // A list holds weights as read (a point, no comma): what setWeight and the scale give.
    else if (!DECIMAL_PATTERN.test(p.weight) || readWeight(p.weight) === null)
      out.push({ index, rule: 'weight_invalid' });
    const sides = SIDES.map((s) => p[s]);
    if (sides.some((cm) => cm !== null && (!Number.isSafeInteger(cm) || cm < 1 || cm > MAX_SIDE_CM)))
      out.push({ index, rule: 'side_invalid' });
    else if (dimensionsRequired && sides.some((cm) => cm === null)) out.push({ index, rule: 'sides_missing' });
  });
  return out;
}
