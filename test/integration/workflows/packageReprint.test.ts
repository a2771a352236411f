/**
 * One package's label (issue 41, point 2): a lost label of package 2/3 reprints that label alone,
 * from each place a reprint starts (the already-closed question on the Station screen, the
 * shipment's detail, the print queue), against a real sandbox over HTTP and a virtual ZPL printer
 * on TCP that counts the labels it printed. The reason is kept naming the package; a package the
 * parcel has not, or labels that come as one PDF, print nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { createQueueReprint } from '../../../electron/workflows/queueReprint';
import { createShipmentActions } from '../../../electron/workflows/shipmentActions';
import { methods } from '../../../shared/contract';
import type { RoutingRules } from '../../../shared/contract/printing';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { clearPrinted, PDF_PRINTER, printedBarcodes, withDemoRig, type Rig } from './workflowRig';

let rig: Rig;
withDemoRig((r) => ({ rig } = r));

beforeEach(() => clearPrinted(rig));

/** A parcel of three packages, closed and printed by a scan; its package barcodes from the service. */
async function closedParcelOfThree(over: Partial<DeliveryInput> = {}) {
  const [d] = await rig.session.client.insertDeliveries([
    shipment({ packages: [{ weight: '1.2' }, { weight: '3,5' }, { weight: '0.8' }], ...over }),
  ]);
  const first = await rig.workflows.scanToClose.scan(d!.externalId!);
  expect(first.kind).toBe('printed');
  const [closed] = await rig.session.client.getDeliveriesByIds([d!.deliveryId]);
  const barcodes = closed!.packages.map((p) => p.barcode!);
  expect(rig.printer.printed()).toHaveLength(3);
  clearPrinted(rig);
  return { d: d!, barcodes, jobId: 'jobIds' in first ? first.jobIds[0]! : -1 };
}

/** The reprints the desk kept of a shipment, with the package each named. */
const reprintsOf = (deliveryId: number) =>
  rig.db
    .prepare(
      "SELECT job_id AS jobId, reason_code AS reasonCode, note, package_number AS packageNumber FROM desk_actions WHERE action = 'reprint' AND delivery_id = ? ORDER BY id",
    )
    .all(deliveryId) as { jobId: number; reasonCode: string; note: string | null; packageNumber: number | null }[];

const actions = () =>
  createShipmentActions({ deps: rig.deps, printers: () => [], recordCancelled: () => undefined, printWaitMs: 8000 });

