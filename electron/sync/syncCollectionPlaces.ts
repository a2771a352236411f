/**
 * Refreshes the cached collection places of an account (spec "GET /api/v2/collection-places":
 * active places only). Places no longer listed stay cached as inactive. A malformed record
 * refuses the whole answer, so the cached list is never half replaced.
 */
import type { CollectionPlace, CollectionPlacesRepo } from '../store/collectionPlacesRepo';
import { toSourceError, type ShipmentSource, type SourceError } from './shipmentSource';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export function placeFromRecord(raw: unknown): CollectionPlace | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const identificator = text(r.identificator);
  if (!identificator) return null;
  return {
    identificator,
    name: text(r.name),
    email: text(r.email),
    phone: text(r.phone),
    contactPerson: text(r.contactPerson),
    state: text(r.state),
    city: text(r.city),
    street: text(r.street),
    postalCode: text(r.postalCode),
  };
}

export async function syncCollectionPlaces(
  deps: { accountId: string; source: ShipmentSource; places: CollectionPlacesRepo; now: () => Date },
): Promise<{ ok: true; count: number } | { ok: false; error: SourceError }> {
  let raws: unknown[];
  try {
    raws = await deps.source.collectionPlaces();
  } catch (err) {
    return { ok: false, error: toSourceError(err) };
  }
  const places: CollectionPlace[] = [];
  for (const raw of raws) {
    const p = placeFromRecord(raw);
    if (!p) return { ok: false, error: { code: 'malformed_response', message: 'The service sent a collection place without an identificator.' } };
    places.push(p);
  }
  deps.places.replaceActive(deps.accountId, places, deps.now());
  return { ok: true, count: places.length };
}
