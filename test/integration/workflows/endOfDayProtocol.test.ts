/**
 * End of day against a real sandbox: the carrier + collection place pairs with closed, unsent
 * shipments, the collection protocol created, stored and printed (spec "POST
 * /api/v2/collection-protocols"), its history and reprint, and the pick-up orders closes returned.
 */
import { describe, expect, it } from 'vitest';
import { StationError } from '../../../electron/base/stationError';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { withDemoRig, type Rig } from './workflowRig';

let rig: Rig;
withDemoRig((r) => ({ rig } = r));

describe('end of day', () => {
  it('lists the pair, creates and prints its collection protocol, keeps it for reprint, and shows the pick-up order', async () => {
    const ds = await rig.session.client.insertDeliveries([shipment(), shipment()]);
    for (const d of ds) expect((await rig.workflows.scanToClose.scan(d.externalId!)).kind).toBe('printed');
    const ids = ds.map((d) => d.deliveryId).sort((a, b) => a - b);

    const before = await rig.workflows.endOfDay.candidates();
    expect(before.refreshError).toBeNull();
    const pair = before.candidates.find((c) => c.carrier === 'NP' && c.collectionPlace === 'WH-PRAHA');
    expect(pair?.deliveryIds).toEqual(expect.arrayContaining(ids));

    const { protocol, jobId } = await rig.workflows.endOfDay.createProtocol({
      carrier: 'NP',
      collectionPlace: 'WH-PRAHA',
    });
    expect(protocol.deliveryIds).toEqual(expect.arrayContaining(ids));
    expect(jobId).not.toBeNull();
    await waitFor(() => rig.queue.get(jobId!).state === 'done');
    expect(rig.office.received()).toHaveLength(1);

    const after = await rig.workflows.endOfDay.candidates();
    expect(after.candidates.flatMap((c) => c.deliveryIds)).not.toEqual(expect.arrayContaining([ids[0]]));

    // Nothing left for the pair: the service's reason, not a crash.
    const again = await rig.workflows.endOfDay
      .createProtocol({ carrier: 'NP', collectionPlace: 'WH-PRAHA' })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(StationError);
    expect((again as StationError).code).toBe('protocol_refused');
    expect((again as StationError).message).toContain('no closed, unsent shipments');

    expect(rig.workflows.endOfDay.protocols().map((p) => p.collectionProtocolId)).toContain(
      protocol.collectionProtocolId,
    );
    const reprint = await rig.workflows.endOfDay.reprintProtocol(protocol.collectionProtocolId);
    await waitFor(() => rig.queue.get(reprint.jobId!).state === 'done');
    expect(rig.office.received()).toHaveLength(2);

    const orders = rig.workflows.endOfDay.pickupOrders();
    const order = orders.find((o) => o.carrier === 'NP' && o.collectionPlace === 'WH-PRAHA');
    expect(order?.scheduled).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(order?.deliveryIds).toEqual(expect.arrayContaining(ids));
  });
});
