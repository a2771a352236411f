/**
 * Price arithmetic of a transport option, exact (spec "Transport option"):
 *   final price = price.total + prices of all implicit extra services,
 * and what the worker pays with the services they chose on top. Amounts are decimal strings
 * ("115.88"); sums are done in integer minor units by shared/decimal.ts, so 0.1 + 0.2 is 0.3 and nothing drifts.
 * Plain functions over plain data: the core marks options with them, the form shows them.
 */

import { addDecimals, toMinor } from '../decimal';

export interface PricedService {
  code: string;
  implicit: boolean;
  price: { total: string; currency: string } | null;
}
export interface PricedTransport {
  price: { total: string; currency: string } | null;
  extraServices: readonly PricedService[];
}

/**
 * Spec "Transport option": total + every implicit service's price. null for an unpaid transport.
 * A service priced in another currency than the transport cannot be added exactly: null too.
 */
export function finalPrice(t: PricedTransport): { total: string; currency: string } | null {
  if (!t.price) return null;
  const implicit = t.extraServices.filter((s) => s.implicit && s.price);
  if (implicit.some((s) => s.price!.currency !== t.price!.currency)) return null;
  return { total: addDecimals([t.price.total, ...implicit.map((s) => s.price!.total)]), currency: t.price.currency };
}

/** The final price plus the services the worker chose (implicit ones are already in the final price). */
export function priceWithChoices(
  t: PricedTransport,
  chosen: readonly string[],
): { total: string; currency: string } | null {
  const final = finalPrice(t);
  if (!final) return null;
  const extra = t.extraServices.filter((s) => !s.implicit && chosen.includes(s.code) && s.price);
  if (extra.some((s) => s.price!.currency !== final.currency)) return null;
  return { total: addDecimals([final.total, ...extra.map((s) => s.price!.total)]), currency: final.currency };
}

export interface TimedTransport {
  deliveryTime: { minDeliveryTo: string | null; maxDeliveryTo: string | null };
}

/**
 * Indexes of the cheapest options (lowest final price; only priced ones, in the most common
 * currency so amounts compare exactly) and of the fastest (earliest end of the earliest delivery
 * interval, then of the latest). Ties are all marked.
 */
export function markBest<T extends PricedTransport & TimedTransport>(
  options: readonly T[],
): { cheapest: Set<number>; fastest: Set<number> } {
  const finals = options.map(finalPrice);
  const counts = new Map<string, number>();
  for (const f of finals) if (f) counts.set(f.currency, (counts.get(f.currency) ?? 0) + 1);
  const currency = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  let low: bigint | null = null;
  finals.forEach((f) => {
    if (!f || f.currency !== currency) return;
    const m = toMinor(f.total)!;
    if (low === null || m < low) low = m;
  });
  const cheapest = new Set<number>();
  finals.forEach((f, i) => {
    if (f && f.currency === currency && toMinor(f.total) === low) cheapest.add(i);
  });

  const at = (s: string | null) => (s ? Date.parse(s) : Number.POSITIVE_INFINITY);
  const keyOf = (o: T) => [at(o.deliveryTime.minDeliveryTo), at(o.deliveryTime.maxDeliveryTo)] as const;
  let best: readonly [number, number] | null = null;
  for (const o of options) {
    const k = keyOf(o);
    if (!Number.isFinite(k[0])) continue;
    if (!best || k[0] < best[0] || (k[0] === best[0] && k[1] < best[1])) best = k;
  }
  const fastest = new Set<number>();
  options.forEach((o, i) => {
    const k = keyOf(o);
    if (best && k[0] === best[0] && k[1] === best[1]) fastest.add(i);
  });
  return { cheapest, fastest };
}
