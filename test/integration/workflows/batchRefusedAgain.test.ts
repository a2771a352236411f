/**
 * A shipment the carrier refused stays in the batch to be closed again: the next
 * close names it in its summary, also when the station forgot its cache meanwhile (Reset demo data),
 * and the summary line gives the carrier's own reasons, not the close's headline joined to them.
 */
import { describe, expect, it } from 'vitest';
import { createAccountCacheRepo } from '../../../electron/store/accountCacheRepo';
import { shipment } from '../api/support';
import { withDemoRig, type Rig } from './workflowRig';

let rig: Rig;
withDemoRig((r) => ({ rig } = r));

describe('a refused shipment left in the batch', () => {
  it('is in the next summary, refused again with its carrier reason, after the cache was forgotten', async () => {
    const recipient = shipment().recipient;
    const [refused, first, second] = await rig.session.client.insertDeliveries([
      shipment({ recipient: { ...recipient, surname: 'REJECT' } }),
      shipment(),
      shipment(),
    ]);
    const batch = rig.workflows.batchClose;
    await batch.collect(refused!.externalId!);
    await batch.collect(first!.externalId!);
    const one = await batch.closeAll();
    const line = one.shipments.find((s) => s.deliveryId === refused!.deliveryId)!;
    expect(line.outcome).toBe('refused');
    // The shipment's own reason, as one item of a list: no " | " and no headline about "the shipments".
    expect(line.error!.messages).toEqual([
      'National Post: the recipient was refused by the carrier (blocked addressee).',
    ]);
    expect(batch.items().map((i) => [i.code, i.status])).toEqual([[refused!.externalId, 'refused']]);

    // The station forgets what it cached of the company (Settings → Reset demo data does so).
    createAccountCacheRepo(rig.db).forget(rig.session.accountId);
    await batch.collect(second!.externalId!);
    const two = await batch.closeAll();
    const byCode = new Map(two.shipments.map((s) => [s.code, s.outcome]));
    expect(byCode.get(second!.externalId!)).toBe('printed');
    expect(byCode.get(refused!.externalId!)).toBe('refused');
    expect(two.failed).toBe(1);
  });
});
