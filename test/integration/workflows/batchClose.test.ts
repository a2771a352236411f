/**
 * Batch mode against a real sandbox: scan many, close them all grouped by carrier + collection
 * place (spec "PATCH /api/v3/deliveries", "Limits"), labels per carrier, and a summary per shipment.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { createBatchClose } from '../../../electron/workflows/batchClose';
import { shipment } from '../api/support';
import { needs } from '../../support/services';
import { printedBarcodes, withDemoRig, type Rig } from './workflowRig';

let rig: Rig;
withDemoRig((r) => ({ rig } = r));

describe.skipIf(!needs('pdftoppm', 'zbarimg'))('batch close of mixed carriers', () => {
  it('closes per carrier + collection place, prints per carrier, and says per shipment what failed and why', async () => {
    const recipient = shipment().recipient;
    const items: DeliveryInput[] = [
      shipment(), // NP from WH-PRAHA
      shipment({ packages: [{ weight: '1' }, { weight: '2' }] }), // NP, two packages
      shipment({ recipient: { ...recipient, surname: 'REJECT' } }), // NP, the carrier refuses it (sandbox magic value)
      shipment({ agent: 'PPR', deliveryType: 'PPR-BUSINESS' }), // PPR from WH-PRAHA
      shipment({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      }), // PPR from WH-BRNO
      shipment({
        agent: 'CCR',
        deliveryType: 'CCR-SAMEDAY',
        packages: [{ weight: '2', length: 30, width: 20, height: 10 }],
      }), // PDF labels only
      shipment(), // cancelled before the batch
    ];
    const ds = await rig.session.client.insertDeliveries(items);
    const [np1, np2, npReject, pprPraha, pprBrno, ccr, cancelled] = ds as [
      (typeof ds)[0],
      (typeof ds)[0],
      (typeof ds)[0],
      (typeof ds)[0],
      (typeof ds)[0],
      (typeof ds)[0],
      (typeof ds)[0],
    ];
    await rig.session.client.cancelDeliveries([cancelled.deliveryId]);

    const batch = rig.workflows.batchClose;
    for (const d of ds) await batch.collect(d.externalId!);
    await batch.collect(np1.externalId!); // scanned twice: listed once
    await batch.collect('NOT-A-PARCEL-7');
    expect(batch.items()).toHaveLength(8);
    expect(batch.items().find((i) => i.deliveryId === cancelled.deliveryId)?.status).toBe('cancelled');

    const summary = await batch.closeAll();

    const byId = new Map(summary.shipments.map((s) => [s.deliveryId, s]));
    for (const d of [np1, np2, pprPraha, pprBrno, ccr])
      expect(byId.get(d.deliveryId)).toMatchObject({ closed: true, print: 'printed', error: null });
    for (const d of [np1, np2, pprPraha, pprBrno, ccr]) expect(byId.get(d.deliveryId)!.outcome).toBe('printed');
    expect(byId.get(npReject.deliveryId)).toMatchObject({ closed: false, print: 'not_printed', outcome: 'refused' });
    expect(byId.get(npReject.deliveryId)!.error!.message).toContain(
      'National Post: the recipient was refused by the carrier',
    );
    expect(summary).toMatchObject({ closed: 5, printed: 5, failed: 1 });
    expect(summary.skipped.map((i) => i.status).sort()).toEqual(['cancelled', 'not_found']);

    // One group per carrier + collection place, as the service requires.
    const groups = summary.groups.map((g) => `${g.carrier}@${g.collectionPlace}:${g.deliveryIds.length}`).sort();
    expect(groups).toEqual(['CCR@WH-PRAHA:1', 'NP@WH-PRAHA:3', 'PPR@WH-BRNO:1', 'PPR@WH-PRAHA:1']);
    // A group with one refused shipment still says the other two closed (not "not closed").
    expect(summary.groups.find((g) => g.carrier === 'NP')).toMatchObject({ closedCount: 2 });
    expect(summary.groups.filter((g) => g.carrier !== 'NP').every((g) => g.closedCount === g.deliveryIds.length)).toBe(
      true,
    );

    // Every package label of what closed came out exactly once, with the service's barcodes (ZPL or PDF, by route).
    const closed = await rig.session.client.getDeliveriesByIds(
      [np1, np2, pprPraha, pprBrno, ccr].map((d) => d.deliveryId),
    );
    const expected = closed.flatMap((c) => c.packages.map((p) => p.barcode!)).sort();
    expect(expected).toHaveLength(6);
    expect((await printedBarcodes(rig, expected)).sort()).toEqual(expected);

    // Every collected code is in the scan log with what closing did to it.
    const log = rig.deps.repos.scanLog.recent(rig.session.accountId, 20);
    expect(log.find((e) => e.deliveryId === np1.deliveryId)?.outcome).toBe('printed');
    expect(log.find((e) => e.deliveryId === npReject.deliveryId)?.outcome).toBe('rejected');
    expect(log.find((e) => e.code === 'NOT-A-PARCEL-7')?.outcome).toBe('not_found');

    // What closed left the batch; what did not stays with its reason.
    expect(
      batch
        .items()
        .map((i) => i.deliveryId)
        .sort(),
    ).toEqual([npReject.deliveryId, cancelled.deliveryId, null].sort());
    // The refused one reads "refused" with the carrier's reason, not "ready".
    const refused = batch.items().find((i) => i.deliveryId === npReject.deliveryId)!;
    expect(refused.status).toBe('refused');
    expect(refused.message).toContain('National Post: the recipient was refused by the carrier');
    const [still] = await rig.session.client.getDeliveriesByIds([npReject.deliveryId]);
    expect(still!.deliveryState).toBe(0);
  });
});

describe('a batch larger than one commit of print jobs', () => {
  it('closes 120 parcels and prints each package label exactly once, every scan logged as printed', async () => {
    // More than the 50 entries queued per commit and the 50 shipments stored per slice after the close.
    const ds = [
      ...(await rig.session.client.insertDeliveries(Array.from({ length: 60 }, () => shipment()))),
      ...(await rig.session.client.insertDeliveries(Array.from({ length: 60 }, () => shipment()))),
    ];
    const batch = rig.workflows.batchClose;
    for (const d of ds) await batch.collect(d.externalId!);
    const summary = await batch.closeAll();

    // (What an earlier test left in the batch may be in the summary too: only these 120 count here.)
    const mine = new Set(ds.map((d) => d.deliveryId));
    const lines = summary.shipments.filter((s) => mine.has(s.deliveryId));
    expect(lines).toHaveLength(120);
    expect(lines.every((s) => s.closed && s.outcome === 'printed')).toBe(true);
    const closed = await rig.session.client.getDeliveriesByIds(ds.map((d) => d.deliveryId));
    expect(closed.every((c) => c.deliveryState !== 0)).toBe(true);
    const expected = closed.flatMap((c) => c.packages.map((p) => p.barcode!)).sort();
    expect(expected).toHaveLength(120);
    expect((await printedBarcodes(rig, expected)).sort()).toEqual(expected);
    const log = rig.deps.repos.scanLog.recent(rig.session.accountId, 200);
    for (const d of ds) expect(log.find((e) => e.deliveryId === d.deliveryId)?.outcome).toBe('printed');
    expect(batch.items().filter((i) => i.deliveryId !== null && mine.has(i.deliveryId))).toHaveLength(0);
  });
});

describe('a batch close interrupted between commits (the entries are begun in slices)', () => {
  it('leaves each shipment in the journal or in the batch list, never both, none lost; closing again closes each once', async () => {
    const ds = [
      ...(await rig.session.client.insertDeliveries(
        Array.from({ length: 60 }, () => shipment({ ticketNote: 'Křehké – neklopit' })),
      )),
      ...(await rig.session.client.insertDeliveries(
        Array.from({ length: 60 }, () => shipment({ ticketNote: 'Křehké – neklopit' })),
      )),
    ];
    const mine = new Set(ds.map((d) => d.deliveryId));
    const batch = rig.workflows.batchClose;
    for (const d of ds) await batch.collect(d.externalId!);
    const closesBefore = rig.session.log.lines.filter(
      (l) => l.includes('"method":"PATCH"') && l.includes('"status"'),
    ).length;

    // The disk refuses a write in the middle of the batch (a real SQLite error, raised by a
    // temporary trigger on this connection): the commit that holds this shipment's entry fails.
    const failing = ds[75]!.deliveryId;
    rig.db.exec(`CREATE TEMP TRIGGER fail_batch_entry BEFORE INSERT ON journal_entries WHEN NEW.delivery_id = ${failing}
                 BEGIN SELECT RAISE(ABORT, 'disk I/O error (injected)'); END`);
    try {
      await expect(batch.closeAll()).rejects.toThrow('disk I/O error (injected)');
    } finally {
      rig.db.exec('DROP TRIGGER fail_batch_entry');
    }

    // What the disk holds, as a restart reads it.
    const inJournal = rig.db
      .prepare<[], { delivery_id: number }>(`SELECT delivery_id FROM journal_entries WHERE source = 'batch'`)
      .all()
      .map((r) => r.delivery_id)
      .filter((id) => mine.has(id));
    const inList = createBatchClose(rig.deps)
      .items()
      .flatMap((i) => (i.deliveryId !== null && mine.has(i.deliveryId) ? [i.deliveryId] : []));
    // Stopped part-way: what was begun before the failure stays begun (it is not undone), the rest stays to close.
    expect(inJournal.length).toBeGreaterThan(0);
    expect(inList.length).toBeGreaterThan(0);
    expect(new Set(inJournal).size).toBe(inJournal.length);
    expect(inJournal.filter((id) => inList.includes(id))).toEqual([]);
    expect([...inJournal, ...inList].sort((a, b) => a - b)).toEqual([...mine].sort((a, b) => a - b));
    // The list the page shows agrees with the disk: nothing begun is offered again as ready.
    expect(
      batch
        .items()
        .flatMap((i) => (i.deliveryId !== null && mine.has(i.deliveryId) ? [i.deliveryId] : []))
        .sort(),
    ).toEqual([...inList].sort());
    expect(
      batch
        .items()
        .filter((i) => i.deliveryId !== null && mine.has(i.deliveryId))
        .every((i) => i.status === 'ready'),
    ).toBe(true);
    // Nothing was sent to the service yet.
    expect(rig.session.log.lines.filter((l) => l.includes('"method":"PATCH"') && l.includes('"status"')).length).toBe(
      closesBefore,
    );

    // The journal closes what it holds (the station's tick), the worker closes the rest again.
    rig.workflows.journal.tick();
    await rig.workflows.journal.idle();
    const summary = await batch.closeAll();
    const lines = summary.shipments.filter((x) => mine.has(x.deliveryId));
    expect(lines.map((x) => x.deliveryId).sort()).toEqual([...inList].sort());
    expect(lines.every((x) => x.closed && x.outcome === 'printed')).toBe(true);

    const closed = await rig.session.client.getDeliveriesByIds(ds.map((d) => d.deliveryId));
    expect(closed.every((c) => c.deliveryState !== 0)).toBe(true);
    // One journal entry per shipment, each label printed exactly once.
    const entries = rig.db
      .prepare<[], { delivery_id: number }>(`SELECT delivery_id FROM journal_entries WHERE source = 'batch'`)
      .all()
      .filter((r) => mine.has(r.delivery_id));
    expect(entries).toHaveLength(120);
    expect(new Set(entries.map((r) => r.delivery_id)).size).toBe(120);
    const expected = closed.flatMap((c) => c.packages.map((p) => p.barcode!)).sort();
    expect(expected).toHaveLength(120);
    await expect.poll(async () => (await printedBarcodes(rig, expected)).length, { timeout: 10_000 }).toBe(120);
    expect((await printedBarcodes(rig, expected)).sort()).toEqual(expected);
    expect(batch.items().filter((i) => i.deliveryId !== null && mine.has(i.deliveryId))).toHaveLength(0);
  });
});
