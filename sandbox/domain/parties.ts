/**
 * Spec "Party type rules" 4-5: which extra services the combination of party types implies.
 *
 * A party's *effective* kind: a collection place counts as a collection place only when it has a
 * collection type filled in for the carrier; otherwise it behaves like an ordinary address.
 * - sender collection place -> recipient address or pick-up place: ordinary collection shipment (nothing implied);
 * - sender address -> recipient address: `direct_delivery`;
 * - sender address -> recipient pick-up place: `direct_delivery` (sandbox choice: the parcel does not
 *   start at a collection place, so it is a direct shipment like address -> address);
 * - sender address -> recipient collection place: `back_delivery`;
 * - collection place -> collection place: nothing implied (a transfer inside the network; sandbox choice);
 * - carriers that do not distinguish collection shipments: nothing, ever.
 */
import { carrierOf } from './catalogue';
import type { CollectionPlaceRecord, PartyKind, StoredParty } from './types';

export function placeOf(places: CollectionPlaceRecord[], id: string | null): CollectionPlaceRecord | undefined {
  return id === null ? undefined : places.find((p) => p.identificator === id);
}

/** True when the place has a collection type for the carrier (rule 5). */
export function hasCollectionType(places: CollectionPlaceRecord[], id: string | null, agent: string): boolean {
  const types = placeOf(places, id)?.collectionTypes;
  // Own properties only: `agent` is a carrier code, never an Object.prototype member.
  const type = types && Object.hasOwn(types, agent) ? types[agent] : undefined;
  return typeof type === 'string' && type !== '';
}

export function effectiveKind(
  party: Pick<StoredParty, 'type' | 'collectionPlace'>,
  agent: string,
  places: CollectionPlaceRecord[],
): PartyKind {
  if (party.type !== 'collectionPlace') return party.type;
  return hasCollectionType(places, party.collectionPlace, agent) ? 'collectionPlace' : 'address';
}

export function impliedServices(
  agent: string,
  sender: Pick<StoredParty, 'type' | 'collectionPlace'>,
  recipient: Pick<StoredParty, 'type' | 'collectionPlace'>,
  places: CollectionPlaceRecord[],
): Array<'direct_delivery' | 'back_delivery'> {
  const carrier = carrierOf(agent);
  if (!carrier || !carrier.distinguishesCollection) return [];
  const from = effectiveKind(sender, agent, places);
  const to = effectiveKind(recipient, agent, places);
  if (from !== 'address') return [];
  return to === 'collectionPlace' ? ['back_delivery'] : ['direct_delivery'];
}
