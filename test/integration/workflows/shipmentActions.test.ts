/**
 * The Shipments and Tracking screens' actions against a real sandbox, real printers (a TCP ZPL
 * printer, a PDF folder printer) and the station cache: close + print, print in a chosen format,
 * reprint from stored labels, cancel, traces. Each answers per shipment what happened and why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { recordCancelled } from '../../../electron/sync/updateCache';
import { createShipmentActions, type ShipmentActions } from '../../../electron/workflows/shipmentActions';
import { printerSettings, type PrinterView } from '../../../shared/contract/printing';
import { shipmentStates } from '../../../shared/contract/shipments';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { readA4Quarters } from '../../support/a4Quadrants';
import { sandboxFault } from '../../support/sandboxShipments';
import { labelsBeforeMarker } from '../../support/printMarker';
import { needs } from '../../support/services';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { clearPrinted, PDF_PRINTER, printedBarcodes, startRig, ZPL_PRINTER, type Rig } from './workflowRig';

let sb: Sandbox;
let rig: Rig;
let actions: ShipmentActions;

const status = { state: 'ready' as const, reasonCode: null, reason: null, checkedAt: null };
function printers(): PrinterView[] {
  return [
    {
      id: ZPL_PRINTER,
      name: 'Desk ZPL',
      connection: { kind: 'zpl-tcp', host: rig.printer.host, port: rig.printer.port },
      settings: printerSettings.parse({}),
      status: { ...status, printerId: ZPL_PRINTER },
    },
    {
      id: PDF_PRINTER,
      name: 'Office PDF',
      connection: { kind: 'virtual-pdf' },
      settings: printerSettings.parse({}),
      status: { ...status, printerId: PDF_PRINTER },
    },
  ];
}

/** Inserts shipments at the service and puts them in the station cache, as a sync would. */
async function prepared(items: DeliveryInput[]) {
  const ds = await rig.session.client.insertDeliveries(items);
  rig.deps.recordDeliveries(rig.session.accountId, ds);
  return ds.map((d) => d.deliveryId);
}
const cached = (id: number) => rig.deps.repos.shipments.get(rig.session.accountId, id)!;
const barcodesOf = (ids: number[]) => ids.flatMap((id) => cached(id).packages.map((p) => p.barcode!));

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb);
  actions = createShipmentActions({
    deps: rig.deps,
    printers,
    recordCancelled: (a, ids) =>
      void recordCancelled({ shipments: rig.deps.repos.shipments, now: () => new Date() }, a, ids),
    printWaitMs: 8000,
  });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});
beforeEach(() => clearPrinted(rig));

describe('shipments.close', () => {
  it('reprint: a shipment whose label is still in the printer (it stopped after taking it) is skipped, not printed twice', async () => {
    const [id] = await prepared([shipment()]);
    clearPrinted(rig);
    rig.printer.set({ jammed: true });
    const closed = await actions.close([id!]);
    const jobId = closed.results[0]!.jobIds[0]!;
    await waitFor(() => rig.deps.queue.get(jobId).state === 'sent');
    const again = await actions.reprint([id!], { code: 'damaged' });
    expect(again.results[0]).toMatchObject({ outcome: 'skipped', error: { code: 'labels_in_printer' } });
    rig.printer.set({ jammed: false });
    await waitFor(() => rig.deps.queue.get(jobId).state === 'done');
    expect(rig.printer.printed()).toHaveLength(1);
  });

  it('closes the prepared ones per carrier + collection place (spec PATCH) and prints their labels as routed', async () => {
    const [np, ppr, reject] = (await prepared([
      shipment({ packages: [{ weight: '1' }, { weight: '2' }] }),
      shipment({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      }),
      shipment({ recipient: { ...shipment().recipient, surname: 'REJECT' } }),
    ])) as [number, number, number];
    const [gone] = (await prepared([shipment()])) as [number];
    await actions.cancel([gone]);

    const summary = await actions.close([np, ppr, reject, gone, 999_999]);

    const by = new Map(summary.results.map((r) => [r.deliveryId, r]));
    expect(summary.results.map((r) => r.deliveryId)).toEqual([np, ppr, reject, gone, 999_999]);
    expect(by.get(np)).toMatchObject({
      outcome: 'done',
      print: 'printed',
      state: shipmentStates.closedUnsent,
      error: null,
    });
    expect(by.get(ppr)).toMatchObject({ outcome: 'done', print: 'printed', state: shipmentStates.closedUnsent });
    expect(by.get(reject)).toMatchObject({ outcome: 'failed', print: 'none', state: shipmentStates.prepared });
    expect(by.get(reject)!.error!.code).toBe('carrier_rejected');
    expect([by.get(reject)!.error!.message, ...by.get(reject)!.error!.messages].join(' ')).toContain(
      'refused by the carrier',
    );
    expect(by.get(gone)).toMatchObject({ outcome: 'skipped', error: { code: 'cancelled' } });
    expect(by.get(999_999)).toMatchObject({ outcome: 'skipped', error: { code: 'not_in_cache' } });
    expect(summary).toMatchObject({ done: 2, failed: 1, skipped: 2 });

    // Every package label of what closed came out of the ZPL printer, with the service's barcodes.
    const expected = barcodesOf([np, ppr]);
    expect(expected).toHaveLength(3);
    expect((await printedBarcodes(rig, expected)).sort()).toEqual([...expected].sort());

    // Closing again is refused here, before the service: it is closed already.
    const again = await actions.close([np]);
    expect(again.results[0]).toMatchObject({ outcome: 'skipped', error: { code: 'already_closed' } });
  });
});

