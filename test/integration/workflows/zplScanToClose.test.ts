/**
 * ZPL carriers: the virtual label printer (a real TCP listener answering ~HS) receives exactly one
 * ZPL label per package, with the package barcodes the service returned; printer down -> queued ->
 * printed exactly once when it is back.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { renderZplPngs } from '../../../electron/printing/zplRender';
import { shipment } from '../api/support';
import { decodeBarcodes, waitFor } from '../printing/printingTestKit';
import { needs } from '../../support/services';
import { clearPrinted, withDemoRig, type Rig } from './workflowRig';

let rig: Rig;
withDemoRig((r) => ({ rig } = r));

async function insert(over: Partial<DeliveryInput> = {}) {
  const [d] = await rig.session.client.insertDeliveries([shipment(over)]);
  return d!;
}

const labelsFor = (labels: { zpl: string }[], barcodes: (string | null)[]) =>
  labels.map((l) => barcodes.find((b) => b && l.zpl.includes(b)) ?? null);

describe('scan-to-close with a ZPL carrier (spec "GET /api/v3/deliveries/zpl")', () => {
  it("the virtual label printer receives exactly one ZPL label per package, with the service's package barcodes", async () => {
    const d = await insert({ packages: [{ weight: '1.2' }, { weight: '3,5' }] });
    clearPrinted(rig);
    const outcome = await rig.workflows.scanToClose.scan(d.externalId!);
    expect(outcome.kind).toBe('printed');
    const [closed] = await rig.session.client.getDeliveriesByIds([d.deliveryId]);
    const expected = closed!.packages.map((p) => p.barcode);
    expect(rig.printer.printed()).toHaveLength(2);
    expect(labelsFor(rig.printer.printed(), expected)).toEqual(expected);
    expect(rig.office.received()).toHaveLength(0);
  });

  it.skipIf(!needs('zbarimg'))(
    'the printed label, rendered as the printer would, decodes to the package barcode',
    async () => {
      const d = await insert();
      clearPrinted(rig);
      expect((await rig.workflows.scanToClose.scan(d.externalId!)).kind).toBe('printed');
      const [label] = rig.printer.printed();
      const [png] = await renderZplPngs(label!.zpl, 100, 170, 12);
      const [closed] = await rig.session.client.getDeliveriesByIds([d.deliveryId]);
      expect(await decodeBarcodes(Buffer.from(png!, 'base64'))).toContain(closed!.packages[0]!.barcode);
    },
  );

  it('printer down: the scan closes, its job waits in the queue, and prints exactly once when the printer is back', async () => {
    const d = await insert({ packages: [{ weight: '1' }, { weight: '2' }] });
    clearPrinted(rig);
    await rig.printer.offline();
    const outcome = await rig.workflows.scanToClose.scan(d.externalId!);
    expect(outcome.kind).toBe('printer_down');
    if (outcome.kind !== 'printer_down') return;
    expect(rig.queue.get(outcome.jobIds[0]!)).toMatchObject({ state: 'failed' });
    expect(rig.queue.get(outcome.jobIds[0]!).nextRetryAt).not.toBeNull();
    expect(rig.deps.repos.scanLog.get(outcome.scanId)!.outcome).toBe('queued');

    await rig.printer.online();
    await waitFor(() => rig.queue.get(outcome.jobIds[0]!).state === 'done');
    // The day's log follows the label: printed once it came out.
    await waitFor(() => rig.deps.repos.scanLog.get(outcome.scanId)!.outcome === 'printed');
    const [closed] = await rig.session.client.getDeliveriesByIds([d.deliveryId]);
    const expected = closed!.packages.map((p) => p.barcode);
    expect(labelsFor(rig.printer.printed(), expected)).toEqual(expected);
  });
});
