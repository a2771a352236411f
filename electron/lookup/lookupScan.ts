/**
 * Resolves a scanned code to one shipment of the active account.
 *
 * Order (documented for the UI and support):
 * 1. The local cache, by every key at once, each one index probe: package barcode, carrier
 *    number (deliveryNumber), externalId, and deliveryId when the code is all digits. The first
 *    key in that order that matched a shipment is reported as `matchedBy`.
 * 2. When the cache has no match: the service, searched by externalId, deliveryNumber and (for an
 *    all-digit code) deliveryId, in parallel (spec "GET /api/v3/deliveries": enumeration filters).
 *    The service cannot search by package barcode (no such filter in the spec): a package barcode
 *    of a shipment the retention removed from the cache is still known locally with its
 *    deliveryId (electron/store/retentionRepo.ts), and that shipment is fetched by id along. What
 *    the service returns is stored in the cache and resolved by the same rule as step 1.
 *
 * 1b. Still nothing and the code has letters: the cache again with the letters' case swapped (a
 *    keyboard-wedge scanner types inverted case while Caps Lock is on). Never at the service.
 *
 * Several shipments matching is `ambiguous` (the worker picks), except that when all but one of
 * them are cancelled the live one wins: a cancelled shipment re-inserted under the same externalId
 * is the common case. Closing the wrong parcel is worse than asking.
 *
 * With `refresh`, a shipment found in the cache is fetched again from the service (a second desk
 * may have closed it); if the service cannot be reached the cached record is returned.
 */
import type { LookupResult, MatchedBy, Shipment } from '../../shared/contract/shipments';
import { shipmentStates } from '../../shared/contract/shipments';
import type { Delivery } from '../api/index';
import type { ShipmentsRepo } from '../store/shipmentsRepo';
import { recordDeliveries } from '../sync/updateCache';
import { toSourceError, type SearchKey, type ShipmentSource, type SourceError } from '../sync/shipmentSource';
import { normaliseScan, type ScannerAffixes } from '../../shared/scan/normaliseScan';

export interface LookupDeps {
  accountId: string;
  shipments: ShipmentsRepo;
  /** Null when the service cannot be used (logged out): only the cache answers. */
  source: ShipmentSource | null;
  now: () => Date;
  affixes?: ScannerAffixes;
  onChanged?: (accountId: string, deliveryIds: number[]) => void;
}

type Candidate = { shipment: Shipment; matchedBy: MatchedBy };

const MAX_DELIVERY_ID = Number.MAX_SAFE_INTEGER;

function asDeliveryId(code: string): number | null {
  if (!/^\d{1,15}$/.test(code)) return null;
  const n = Number(code);
  return n > 0 && n <= MAX_DELIVERY_ID ? n : null;
}

/** "pkg42-1" <-> "PKG42-1": what Caps Lock does to a wedge scanner's keystrokes. */
function swapCase(s: string): string {
  return s.replace(/\p{L}/gu, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
}

function fromCache(deps: Pick<LookupDeps, 'accountId' | 'shipments'>, code: string): Candidate[] {
  const { shipments, accountId } = deps;
  const found: Candidate[] = [];
  const seen = new Set<number>();
  const add = (list: Shipment[], matchedBy: MatchedBy) => {
    for (const s of list) {
      if (seen.has(s.deliveryId)) continue;
      seen.add(s.deliveryId);
      found.push({ shipment: s, matchedBy });
    }
  };
  add(shipments.findByPackageBarcode(accountId, code), 'packageBarcode');
  add(shipments.findByDeliveryNumber(accountId, code), 'deliveryNumber');
  add(shipments.findByExternalId(accountId, code), 'externalId');
  const id = asDeliveryId(code);
  if (id !== null) {
    const s = shipments.get(accountId, id);
    if (s) add([s], 'deliveryId');
  }
  return found;
}

function resolve(code: string, candidates: Candidate[], source: 'cache' | 'service'): LookupResult | null {
  if (candidates.length === 0) return null;
  const live = candidates.filter((c) => c.shipment.state !== shipmentStates.cancelled);
  const pick = candidates.length === 1 ? candidates[0] : live.length === 1 ? live[0] : undefined;
  if (pick) return { kind: 'found', code, shipment: pick.shipment, matchedBy: pick.matchedBy, source };
  return { kind: 'ambiguous', code, candidates };
}

/** Asks the service by every searchable key; stores what it finds. Returns the first error when nothing could be checked fully. */
async function fromService(
  deps: LookupDeps,
  source: ShipmentSource,
  code: string,
): Promise<{ error: SourceError | null }> {
  const keys: SearchKey[] = ['externalId', 'deliveryNumber'];
  if (asDeliveryId(code) !== null) keys.push('deliveryId');
  const pruned = deps.shipments.prunedByPackageBarcode(deps.accountId, code);
  const answers = await Promise.allSettled([
    ...keys.map((k) => source.findBy(k, code)),
    ...(pruned.length ? [source.getMany(pruned)] : []),
  ]);
  const raws: Delivery[] = [];
  let error: SourceError | null = null;
  for (const a of answers) {
    if (a.status === 'fulfilled') raws.push(...a.value);
    else error ??= toSourceError(a.reason);
  }
  if (raws.length) recordDeliveries(deps, deps.accountId, raws);
  return { error };
}

/**
 * Steps 1 and 1b alone, without waiting for anything: the cache's answer (or `invalid`), null when
 * the cache has no match. The scan line uses it to resolve a scan in the commit that receives it.
 */
export function lookupInCache(
  deps: Pick<LookupDeps, 'accountId' | 'shipments' | 'affixes'>,
  rawCode: string,
): LookupResult | null {
  const scan = normaliseScan(rawCode, deps.affixes);
  if (!scan.ok) return { kind: 'invalid', code: rawCode, message: scan.message };
  return cachedAnswer(deps, scan.code);
}

function cachedAnswer(deps: Pick<LookupDeps, 'accountId' | 'shipments'>, code: string): LookupResult | null {
  const cached = resolve(code, fromCache(deps, code), 'cache');
  const swapped = swapCase(code);
  return cached ?? (swapped !== code ? resolve(code, fromCache(deps, swapped), 'cache') : null);
}

export async function lookupScan(
  deps: LookupDeps,
  rawCode: string,
  opts: { refresh?: boolean } = {},
): Promise<LookupResult> {
  const scan = normaliseScan(rawCode, deps.affixes);
  if (!scan.ok) return { kind: 'invalid', code: rawCode, message: scan.message };
  const { code } = scan;
  const cached = cachedAnswer(deps, code);
  if (cached) {
    if (!opts.refresh || !deps.source || cached.kind !== 'found') return cached;
    try {
      recordDeliveries(deps, deps.accountId, await deps.source.getMany([cached.shipment.deliveryId]));
      const fresh = deps.shipments.get(deps.accountId, cached.shipment.deliveryId);
      return fresh ? { ...cached, shipment: fresh, source: 'service' } : cached;
    } catch {
      return cached;
    }
  }

  if (!deps.source) return { kind: 'not_found', code, serviceChecked: false, serviceError: null };
  const { error } = await fromService(deps, deps.source, code);
  const found = resolve(code, fromCache(deps, code), 'service');
  if (found) return found;
  return { kind: 'not_found', code, serviceChecked: error === null, serviceError: error };
}
