import { describe, expect, test } from 'vitest';
import { advanceDelivery, closeDeliveries, trackingOf } from '../../domain';
import type { StoredDelivery } from '../../domain';
import { NOW, item, places, stored } from './fixtures';

const address = item().recipient as Record<string, unknown>;
const at = (iso: string) => new Date(iso);

function closed(over: Record<string, unknown> = {}): StoredDelivery {
  const r = closeDeliveries([stored(over)], { now: NOW, places, nextCarrierNumber: () => '1' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.closed[0]!;
}
const locker = (surname: string) => ({
  agent: 'BOX',
  deliveryType: 'BOX-LOCKER',
  packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
  recipient: { type: 'pickUpPlace', pickUpPlace: 'BOX-1234', surname, phone: '603456789' },
});

describe('spec "Trace item": lastChecked and traces', () => {
  test('lastChecked is null before the first check and traces are empty before sending', () => {
    const d = closed(); // closed Thursday 2 May 2024 10:00 Prague
    expect(trackingOf(d, at('2024-05-02T08:30:00Z'))).toEqual({
      state: 1,
      stateName: 'Neodeslaná',
      lastChecked: null,
      traces: [],
    });
    const beforePickUp = trackingOf(d, at('2024-05-03T11:59:00Z'));
    expect(beforePickUp.lastChecked).toBe('2024-05-03T13:00:00+02:00');
    expect(beforePickUp.traces).toEqual([]);
  });
  test('an unclosed shipment has no tracking', () => {
    expect(trackingOf(stored(), at('2030-01-01T00:00:00Z'))).toMatchObject({ state: 0, lastChecked: null, traces: [] });
  });
});

describe('sandbox state progression after closing (spec: "not shown")', () => {
  test('closed (1) -> sent (2) when the carrier picks up on the next working day at 14:00', () => {
    const t = trackingOf(closed(), at('2024-05-03T12:30:00Z'));
    expect(t).toEqual({
      state: 2,
      stateName: 'Odeslaná',
      lastChecked: '2024-05-03T14:00:00+02:00',
      traces: [{ date: '2024-05-03T14:00:00+02:00', text: 'Parcel picked up by National Post' }],
    });
  });
  test('-> delivered (3) at an address on the day after the transit days, 10:00; checks then stop', () => {
    const t = trackingOf(closed(), at('2024-06-01T00:00:00Z'));
    expect(t.state).toBe(3);
    expect(t.stateName).toBe('Doručená');
    expect(t.lastChecked).toBe('2024-05-06T10:00:00+02:00');
    expect(t.traces.map((x) => x.text)).toEqual([
      'Parcel picked up by National Post',
      'Parcel at the sorting centre',
      'Parcel delivered',
    ]);
  });
  test('-> delivered (5) when collected at a pick-up point', () => {
    const d = closed(locker('Benešová'));
    expect(trackingOf(d, at('2024-05-06T07:00:00Z')).state).toBe(2); // ready at the point since 08:00
    expect(trackingOf(d, at('2024-05-06T15:00:00Z'))).toMatchObject({
      state: 5,
      stateName: 'Doručená',
      lastChecked: '2024-05-06T16:00:00+02:00',
    });
  });
  test('magic surname RETURN: returned (4) from an address the working day after the failed delivery', () => {
    const d = closed({ recipient: { ...address, surname: 'RETURN' } });
    expect(trackingOf(d, at('2024-05-06T09:00:00Z')).state).toBe(2);
    const t = trackingOf(d, at('2024-06-01T00:00:00Z'));
    expect(t).toMatchObject({ state: 4, stateName: 'Vrácená', lastChecked: '2024-05-07T10:00:00+02:00' });
    expect(t.traces.at(-1)).toEqual({ date: '2024-05-07T10:00:00+02:00', text: 'Parcel returned to the sender' });
  });
  test('magic surname RETURN: returned (6) from a pick-up point after the storage period', () => {
    const t = trackingOf(closed(locker('RETURN')), at('2024-06-01T00:00:00Z'));
    // Ready Mon 6 May; 4th working day after (8 May is a holiday) is Mon 13 May.
    expect(t).toMatchObject({ state: 6, stateName: 'Vrácená', lastChecked: '2024-05-13T10:00:00+02:00' });
  });
  test('trace texts come in Czech when asked', () => {
    expect(trackingOf(closed(), at('2024-06-01T00:00:00Z'), 'cs').traces.at(-1)!.text).toBe('Zásilka doručena');
  });
  test('advanceDelivery moves the stored state along the clock and bumps the version', () => {
    const d = closed();
    expect(advanceDelivery(d, at('2024-05-02T09:00:00Z'))).toBe(d);
    const moved = advanceDelivery(d, at('2024-06-01T00:00:00Z'));
    expect([moved.deliveryState, moved.deliveryStateName, moved.version]).toEqual([3, 'Doručená', d.version + 1]);
  });
});
