/** Shared builders for the domain tests: a valid insert item and stored shipments from it. */
import { createDelivery, demoPlaces, validateDeliveries } from '../../domain';
import type { CollectionPlaceRecord, DeliveryInput, StoredDelivery } from '../../domain';

export const places: CollectionPlaceRecord[] = demoPlaces();
export const NOW = new Date('2024-05-02T08:00:00Z'); // Thursday 10:00 in Prague

export function item(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    value: 1500,
    valueCurrency: 'CZK',
    packages: [{ weight: 2.3 }],
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      firstname: 'Jana',
      surname: 'Nováková',
      email: 'jana@example.cz',
      phone: '+420 601 234 567',
      address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
    },
    ...over,
  };
}

export function valid(items: unknown[], mode: 'insert' | 'edit' = 'insert'): DeliveryInput[] {
  const r = validateDeliveries(items, { places, mode });
  if (!r.ok) throw new Error(`expected valid, got ${JSON.stringify(r.errors)}`);
  return r.value;
}

export function stored(over: Record<string, unknown> = {}, deliveryId = 1, now = NOW): StoredDelivery {
  return createDelivery(valid([item(over)])[0]!, { deliveryId, now });
}

export function errorsOf(items: unknown[], mode: 'insert' | 'edit' = 'insert') {
  const r = validateDeliveries(items, { places, mode });
  if (r.ok) throw new Error('expected validation errors');
  return r.errors;
}
