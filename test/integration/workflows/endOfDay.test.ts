/**
 * End of day against a real sandbox: the carrier + collection place pairs with closed, unsent
 * shipments and no protocol (spec "States and transitions" rule 3), from the cache refreshed from
 * the service (including shipments another station closed), and the pick-up orders the closes
 * returned (spec "PATCH /api/v3/deliveries": `data.collectionOrders`). Creating and printing the
 * protocol itself: endOfDayProtocol.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { withDemoRig, type Rig } from './workflowRig';

let sb: Sandbox;
let rig: Rig;
withDemoRig((r) => ({ sb, rig } = r));

describe('end of day', () => {
  it('lists each carrier + collection place with closed, unsent shipments, also those closed elsewhere, and the pick-up orders', async () => {
    const [np1, np2, ppr, fromAddress] = await rig.session.client.insertDeliveries([
      shipment(),
      shipment(),
      shipment({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      }),
      shipment({
        sender: { ...shipment().recipient, type: 'address' },
        recipient: { ...shipment().recipient, surname: 'Dvořák' },
      }),
    ]);
    for (const d of [np1!, ppr!, fromAddress!])
      expect((await rig.workflows.scanToClose.scan(d.externalId!)).kind).toBe('printed');
    // Closed by someone else: this station has never seen it.
    await rig.session.client.closeDeliveries([
      { deliveryId: np2!.deliveryId, agent: 'NP', sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } },
    ]);
    expect(rig.deps.repos.shipments.get(rig.session.accountId, np2!.deliveryId)).toBeNull();

    const { candidates, fromAddress: sentFromAddress, refreshError } = await rig.workflows.endOfDay.candidates();
    expect(refreshError).toBeNull();
    const pairs = new Map(candidates.map((c) => [`${c.carrier}@${c.collectionPlace}`, c.deliveryIds]));
    expect(pairs.get('NP@WH-PRAHA')).toEqual(expect.arrayContaining([np1!.deliveryId, np2!.deliveryId]));
    expect(pairs.get('PPR@WH-BRNO')).toEqual([ppr!.deliveryId]);
    // A shipment sent from an address has no collection place, so no protocol.
    expect(candidates.flatMap((c) => c.deliveryIds)).not.toContain(fromAddress!.deliveryId);
    // …and is listed apart, under its carrier, instead of on no list at all.
    expect(sentFromAddress).toEqual([{ carrier: 'NP', deliveryIds: [fromAddress!.deliveryId] }]);

    const orders = rig.workflows.endOfDay.pickupOrders();
    const np = orders.find((o) => o.carrier === 'NP' && o.collectionPlace === 'WH-PRAHA');
    expect(np?.scheduled).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(np?.deliveryIds).toContain(np1!.deliveryId);
    expect(orders.find((o) => o.carrier === 'PPR' && o.collectionPlace === 'WH-BRNO')?.deliveryIds).toContain(
      ppr!.deliveryId,
    );
  });

  it('with the service unreachable the list comes from the cache and says why it may be out of date', async () => {
    await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/api/v3/deliveries', reset: true }),
    });
    try {
      const { candidates, refreshError } = await rig.workflows.endOfDay.candidates();
      expect(refreshError?.code).toBe('service_network');
      expect(candidates.some((c) => c.carrier === 'NP' && c.collectionPlace === 'WH-PRAHA')).toBe(true);
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});
