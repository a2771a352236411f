/**
 * Weigh before closing and verify after printing, end to end: the composed station
 * behind its web host (calls over the host's WebSocket, as the page makes them), a real sandbox
 * over HTTP, the station's virtual ZPL printer (a TCP listener) and a virtual MT-SICS scale on a
 * pseudo-terminal pair (socat) that the station opens through serialport like a real one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../../shared/contract/workflows';
import type { Sandbox } from '../../../sandbox/index';
import { needs } from '../../support/services';
import type { HostedStation } from '../../support/station';
import { waitFor } from '../printing/printingTestKit';
import { startScaleDesk, type ScaleDesk } from './scaleDesk';
import type { VirtualScale } from './virtualScale';

const run = needs('socat');
let desk: ScaleDesk;
let sb: Sandbox;
let hs: HostedStation;
let vs: VirtualScale;
let events: ScaleDesk['events'];
const call = (method: string, params: unknown) => desk.call(method, params);
const atService = (code: string) => desk.atService(code);

/** Scans a code, puts `weights` on the scale one package at a time as the station asks, returns the outcome. */
async function scanAndWeigh(code: string, weights: string[]): Promise<ScanOutcome> {
  const from = events.length;
  await vs.shown({ state: 'stable', text: '0.000 kg' });
  const { scanId } = (await call('scan.submit', { code })) as { scanId: number };
  for (const [i, w] of weights.entries()) {
    // The station says which package it waits for; the worker lifts the last one off and puts this one on.
    await waitFor(
      () =>
        events
          .slice(from)
          .some(
            (e) =>
              e.name === 'scale.weighing' && (e.payload as { packageNumber?: number } | null)?.packageNumber === i + 1,
          ),
      10_000,
    );
    vs.show({ state: 'moving', text: `${w} kg` });
    await new Promise((r) => setTimeout(r, 100));
    vs.show({ state: 'stable', text: `${w} kg` });
  }
  await waitFor(
    () =>
      events
        .slice(from)
        .some(
          (e) =>
            e.name === 'scan.outcome' &&
            (e.payload as ScanOutcome).scanId === scanId &&
            (e.payload as ScanOutcome).kind !== 'queued',
        ),
    20_000,
  );
  return events
    .slice(from)
    .filter((e) => e.name === 'scan.outcome' && (e.payload as ScanOutcome).scanId === scanId)
    .map((e) => e.payload as ScanOutcome)
    .pop()!;
}

beforeAll(async () => {
  if (!run) return;
  desk = await startScaleDesk({ verifyLabels: true });
  ({ sb, hs, vs, events } = desk);
}, 60_000);

afterAll(async () => {
  await desk?.close();
});

