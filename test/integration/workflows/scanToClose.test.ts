/**
 * Scan-to-close against a real sandbox, a real station cache, the durable queue and the desk's
 * printers (a virtual ZPL printer on a real TCP listener, and the PDF office printer). What a
 * worker at the desk would check: the parcel's labels came out once each, with the barcodes the
 * service gave it (read back from what printed); every other case says why.
 *
 * The label channel follows the routing rules: ZPL to the label printer, or PDF A4 on the office
 * printer for carriers the service has no ZPL for. `printedBarcodes` reads both, so these cases
 * hold either way; zplScanToClose.test.ts adds the ZPL-only ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import type { Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import type { ScanOutcome } from '../../../shared/contract/workflows';
import { waitFor } from '../printing/printingTestKit';
import { needs } from '../../support/services';
import { sandboxFault } from '../../support/sandboxShipments';
import { labelsBeforeMarker } from '../../support/printMarker';
import {
  clearPrinted,
  printedBarcodes,
  printedCount,
  startRig,
  ZPL_PRINTER,
  withDemoRig,
  type Rig,
} from './workflowRig';

let sb: Sandbox;
let rig: Rig;
withDemoRig((r) => ({ sb, rig } = r));

async function insert(r: Rig, over: Partial<DeliveryInput> = {}) {
  const [d] = await r.session.client.insertDeliveries([shipment(over)]);
  return d!;
}

async function barcodesOf(r: Rig, deliveryIds: number[]): Promise<string[]> {
  const ds = await r.session.client.getDeliveriesByIds(deliveryIds);
  const byId = new Map(ds.map((d) => [d.deliveryId, d]));
  return deliveryIds.flatMap((id) => byId.get(id)!.packages.map((p) => p.barcode!));
}

describe.skipIf(!needs('pdftoppm', 'zbarimg'))(
  'scan-to-close (spec "PATCH /api/v3/deliveries", labels right after closing)',
  () => {
    it("a scan of the externalId closes the shipment and prints one label per package, with the service's package barcodes", async () => {
      const d = await insert(rig, { packages: [{ weight: '1.2' }, { weight: '3,5' }] });
      clearPrinted(rig);

      const outcome = await rig.workflows.scanToClose.scan(`${d.externalId}\r\n`);

      expect(outcome.kind).toBe('printed');
      if (outcome.kind !== 'printed') return;
      expect(outcome.shipment).toMatchObject({
        deliveryId: d.deliveryId,
        carrier: 'NP',
        recipientName: 'Jana Nováková',
        packageCount: 2,
      });
      const [closed] = await rig.session.client.getDeliveriesByIds([d.deliveryId]);
      expect(closed!.deliveryState).toBe(1);
      const serviceBarcodes = closed!.packages.map((p) => p.barcode!);
      expect(outcome.shipment.barcodes).toEqual(serviceBarcodes);
      expect((await printedBarcodes(rig, serviceBarcodes)).sort()).toEqual([...serviceBarcodes].sort());

      // The cache was updated in place, the labels are stored for offline reprints, the scan is logged.
      expect(rig.deps.repos.shipments.get(rig.session.accountId, d.deliveryId)?.state).toBe(1);
      const kept = rig.deps.repos.labels.latestFor(rig.session.accountId, d.deliveryId)!;
      expect(kept).not.toBeNull();
      // The label printed is the label kept, stored once: its job names it and keeps no copy of its own.
      const [jobId] = outcome.jobIds;
      expect(rig.db.prepare('SELECT document_id FROM print_job_labels WHERE job_id = ?').pluck().get(jobId)).toBe(
        kept.id,
      );
      expect(rig.db.prepare('SELECT count(*) FROM print_job_bytes WHERE job_id = ?').pluck().get(jobId)).toBe(0);
      expect(rig.jobs.payload(jobId!)?.equals(Buffer.from(kept.parts.map((p) => p.toString()).join('\n')))).toBe(true);
      expect(rig.deps.repos.scanLog.get(outcome.scanId)).toMatchObject({
        outcome: 'printed',
        deliveryId: d.deliveryId,
        code: d.externalId,
      });
    });

    it('a second scan of a closed parcel asks first, and reprints the stored labels only on confirm', async () => {
      const d = await insert(rig);
      await rig.workflows.scanToClose.scan(d.externalId!);
      const barcodes = await barcodesOf(rig, [d.deliveryId]);
      expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);

      const again = await rig.workflows.scanToClose.scan(d.externalId!);
      expect(again).toMatchObject({ kind: 'already_closed', closedElsewhere: false, labelsAvailable: true });
      expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);

      const reprint = await rig.workflows.scanToClose.reprint({
        deliveryId: d.deliveryId,
        scanId: again.scanId,
        why: { code: 'damaged' },
      });
      expect(reprint).toMatchObject({ kind: 'printed', reprint: true });
      expect(await printedBarcodes(rig, barcodes)).toEqual([...barcodes, ...barcodes]);
      expect(rig.deps.repos.scanLog.get(again.scanId)?.outcome).toBe('reprinted');
    });

    it('a reprint works offline from the labels stored at close time', async () => {
      const d = await insert(rig);
      await rig.workflows.scanToClose.scan(d.externalId!);
      const barcodes = await barcodesOf(rig, [d.deliveryId]);
      const again = await rig.workflows.scanToClose.scan(d.externalId!);
      expect(again.kind).toBe('already_closed');
      await sandboxFault(sb, { path: '/api/v3/deliveries/zpl', reset: true });
      await sandboxFault(sb, { path: '/api/v3/deliveries/tickets', reset: true });
      await sandboxFault(sb, { path: '/api/v3/deliveries', reset: true });
      try {
        const reprint = await rig.workflows.scanToClose.reprint({
          deliveryId: d.deliveryId,
          scanId: again.scanId,
          why: { code: 'damaged' },
        });
        expect(reprint).toMatchObject({ kind: 'printed', reprint: true });
      } finally {
        await sandboxFault(sb, null);
      }
      expect(await printedBarcodes(rig, barcodes)).toEqual([...barcodes, ...barcodes]);
    });

    it('a close whose answer was lost is not sent blindly again: the scan waits, its label is held for the worker, and prints exactly once on their word', async () => {
      const d = await insert(rig);
      clearPrinted(rig);
      // The service closes the shipment, but only after the client (3 s limit) has given up waiting.
      await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', latencyMs: 3500, count: 1 });
      const outcome = await rig.workflows.scanToClose.scan(d.externalId!);
      expect(outcome.kind).toBe('service_unreachable');
      const barcodes = await waitForClosed(d.deliveryId);
      // Found closed by a read, not by the close's answer: another desk may have closed and printed
      // it meanwhile, so its label waits in the print queue for the worker (issue 44).
      const jobsOf = () => rig.deps.repos.journal.jobIdsOfShipment(rig.session.accountId, d.deliveryId);
      await waitFor(() => jobsOf().length > 0, 15_000);
      const [held] = jobsOf().map((id) => rig.queue.get(id));
      expect(held).toMatchObject({ state: 'failed', nextRetryAt: null, reasonCode: 'held_closed_elsewhere' });
      expect(await labelsBeforeMarker(rig.printer, (j) => rig.queue.enqueue(j), ZPL_PRINTER)).toHaveLength(0);
      // The worker's word (Retry now in the print queue): it prints once.
      rig.queue.retryNow(held!.id);
      await waitFor(() => rig.deps.repos.scanLog.get(outcome.scanId)?.outcome === 'printed', 15_000);
      await labelsBeforeMarker(rig.printer, (j) => rig.queue.enqueue(j), ZPL_PRINTER);
      expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);
    });

    it('a parcel whose label is still in the printer (out of paper) is not reprinted on Enter: it prints once when paper is loaded', async () => {
      const d = await insert(rig);
      clearPrinted(rig);
      // The label goes into the printer's buffer and stays there: the printer runs out of paper
      // right after taking it (it keeps the format and prints it once paper is loaded).
      rig.printer.set({ jammed: true });
      const first = await rig.workflows.scanToClose.scan(d.externalId!);
      const jobId = 'jobIds' in first ? first.jobIds[0]! : -1;
      await waitFor(() => rig.deps.queue.get(jobId).state === 'sent');
      const again = await rig.workflows.scanToClose.scan(String(d.deliveryId));
      expect(again.kind).toBe('already_closed');
      const reprint = await rig.workflows.scanToClose.reprint({
        deliveryId: d.deliveryId,
        scanId: again.scanId,
        why: { code: 'damaged' },
      });
      expect(reprint).toMatchObject({ kind: 'error', error: { code: 'labels_in_printer' } });
      rig.printer.set({ jammed: false });
      await waitFor(() => rig.deps.queue.get(jobId).state === 'done');
      // Nothing more: a marker label queued now comes out right after the one label.
      expect(await labelsBeforeMarker(rig.printer, (j) => rig.queue.enqueue(j), ZPL_PRINTER)).toHaveLength(1);
    });

    it('Esc on an already_closed parcel skips it: nothing prints', async () => {
      const d = await insert(rig);
      await rig.workflows.scanToClose.scan(d.externalId!);
      const before = printedCount(rig);
      const again = await rig.workflows.scanToClose.scan(String(d.deliveryId));
      expect(again.kind).toBe('already_closed');
      expect(rig.workflows.scanToClose.skip(again.scanId)).toMatchObject({ kind: 'skipped', deliveryId: d.deliveryId });
      expect(printedCount(rig)).toBe(before);
      expect(rig.deps.repos.scanLog.get(again.scanId)?.outcome).toBe('skipped');
    });

    it('a cancelled shipment is reported as cancelled and nothing prints (spec "States": 10)', async () => {
      const d = await insert(rig);
      await rig.session.client.cancelDeliveries([d.deliveryId]);
      const before = printedCount(rig);
      const outcome = await rig.workflows.scanToClose.scan(d.externalId!);
      expect(outcome).toMatchObject({ kind: 'cancelled', deliveryId: d.deliveryId });
      expect(printedCount(rig)).toBe(before);
    });

    it('an unknown code is "not found" after the service was asked', async () => {
      const outcome = await rig.workflows.scanToClose.scan('NO-SUCH-PARCEL-42');
      expect(outcome).toMatchObject({ kind: 'not_found', serviceChecked: true });
      expect(rig.deps.repos.scanLog.get(outcome.scanId)?.outcome).toBe('not_found');
    });

    it('a code two live shipments share is "ambiguous" and closes nothing', async () => {
      const externalId = `TWIN-${Date.now()}`;
      const [a, b] = await rig.session.client.insertDeliveries([shipment({ externalId }), shipment({ externalId })]);
      const outcome = await rig.workflows.scanToClose.scan(externalId);
      expect(outcome.kind).toBe('ambiguous');
      if (outcome.kind === 'ambiguous')
        expect(outcome.candidates.map((c) => c.deliveryId).sort()).toEqual([a!.deliveryId, b!.deliveryId].sort());
      const now = await rig.session.client.getDeliveriesByIds([a!.deliveryId, b!.deliveryId]);
      expect(now.map((x) => x.deliveryState)).toEqual([0, 0]);
    });

    it("a carrier rejection shows the service's messages, in Czech when the UI is Czech; nothing closes or prints", async () => {
      const d = await insert(rig, { recipient: { ...shipment().recipient, surname: 'REJECT' } });
      const before = printedCount(rig);
      const en = await rig.workflows.scanToClose.scan(d.externalId!);
      expect(en.kind).toBe('carrier_rejected');
      if (en.kind !== 'carrier_rejected') return;
      expect(en.messages.join(' ')).toContain('National Post: the recipient was refused by the carrier');
      expect(rig.deps.repos.scanLog.get(en.scanId)?.outcome).toBe('rejected');

      rig.session.language.current = 'cs';
      try {
        const cs = await rig.workflows.scanToClose.scan(d.externalId!);
        expect(cs.kind).toBe('carrier_rejected');
        if (cs.kind === 'carrier_rejected') expect(cs.messages.join(' ')).toContain('dopravce příjemce odmítl');
      } finally {
        rig.session.language.current = 'en';
      }
      expect(printedCount(rig)).toBe(before);
      const [still] = await rig.session.client.getDeliveriesByIds([d.deliveryId]);
      expect(still!.deliveryState).toBe(0);
    });

    it('service down: scans wait in the journal, then close and print in scan order when it is back', async () => {
      const ds = [await insert(rig), await insert(rig), await insert(rig)];
      clearPrinted(rig);
      const outcomes: ScanOutcome[] = [];
      await sandboxFault(sb, { path: '/api/v3/deliveries', reset: true });
      try {
        for (const d of ds) outcomes.push(await rig.workflows.scanToClose.scan(d.externalId!));
        expect(outcomes.map((o) => o.kind)).toEqual([
          'service_unreachable',
          'service_unreachable',
          'service_unreachable',
        ]);
        expect(printedCount(rig)).toBe(0);
        for (const d of ds) expect(rig.deps.repos.shipments.get(rig.session.accountId, d.deliveryId)).toBeNull();
      } finally {
        await sandboxFault(sb, null);
      }
      rig.workflows.journal.wake();
      await waitFor(() => printedCount(rig) === 3, 15_000);

      const closed = await rig.session.client.getDeliveriesByIds(ds.map((d) => d.deliveryId));
      const byId = new Map(closed.map((c) => [c.deliveryId, c]));
      expect(ds.map((d) => byId.get(d.deliveryId)!.deliveryState)).toEqual([1, 1, 1]);
      // Scan order: the labels came out in the order the parcels were scanned.
      const inScanOrder = await barcodesOf(
        rig,
        ds.map((d) => d.deliveryId),
      );
      expect(await printedBarcodes(rig, inScanOrder)).toEqual(inScanOrder);
      await waitFor(() => outcomes.every((o) => rig.deps.repos.scanLog.get(o.scanId)?.outcome === 'printed'), 10_000);
      // And the service closed them in scan order too.
      const closedAt = ds.map((d) => Date.parse(byId.get(d.deliveryId)!.closed!));
      expect([...closedAt].sort((a, b) => a - b)).toEqual(closedAt);
    });

    it('scans made while logged out wait, as the banner says, and run in scan order after login', async () => {
      const ds = [await insert(rig), await insert(rig)];
      clearPrinted(rig);
      rig.loggedIn.value = false;
      const outcomes: ScanOutcome[] = [];
      try {
        for (const d of ds) outcomes.push(await rig.workflows.scanToClose.scan(d.externalId!));
        expect(outcomes.map((o) => o.kind)).toEqual(['service_unreachable', 'service_unreachable']);
        expect(outcomes.map((o) => (o.kind === 'service_unreachable' ? o.reason.code : null))).toEqual([
          'login_required',
          'waiting_in_line',
        ]);
        for (const o of outcomes) expect(rig.deps.repos.scanLog.get(o.scanId)?.outcome).toBe('queued');
        expect(rig.workflows.scanToClose.pending().map((p) => p.code)).toEqual(ds.map((d) => d.externalId));
        expect(printedCount(rig)).toBe(0);
      } finally {
        rig.loggedIn.value = true;
      }
      rig.workflows.journal.wake();
      await waitFor(() => printedCount(rig) === 2, 15_000);
      const inScanOrder = await barcodesOf(
        rig,
        ds.map((d) => d.deliveryId),
      );
      expect(await printedBarcodes(rig, inScanOrder)).toEqual(inScanOrder);
      await waitFor(() => outcomes.every((o) => rig.deps.repos.scanLog.get(o.scanId)?.outcome === 'printed'), 10_000);
      expect(rig.workflows.scanToClose.pending()).toEqual([]);
    });

    it('a burst of scans in one turn is acknowledged in scan order, each only once it is on disk; a refused commit acknowledges none of its scans', async () => {
      // 120 unknown codes in one turn (more than one commit's slice), as a page sends what it held.
      const codes = Array.from({ length: 120 }, (_, i) => `NEZNÁMÝ-ŽLUŤ-${i + 1}`);
      const received = await Promise.all(codes.map((c) => rig.workflows.scanToClose.submit(c)));
      const ids = received.map((r) => r.scanId);
      expect(new Set(ids).size).toBe(120);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids.map((id) => rig.deps.repos.scanLog.get(id)?.code)).toEqual(codes);
      const outcomes = await Promise.all(received.map((r) => r.done));
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['not_found']));

      // The disk refuses the journal entries: the scans of that commit are refused, none is logged.
      rig.db.exec(
        'CREATE TRIGGER no_entries BEFORE INSERT ON journal_entries BEGIN SELECT RAISE(ABORT, "disk full"); END',
      );
      try {
        const refused = await Promise.allSettled(
          ['PLNÝ-DISK-1', 'PLNÝ-DISK-2'].map((c) => rig.workflows.scanToClose.submit(c)),
        );
        expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected']);
        expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/disk full/);
        expect(
          rig.deps.repos.scanLog.recent(rig.session.accountId, 1000).filter((e) => e.code.startsWith('PLNÝ-DISK')),
        ).toEqual([]);
      } finally {
        rig.db.exec('DROP TRIGGER no_entries');
      }
      // The next scan is received again.
      const next = await rig.workflows.scanToClose.submit('NEZNÁMÝ-PO-DISKU');
      expect(rig.deps.repos.scanLog.get(next.scanId)?.code).toBe('NEZNÁMÝ-PO-DISKU');
      expect((await next.done).kind).toBe('not_found');
    });

    it('scans that arrive as the line stops are received and acknowledged before the database closes, and wait for the next start', async () => {
      const own = await startRig(sb);
      const codes = Array.from({ length: 120 }, (_, i) => `PŘI-ZAVÍRÁNÍ-${i + 1}`);
      const received = codes.map((c) => own.workflows.scanToClose.submit(c));
      await own.workflows.scanToClose.stop();
      const waiting = own.deps.repos.journal.unfinishedScans().map((e) => e.code);
      await own.close();
      const settled = await Promise.allSettled(received);
      expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(waiting).toEqual(codes);
    });

    it('a lone scan of a cached prepared parcel is on the disk with its close request when it is acknowledged (one commit, not two, before the close leaves)', async () => {
      const [a, b] = [
        await insert(rig, { recipient: { ...shipment().recipient, firstname: 'Řehoř', surname: 'Šťastný' } }),
        await insert(rig),
      ];
      rig.deps.recordDeliveries(rig.session.accountId, [a, b]);
      clearPrinted(rig);
      const entryOf = (scanId: number) => rig.deps.repos.journal.unfinishedScans().find((e) => e.scanId === scanId)!;

      const first = await rig.workflows.scanToClose.submit(a.externalId!);
      // Acknowledged: what is committed already names the shipment and says its close is asked for.
      const atAck = entryOf(first.scanId);
      expect(atAck).toMatchObject({ step: 'close_requested', deliveryId: a.deliveryId });
      expect(rig.deps.repos.journal.steps(atAck.id).map((s) => s.step)).toEqual([
        'received',
        'resolved',
        'close_requested',
      ]);
      // A scan that comes while the first is in flight waits its turn: it is only received.
      const second = await rig.workflows.scanToClose.submit(b.externalId!);
      expect(entryOf(second.scanId)).toMatchObject({ step: 'received', deliveryId: null });

      const outcomes = [await first.done, await second.done];
      expect(outcomes.map((o) => o.kind)).toEqual(['printed', 'printed']);
      expect(rig.deps.repos.journal.steps(atAck.id).map((s) => s.step)).toEqual([
        'received',
        'resolved',
        'close_requested',
        'closed',
        'queued',
      ]);
      const barcodes = await barcodesOf(rig, [a.deliveryId, b.deliveryId]);
      expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);
    });

    it('a scan committed with its close request and cut off before the request left is closed at the next start, after asking the service; its label prints once', async () => {
      const d = await insert(rig, { recipient: { ...shipment().recipient, surname: 'Žluťoučká' } });
      rig.deps.recordDeliveries(rig.session.accountId, [d]);
      clearPrinted(rig);
      // What a station killed right after the acknowledgement leaves on the disk (the set of closes
      // not sent yet lived only in that process).
      const [left] = rig.deps.repos.journal.receiveScans(
        [{ accountId: rig.session.accountId, code: d.externalId!, rawCode: null, at: new Date() }],
        () => d.deliveryId,
      );
      rig.workflows.scanToClose.tick();
      await waitFor(() => rig.deps.repos.scanLog.get(left!.scanId)?.outcome === 'printed', 15_000);
      const barcodes = await barcodesOf(rig, [d.deliveryId]);
      expect(await printedBarcodes(rig, barcodes)).toEqual(barcodes);
      expect(rig.deps.repos.journal.get(left!.entry.id)).toMatchObject({ step: 'queued', deliveryId: d.deliveryId });
    });

    it('scans keep their order while one is in flight, and the pending list shows them', async () => {
      const ds = [await insert(rig), await insert(rig), await insert(rig)];
      clearPrinted(rig);
      // Acknowledged together (one commit for scans of the same turn), in scan order.
      const received = await Promise.all(ds.map((d) => rig.workflows.scanToClose.submit(d.externalId!)));
      expect(received.map((r) => r.scanId)).toEqual([...received.map((r) => r.scanId)].sort((a, b) => a - b));
      expect(rig.workflows.scanToClose.pending().map((p) => p.code)).toEqual(ds.map((d) => d.externalId));
      // Background work (retention) gives way while scans are on their way to their labels.
      expect(rig.workflows.scanToClose.inWork()).toBe(true);
      const outcomes = await Promise.all(received.map((r) => r.done));
      expect(outcomes.map((o) => o.kind)).toEqual(['printed', 'printed', 'printed']);
      expect(rig.workflows.scanToClose.pending()).toEqual([]);
      await rig.workflows.scanToClose.idle();
      expect(rig.workflows.scanToClose.inWork()).toBe(false);
      const inScanOrder = outcomes.flatMap((o) => (o.kind === 'printed' ? o.shipment.barcodes : []));
      expect(await printedBarcodes(rig, inScanOrder)).toEqual(inScanOrder);
    });
  },
);

async function waitForClosed(deliveryId: number): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const [d] = await rig.session.client.getDeliveriesByIds([deliveryId]);
    if (d && d.deliveryState === 1) return d.packages.map((p) => p.barcode!);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`shipment ${deliveryId} did not close`);
}

describe.skipIf(!needs('pdftoppm', 'zbarimg'))('two stations on one service', () => {
  let other: Rig;
  beforeAll(async () => {
    other = await startRig(sb);
  });
  afterAll(async () => {
    await other?.close();
  });

  it('the second station learns the parcel was closed elsewhere, gets its labels and offers a reprint', async () => {
    const d = await insert(rig);
    // Both desks know the shipment as prepared.
    expect((await other.deps.lookup(d.externalId!)).kind).toBe('found');
    expect(other.deps.repos.shipments.get(other.session.accountId, d.deliveryId)?.state).toBe(0);

    const first = await rig.workflows.scanToClose.scan(d.externalId!);
    expect(first.kind).toBe('printed');

    const second = await other.workflows.scanToClose.scan(d.externalId!);
    expect(second).toMatchObject({ kind: 'already_closed', closedElsewhere: true, labelsAvailable: true });
    expect(printedCount(other)).toBe(0);
    expect(other.deps.repos.shipments.get(other.session.accountId, d.deliveryId)?.state).toBe(1);

    const reprint = await other.workflows.scanToClose.reprint({
      deliveryId: d.deliveryId,
      scanId: second.scanId,
      why: { code: 'damaged' },
    });
    expect(reprint.kind).toBe('printed');
    const barcodes = await barcodesOf(other, [d.deliveryId]);
    expect(await printedBarcodes(other, barcodes)).toEqual(barcodes);
  });
});