describe.skipIf(!needs('pdftoppm', 'zbarimg'))('shipments.printLabels and shipments.reprint', () => {
  it('prints PDF A4 starting at position 3 (spec GET tickets `position`): the label sits in the third quarter', async () => {
    const [id] = (await prepared([shipment()])) as [number];
    await actions.close([id]);
    clearPrinted(rig);

    const summary = await actions.printLabels({ deliveryIds: [id], format: 'pdf-a4', position: 3 });

    expect(summary.results[0]).toMatchObject({ outcome: 'done', print: 'printed' });
    const [pdf] = rig.office.received();
    const quarters = readA4Quarters(readFileSync(path.join(rig.office.folder, pdf!.name)));
    const [barcode] = barcodesOf([id]);
    expect(quarters).toEqual({ 1: [], 2: [], 3: [barcode], 4: [] });
  });

  it('prints ZPL and PDF roll on request; refuses unclosed shipments and a printer that cannot take the format', async () => {
    const [closed, open] = (await prepared([shipment(), shipment()])) as [number, number];
    await actions.close([closed]);
    clearPrinted(rig);

    const zpl = await actions.printLabels({ deliveryIds: [closed, open], format: 'zpl' });
    expect(zpl.results.find((r) => r.deliveryId === closed)).toMatchObject({ outcome: 'done', print: 'printed' });
    expect(zpl.results.find((r) => r.deliveryId === open)).toMatchObject({
      outcome: 'skipped',
      error: { code: 'not_closed' },
    });
    expect(await printedBarcodes(rig, barcodesOf([closed]))).toEqual(barcodesOf([closed]));

    clearPrinted(rig);
    const roll = await actions.printLabels({ deliveryIds: [closed], format: 'pdf-roll' });
    expect(roll.results[0]).toMatchObject({ outcome: 'done', print: 'printed' });
    expect(rig.office.received()).toHaveLength(1);
    expect(await printedBarcodes(rig, barcodesOf([closed]))).toEqual(barcodesOf([closed]));

    await expect(
      actions.printLabels({ deliveryIds: [closed], format: 'zpl', printerId: PDF_PRINTER }),
    ).rejects.toMatchObject({ code: 'printer_format_mismatch' });
  });

  it('reprints the labels stored at closing, even with the service down', async () => {
    const [id] = (await prepared([shipment({ packages: [{ weight: '1' }, { weight: '3' }] })])) as [number];
    await actions.close([id]);
    const first = rig.printer.printed().map((l) => l.zpl);
    clearPrinted(rig);

    await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/api/v3/deliveries/zpl', status: 503 }),
    });
    try {
      const summary = await actions.reprint([id], { code: 'damaged' });
      expect(summary.results[0]).toMatchObject({ outcome: 'done', print: 'printed' });
      expect(rig.printer.printed().map((l) => l.zpl)).toEqual(first);
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});

describe('shipments.cancel', () => {
  it('cancels prepared shipments at the service (spec DELETE) and in the cache; a closed one is refused with the reason', async () => {
    const [a, b, c] = (await prepared([shipment(), shipment(), shipment()])) as [number, number, number];
    await actions.close([c]);

    const summary = await actions.cancel([a, b, c]);

    expect(summary.results.map((r) => [r.deliveryId, r.outcome])).toEqual([
      [a, 'done'],
      [b, 'done'],
      [c, 'skipped'],
    ]);
    expect(summary.results[2]!.error!.code).toBe('already_closed');
    expect(cached(a).state).toBe(shipmentStates.cancelled);
    // Who cancelled them is kept for their trail; the refused one has no such row.
    const cancelledBy = (id: number) =>
      rig.deps.repos.deskActions
        .ofDelivery(rig.session.accountId, id)
        .filter((x) => x.action === 'shipment_cancelled')
        .map((x) => x.desk);
    expect([cancelledBy(a), cancelledBy(b), cancelledBy(c)]).toEqual([['Stůl 1'], ['Stůl 1'], []]);
    const atService = await rig.session.client.getDeliveriesByIds([a, b, c]);
    expect(atService.map((d) => [d.deliveryId, d.deliveryState]).sort()).toEqual(
      [
        [a, 10],
        [b, 10],
        [c, 1],
      ].sort(),
    );
  });

  it('a shipment cancelled elsewhere meanwhile is reported cancelled, the rest of the selection still cancelled', async () => {
    const [a, b] = (await prepared([shipment(), shipment()])) as [number, number];
    await rig.session.client.cancelDeliveries([a]); // another station; our cache still says prepared

    const summary = await actions.cancel([a, b]);

    expect(summary.results.map((r) => [r.deliveryId, r.outcome, r.state])).toEqual([
      [a, 'done', 10],
      [b, 'done', 10],
    ]);
    expect((await rig.session.client.getDeliveriesByIds([b]))[0]!.deliveryState).toBe(10);
  });
});

describe('tracking.traces', () => {
  it('shows the service traces of a closed shipment once the carrier has it (spec GET traces), and why an unclosed one has none', async () => {
    const [closed, open] = (await prepared([shipment(), shipment()])) as [number, number];
    await actions.close([closed]);

    const before = await actions.traces([closed, open]);
    expect(before[0]).toMatchObject({ deliveryId: closed, traces: [], error: null });
    expect(before[1]).toMatchObject({ deliveryId: open, error: { code: 'not_closed' } });

    await fetch(`${sb.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 6 * 24 * 3600 }),
    });
    const [after] = await actions.traces([closed]);

    expect(after!.error).toBeNull();
    expect(after!.traces.map((t) => t.text)).toContain('Parcel picked up by National Post');
    expect(after!.lastChecked).not.toBeNull();
    // The state was refreshed with the traces: the parcel has moved on.
    expect(after!.state).toBeGreaterThanOrEqual(shipmentStates.sent);
    expect(cached(closed).state).toBe(after!.state);
  });
});

describe('one label per parcel across paths', () => {
  /** The printer back on: the parcel's labels that came out once everything queued has (a marker label queued now is out). */
  async function labelsOnceOnline(id: number): Promise<string[]> {
    rig.queue.kick();
    await rig.queue.settle();
    await labelsBeforeMarker(rig.printer, (j) => rig.queue.enqueue(j), ZPL_PRINTER);
    return printedBarcodes(rig, barcodesOf([id]));
  }

  it('printing a shipment from the Shipments screen while its label waits in the queue gives one label, not two', async () => {
    const [id] = await prepared([shipment()]);
    await rig.printer.offline();
    try {
      const closed = await actions.close([id!]);
      expect(closed.results[0]).toMatchObject({ outcome: 'done' });
      // The printer is off: the label waits in the queue.
      expect(closed.results[0]!.print).not.toBe('printed');
      const waiting = closed.results[0]!.jobIds;
      expect(waiting.length).toBeGreaterThan(0);

      const again = await actions.reprint([id!], { code: 'damaged' });
      expect(again.results[0]).toMatchObject({ outcome: 'done' });
      // The waiting job was replaced by the new one, in the same commit.
      for (const j of waiting)
        expect(rig.queue.get(j)).toMatchObject({ state: 'cancelled', reasonCode: 'replaced_by_new_print' });
    } finally {
      await rig.printer.online();
    }
    expect(await labelsOnceOnline(id!)).toEqual(barcodesOf([id!]));
  });

  it('a scan whose label waits for the printer, printed again from Shipments: the new print is the scan\'s label, so the scan counts as printed, not "print cancelled"', async () => {
    const [id] = await prepared([shipment()]);
    await rig.printer.offline();
    let scanId = -1;
    try {
      const outcome = await rig.workflows.scanToClose.scan(cached(id!).externalId!);
      expect(['printer_down', 'queued']).toContain(outcome.kind);
      scanId = outcome.scanId;
      const waiting = 'jobIds' in outcome ? outcome.jobIds : [];
      expect(waiting.length).toBeGreaterThan(0);
      const again = await actions.reprint([id!], { code: 'wrong_printer' });
      expect(again.results[0]).toMatchObject({ outcome: 'done' });
      for (const j of waiting) expect(rig.queue.get(j).state).toBe('cancelled');
    } finally {
      await rig.printer.online();
    }
    // One label came out for the parcel, and the desk's scan is printed (the day's "Waiting" drops it).
    expect(await labelsOnceOnline(id!)).toEqual(barcodesOf([id!]));
    await waitFor(() => rig.deps.repos.scanLog.get(scanId)?.outcome !== 'queued', 5000);
    expect(rig.deps.repos.scanLog.get(scanId)?.outcome).toBe('printed');
  });

  it('a print whose label fetch is slower than the background journal tick still prints once (CI found two)', async () => {
    const [id] = await prepared([shipment()]);
    await actions.close([id!]);
    await rig.queue.settle();
    clearPrinted(rig);
    // The tickets answer after 1.5 s; meanwhile the station's journal tick runs, as every second.
    await sandboxFault(sb, { path: '/api/v3/deliveries/tickets', method: 'GET', latencyMs: 1500, count: 2 });
    const ticking = setInterval(() => rig.workflows.journal.tick(), 100);
    try {
      const r = await actions.printLabels({ deliveryIds: [id!], format: 'pdf-a4', position: 3 });
      expect(r.results[0]).toMatchObject({ outcome: 'done', print: 'printed' });
      await rig.workflows.journal.idle();
      await rig.queue.settle();
    } finally {
      clearInterval(ticking);
      await sandboxFault(sb, null);
    }
    expect(rig.office.received()).toHaveLength(1);
  });
});
