/**
 * Refreshes the cached collection places of an account (spec "GET /api/v2/collection-places":
 * active places only). Places no longer listed stay cached as inactive. The client's schema
 * (electron/api/schemas.ts) refuses a malformed answer as a whole, so the cached list is never
 * half replaced.
 */
import type { CollectionPlace as ServicePlace } from '../api/index';
import type { CollectionPlace, CollectionPlacesRepo } from '../store/collectionPlacesRepo';
import { toSourceError, type ShipmentSource, type SourceError } from './shipmentSource';

/** '' from the service means "not given". */
const given = (v: string | null): string | null => (v === '' ? null : v);

function placeFromService(p: ServicePlace): CollectionPlace {
  return {
    identificator: p.identificator,
    name: given(p.name),
    email: given(p.email),
    phone: given(p.phone),
    contactPerson: given(p.contactPerson),
    state: given(p.state),
    city: given(p.city),
    street: given(p.street),
    postalCode: given(p.postalCode),
  };
}

export async function syncCollectionPlaces(deps: {
  accountId: string;
  source: ShipmentSource;
  places: CollectionPlacesRepo;
  now: () => Date;
}): Promise<{ ok: true; count: number } | { ok: false; error: SourceError }> {
  let found: ServicePlace[];
  try {
    found = await deps.source.collectionPlaces();
  } catch (err) {
    return { ok: false, error: toSourceError(err) };
  }
  const places = found.map(placeFromService);
  deps.places.replaceActive(deps.accountId, places, deps.now());
  return { ok: true, count: places.length };
}
