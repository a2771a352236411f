/** A shipment state reaches the worker by its name (spec "States and transitions"), in both languages. */
import { describe, expect, it } from 'vitest';
import { cs, en, type MessageKey } from '../../../renderer/src/i18n/en';
import { isClosedState, shipmentStates, stateFamily } from '../../../shared/contract/shipments';

// What renderer/src/screens/shipments/format.ts does (it imports the page's i18n/index.ts, which needs a DOM).
const stateName = (cat: Record<MessageKey, string>, state: number) => {
  const family = stateFamily(state);
  return family ? cat[`shipments.state.${family}`] : cat['shipments.state.unknown'].replace('{state}', String(state));
};
const stateClass = (state: number) => `st-${stateFamily(state) ?? 'none'}`;

describe('shipment states by name', () => {
  it('names every state of the spec (the Shipments screen, the station’s candidates) in English and Czech; the second delivered and returned ids share the first ones’ names', () => {
    // The wire's numbers (spec "States and transitions"), written out here on purpose: the test checks the enum, not itself.
    const spec: [number, string, string][] = [
      [0, 'Prepared', 'Připravená'],
      [1, 'Closed, not sent', 'Uzavřená, neodeslaná'],
      [2, 'Sent', 'Odeslaná'],
      [3, 'Delivered', 'Doručená'],
      [4, 'Returned', 'Vrácená'],
      [5, 'Delivered', 'Doručená'],
      [6, 'Returned', 'Vrácená'],
      [10, 'Cancelled', 'Zrušená'],
    ];
    expect(spec.map(([n]) => n)).toEqual(Object.values(shipmentStates));
    for (const [n, english, czech] of spec) {
      expect(stateName(en, n)).toBe(english);
      expect(stateName(cs, n)).toBe(czech);
    }
    expect(stateName(cs, 7)).toBe('Stav 7');
  });

  it('gives a returned or cancelled shipment its own look, never that of a good one', () => {
    expect(stateClass(shipmentStates.delivered2)).toBe(stateClass(shipmentStates.delivered));
    expect(stateClass(shipmentStates.returned2)).toBe('st-returned');
    expect(stateClass(shipmentStates.cancelled)).toBe('st-cancelled');
    expect(stateClass(7)).toBe('st-none');
  });

  it('counts 1-6 as closed at the service, prepared and cancelled as not', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 10].filter(isClosedState)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