describe.skipIf(!run)(
  'weigh before closing, verify after printing (virtual MT-SICS scale, sandbox, TCP label printer)',
  () => {
    it('a weight off by more than the tolerance updates the shipment (PUT) before the close; the label carries it', async () => {
      expect((await atService('ORD-1001')).packages.map((p) => String(p.weight))).toEqual(['2.3']);
      const before = hs.station.printing.virtual.zpl.printed().length;
      const outcome = await scanAndWeigh('ORD-1001', ['2.418']);
      expect(outcome.kind).toBe('printed');
      if (outcome.kind !== 'printed') return;
      expect(outcome.shipment.weighed).toEqual({ packages: ['2.418'], source: 'scale', updated: true });
      // The service holds the weighed weight, and the shipment is closed.
      const d = await atService('ORD-1001');
      expect(d.packages.map((p) => String(p.weight))).toEqual(['2.418']);
      const labels = hs.station.printing.virtual.zpl.printed().slice(before);
      expect(labels).toHaveLength(1);
      // The label prints the weight the Czech way (decimal comma).
      expect(labels[0]!.zpl).toContain('2,418 kg');
      expect(labels[0]!.zpl).not.toContain('2,3 kg');
    }, 60_000);

    it('verify: the right label answers green; the label of another parcel answers red naming both', async () => {
      const first = await atService('ORD-1001');
      const firstBarcode = first.packages[0]!.barcode!;
      expect(await call('verify.expecting', {})).toEqual({ deliveryId: first.deliveryId, barcodes: [firstBarcode] });
      expect(await call('verify.check', { code: firstBarcode })).toEqual({
        kind: 'match',
        code: firstBarcode,
        deliveryId: first.deliveryId,
        left: [],
      });
      expect(await call('verify.expecting', {})).toBeNull();

      // A weight within the tolerance (1.23 kg against 1.2 kg): no PUT — the service keeps 1.2.
      const outcome = await scanAndWeigh('ORD-1003', ['1.23']);
      expect(outcome.kind).toBe('printed');
      if (outcome.kind !== 'printed') return;
      expect(outcome.shipment.weighed).toEqual({ packages: ['1.2'], source: 'scale', updated: false });
      const second = await atService('ORD-1003');
      expect(second.packages.map((p) => String(p.weight))).toEqual(['1.2']);

      // The worker scans ORD-1001's label on ORD-1003's parcel: red, both named.
      expect(await call('verify.check', { code: firstBarcode })).toEqual({
        kind: 'mismatch',
        code: firstBarcode,
        expectedDeliveryId: second.deliveryId,
        expectedBarcodes: [second.packages[0]!.barcode!],
        labelDeliveryId: first.deliveryId,
      });
      // Not checked: listed for the end of the day.
      expect(await call('verify.unverified', {})).toEqual([expect.objectContaining({ deliveryId: second.deliveryId })]);
    }, 60_000);

    it('the service down at the update: the scan waits in the journal with its weight, then sends it without weighing again', async () => {
      expect((await atService('ORD-1005')).packages.map((p) => String(p.weight))).toEqual(['3.4']);
      // The next PUT answers 503 (the service is down for it), once.
      const fault = await fetch(`${sb.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/api/v3/deliveries', method: 'PUT', status: 503, count: 1 }),
      });
      expect(fault.ok).toBe(true);
      const from = events.length;
      vs.show({ state: 'stable', text: '0.000 kg' });
      const { scanId } = (await call('scan.submit', { code: 'ORD-1005' })) as { scanId: number };
      await waitFor(() => events.slice(from).some((e) => e.name === 'scale.weighing'), 10_000);
      vs.show({ state: 'stable', text: '3.61 kg' });
      const outcomes = () =>
        events
          .slice(from)
          .filter((e) => e.name === 'scan.outcome' && (e.payload as ScanOutcome).scanId === scanId)
          .map((e) => e.payload as ScanOutcome);
      await waitFor(() => outcomes().some((o) => o.kind === 'service_unreachable'), 10_000);
      // The parcel is lifted off: the scan must not wait for the scale again.
      vs.show({ state: 'stable', text: '0.000 kg' });
      await waitFor(() => outcomes().some((o) => o.kind === 'printed'), 20_000);
      const printed = outcomes().find((o) => o.kind === 'printed')!;
      expect(printed.kind === 'printed' && printed.shipment.weighed).toEqual({
        packages: ['3.61'],
        source: 'scale',
        updated: true,
      });
      expect((await atService('ORD-1005')).packages.map((p) => String(p.weight))).toEqual(['3.61']);
      expect(events.slice(from).filter((e) => e.name === 'scale.weighing' && e.payload !== null)).toHaveLength(1);
    }, 60_000);

    it('a multi-package shipment takes one weight per package in turn', async () => {
      expect((await atService('ORD-1002')).packages.map((p) => String(p.weight))).toEqual(['1.5', '4', '7.25']);
      const outcome = await scanAndWeigh('ORD-1002', ['1.5', '4.4', '7.25']);
      expect(outcome.kind).toBe('printed');
      const d = await atService('ORD-1002');
      expect(d.packages.map((p) => String(p.weight))).toEqual(['1.5', '4.4', '7.25']);

      // Three labels: each package's label is checked; the check ends with the last.
      const [b1, b2, b3] = d.packages.map((p) => p.barcode!);
      expect(await call('verify.expecting', {})).toEqual({ deliveryId: d.deliveryId, barcodes: [b1, b2, b3] });
      expect(await call('verify.check', { code: b2! })).toMatchObject({ kind: 'match', left: [b1, b3] });
      expect(await call('verify.check', { code: b1! })).toMatchObject({ kind: 'match', left: [b3] });
      expect(await call('verify.expecting', {})).toEqual({ deliveryId: d.deliveryId, barcodes: [b3] });
      expect(await call('verify.check', { code: b3! })).toMatchObject({ kind: 'match', left: [] });
      // ORD-1003's label (left unchecked earlier) is now the newest open check; ORD-1002 is done.
      expect(
        ((await call('verify.unverified', {})) as { deliveryId: number }[]).map((u) => u.deliveryId),
      ).not.toContain(d.deliveryId);
    }, 60_000);
  },
);

describe.skipIf(!run)('a parcel left on the scale', () => {
  it('is not taken again for the next scan: the station waits until the scale leaves it', async () => {
    // ORD-1002's last package (7.25 kg, taken above) is still on the scale when ORD-1008 is scanned.
    vs.show({ state: 'stable', text: '7.25 kg' });
    const from = events.length;
    const { scanId } = (await call('scan.submit', { code: 'ORD-1008' })) as { scanId: number };
    await waitFor(() => events.slice(from).some((e) => e.name === 'scale.weighing' && e.payload !== null), 10_000);
    // Five more answers of the scale, all "7.25 kg stable": still waiting.
    const asked = vs.commands.length;
    await waitFor(() => vs.commands.length >= asked + 5, 10_000);
    expect(await call('scale.weighing', {})).toMatchObject({ packageNumber: 1, packageCount: 1 });
    // Lifted off, the next parcel on: that one counts.
    await vs.shown({ state: 'stable', text: '0.000 kg' });
    await waitFor(() => vs.commands.length >= asked + 8, 10_000);
    vs.show({ state: 'stable', text: '8.3 kg' });
    await waitFor(
      () =>
        events
          .slice(from)
          .some(
            (e) =>
              e.name === 'scan.outcome' &&
              (e.payload as ScanOutcome).scanId === scanId &&
              (e.payload as ScanOutcome).kind === 'printed',
          ),
      20_000,
    );
    expect((await atService('ORD-1008')).packages.map((p) => String(p.weight))).toEqual(['8.3']);
  }, 60_000);
});

describe.skipIf(!run)('a weight the service refuses', () => {
  it('ends the scan with the service’s reason: the shipment is neither edited nor closed, nothing prints', async () => {
    const before = hs.station.printing.virtual.zpl.printed().length;
    // 9999 kg against 12 kg: the weight check asks first; the worker accepts it.
    const asked = await scanAndWeigh('ORD-1004', ['9999']);
    expect(asked.kind).toBe('weight_check');
    const from = events.length;
    await call('scan.answerWeight', { scanId: asked.scanId, accept: true });
    const after = () =>
      events
        .slice(from)
        .filter((e) => e.name === 'scan.outcome' && (e.payload as ScanOutcome).scanId === asked.scanId)
        .map((e) => e.payload as ScanOutcome);
    await waitFor(() => after().length > 0, 20_000);
    const outcome = after().pop()!;
    expect(outcome.kind).toBe('error');
    if (outcome.kind !== 'error') return;
    expect(outcome.error.message).toContain('refused the weighed weight');
    const d = (await atService('ORD-1004')) as unknown as { packages: { weight: unknown }[]; deliveryState: unknown };
    expect(d.packages.map((p) => String(p.weight))).toEqual(['12']);
    expect(Number(d.deliveryState)).toBe(0); // still prepared (spec "States and transitions")
    expect(hs.station.printing.virtual.zpl.printed().length).toBe(before);
  }, 60_000);
});
