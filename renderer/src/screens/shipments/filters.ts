/** The filter bar's values and how they become a cache query (pure: no page, no RPC). */
import { shipmentStateFamilies, type ShipmentQuery } from '../../../../shared/contract/shipments';
import type { MessageKey } from '../../i18n/en';

export type ListFilters = Omit<ShipmentQuery, 'offset' | 'limit'>;

/** State filter choices: the spec's ids grouped as a worker thinks of them (3/5 and 4/6 share a name). */
export const stateGroups: { id: string; label: MessageKey; states: number[] }[] = Object.entries(
  shipmentStateFamilies,
).map(([id, states]) => ({
  id,
  label: `shipments.group.${id as keyof typeof shipmentStateFamilies}`,
  states: [...states],
}));

export interface FilterValues {
  state: string;
  carrier: string;
  place: string;
  from: string;
  to: string;
  text: string;
}
export const noFilters: FilterValues = { state: '', carrier: '', place: '', from: '', to: '', text: '' };

export function toQuery(f: FilterValues): ListFilters {
  const q: ListFilters = {};
  const group = stateGroups.find((g) => g.id === f.state);
  if (group) q.states = group.states;
  if (f.carrier) q.agents = [f.carrier];
  if (f.place) q.collectionPlaces = [f.place];
  if (f.from) q.createdFrom = f.from;
  if (f.to) q.createdTo = f.to;
  if (f.text.trim()) q.text = f.text.trim().slice(0, 200);
  return q;
}