describe('one package of a multi-package parcel reprinted', () => {
  it('the Station screen: Enter on the already-closed question for package 2/3 prints only that label', async () => {
    const { d, barcodes } = await closedParcelOfThree();
    const again = await rig.workflows.scanToClose.scan(d.externalId!);
    expect(again.kind).toBe('already_closed');
    const out = await rig.workflows.scanToClose.reprint({
      deliveryId: d.deliveryId,
      scanId: again.scanId,
      why: { code: 'lost' },
      packageNumber: 2,
    });
    expect(out.kind).toBe('printed');
    expect(rig.printer.printed()).toHaveLength(1);
    expect(await printedBarcodes(rig, barcodes)).toEqual([barcodes[1]]);
    const jobId = 'jobIds' in out ? out.jobIds[0]! : -1;
    expect(reprintsOf(d.deliveryId)).toEqual([{ jobId, reasonCode: 'lost', note: null, packageNumber: 2 }]);
    // The print queue names the job as that package's label.
    expect(rig.queue.get(jobId).document).toEqual({ kind: 'labels', package: { number: 2, of: 3 } });
  });

  it("the shipment's detail: package 3 with the worker's own words", async () => {
    const { d, barcodes } = await closedParcelOfThree();
    const summary = await actions().reprint(
      [d.deliveryId],
      { code: 'other', note: 'Štítek se roztrhl při přelepování' },
      3,
    );
    expect(summary.done).toBe(1);
    expect(summary.results[0]).toMatchObject({ print: 'printed' });
    expect(rig.printer.printed()).toHaveLength(1);
    expect(await printedBarcodes(rig, barcodes)).toEqual([barcodes[2]]);
    expect(reprintsOf(d.deliveryId)).toEqual([
      {
        jobId: summary.results[0]!.jobIds[0],
        reasonCode: 'other',
        note: 'Štítek se roztrhl při přelepování',
        packageNumber: 3,
      },
    ]);
  });

  it('the print queue: package 1 of the parcel’s job; the parcel’s whole reprint still prints all three', async () => {
    const { d, barcodes, jobId } = await closedParcelOfThree();
    await waitFor(() => rig.queue.get(jobId).state === 'done');
    const { handlers } = createQueueReprint(rig.deps);
    const copy = await handlers['printing.queue.reprint']({ jobId, why: { code: 'damaged' }, packageNumber: 1 });
    await waitFor(() => rig.queue.get(copy.id).state === 'done', 15_000);
    expect(rig.printer.printed()).toHaveLength(1);
    expect(await printedBarcodes(rig, barcodes)).toEqual([barcodes[0]]);
    expect(reprintsOf(d.deliveryId)).toEqual([{ jobId: copy.id, reasonCode: 'damaged', note: null, packageNumber: 1 }]);

    clearPrinted(rig);
    const whole = await handlers['printing.queue.reprint']({ jobId, why: { code: 'wrong_printer' } });
    await waitFor(() => rig.queue.get(whole.id).state === 'done', 15_000);
    expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);
    expect(reprintsOf(d.deliveryId).at(-1)).toMatchObject({ jobId: whole.id, packageNumber: null });
  });

  it('labels this desk never stored (closed elsewhere) are fetched, and still only the package asked for prints', async () => {
    const [d] = await rig.session.client.insertDeliveries([
      shipment({ packages: [{ weight: '1' }, { weight: '2' }, { weight: '3' }] }),
    ]);
    // Closed at the service by another desk: this one keeps no label of it.
    await rig.session.client.closeDeliveries([
      { deliveryId: d!.deliveryId, agent: d!.agent, sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } },
    ]);
    const [closed] = await rig.session.client.getDeliveriesByIds([d!.deliveryId]);
    rig.deps.recordDeliveries(rig.session.accountId, [closed!]);
    const barcodes = closed!.packages.map((p) => p.barcode!);
    const summary = await actions().reprint([d!.deliveryId], { code: 'lost' }, 2);
    expect(summary.done).toBe(1);
    expect(rig.printer.printed()).toHaveLength(1);
    expect(await printedBarcodes(rig, barcodes)).toEqual([barcodes[1]]);
  });

  it('a package the parcel has not: refused, nothing printed, no reason kept', async () => {
    const { d } = await closedParcelOfThree();
    const summary = await actions().reprint([d.deliveryId], { code: 'lost' }, 4);
    expect(summary.done).toBe(0);
    expect(summary.results[0]!.error).toMatchObject({ code: 'package_not_in_parcel' });
    expect(rig.printer.printed()).toHaveLength(0);
    expect(reprintsOf(d.deliveryId)).toEqual([]);
  });

  it('a carrier routed to PDF: its labels are one document, so one package is refused and nothing prints', async () => {
    const { d } = await closedParcelOfThree();
    const before: RoutingRules = structuredClone(rig.routes);
    rig.routes.carriers.NP = { format: 'pdf-single', printerId: PDF_PRINTER };
    try {
      const summary = await actions().reprint([d.deliveryId], { code: 'lost' }, 2);
      expect(summary.results[0]!.error).toMatchObject({ code: 'package_label_not_separate' });
      expect(rig.printer.printed()).toHaveLength(0);
      expect(rig.office.received()).toHaveLength(0);
    } finally {
      rig.routes.carriers = before.carriers;
    }
  });

  it('the contract: a package number is a whole number from 1, and names one shipment only', () => {
    const reprint = methods['shipments.reprint'].params;
    expect(reprint.safeParse({ deliveryIds: [1], why: { code: 'lost' }, packageNumber: 2 }).success).toBe(true);
    expect(reprint.safeParse({ deliveryIds: [1, 2], why: { code: 'lost' }, packageNumber: 2 }).success).toBe(false);
    expect(reprint.safeParse({ deliveryIds: [1], why: { code: 'lost' }, packageNumber: 0 }).success).toBe(false);
    expect(reprint.safeParse({ deliveryIds: [1], why: { code: 'lost' }, packageNumber: 1.5 }).success).toBe(false);
    const scan = methods['scan.reprint'].params;
    expect(scan.safeParse({ deliveryId: 1, why: { code: 'lost' }, packageNumber: '2' }).success).toBe(false);
    const queue = methods['printing.queue.reprint'].params;
    expect(queue.safeParse({ jobId: 1, why: { code: 'lost' }, packageNumber: -1 }).success).toBe(false);
  });
});
