/**
 * MT-SICS answers that are no weight, end to end: the composed station behind its
 * web host, a real sandbox over HTTP, and a virtual MT-SICS scale on a pseudo-terminal pair (socat)
 * that the station opens through serialport like a real one.
 *
 * The formats come from Mettler Toledo's documents, not from our parser:
 * - a stable weight is `S S WeightValue Unit` (operating instructions, "S – Send stable weight
 *   value": "Response S S WeightValue Unit … Example: S S 100.00 g"; the MT-SICS reference manual,
 *   section "Format of responses with weight value"; the public mt-sics library for Node lists the
 *   answer as `'S S': ['weight', 'unit']`, Atlantis-Software/mt-sics lib/constants.js): four fields,
 *   nothing after the unit;
 * - `ET` is one of the reference manual's "General error messages" (transmission error: the balance
 *   received a garbled command), an answer about the line, not about the load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../../shared/contract/workflows';
import { needs } from '../../support/services';
import { waitFor } from '../printing/printingTestKit';
import { startScaleDesk, type ScaleDesk } from './scaleDesk';

const run = needs('socat');
let desk: ScaleDesk;

beforeAll(async () => {
  // These parcels weigh far more than their shipments (8.888 kg against 3.4 kg): the weight check
  // would ask first; this suite is about the scale's answers, so it never asks.
  if (run) desk = await startScaleDesk({ verifyLabels: false, askAbovePercent: 1000 });
}, 60_000);
afterAll(async () => {
  await desk?.close();
});

/** Waits until the scale was asked `n` more times (its answers reached the station in between). */
async function moreAnswers(n: number): Promise<void> {
  const asked = desk.vs.commands.length;
  await waitFor(() => desk.vs.commands.length >= asked + n, 10_000);
}
function outcomeOf(from: number, scanId: number): ScanOutcome | undefined {
  return desk.events
    .slice(from)
    .filter(
      (e) =>
        e.name === 'scan.outcome' &&
        (e.payload as ScanOutcome).scanId === scanId &&
        (e.payload as ScanOutcome).kind !== 'queued',
    )
    .map((e) => e.payload as ScanOutcome)
    .pop();
}
async function scanWaitingForScale(code: string): Promise<{ scanId: number; from: number }> {
  const from = desk.events.length;
  const { scanId } = (await desk.call('scan.submit', { code })) as { scanId: number };
  await waitFor(() => desk.events.slice(from).some((e) => e.name === 'scale.weighing' && e.payload !== null), 10_000);
  return { scanId, from };
}

describe.skipIf(!run)('MT-SICS answers that are no weight', () => {
  it('`S S      8.888 kg #%&` with control bytes after the unit is not a stable weight: nothing is updated or closed with it', async () => {
    const before = await desk.atService('ORD-1005');
    await desk.vs.shown({ state: 'stable', text: '0.000 kg' });
    const { scanId, from } = await scanWaitingForScale('ORD-1005');
    desk.vs.show({ state: 'raw', line: 'S S      8.888 kg #%&\x01\x07\x1b' });
    await moreAnswers(5);
    // Still waiting for a weight; the scale's state says its answer could not be read.
    expect(await desk.call('scale.weighing', {})).toMatchObject({ packageNumber: 1 });
    expect(await desk.call('scale.reading', {})).toMatchObject({ state: 'fault', code: 'mt_sics_unreadable' });
    expect(outcomeOf(from, scanId)).toBeUndefined();
    const still = await desk.atService('ORD-1005');
    expect(still.packages.map((p) => String(p.weight))).toEqual(before.packages.map((p) => String(p.weight)));
    expect(Number(still.deliveryState)).toBe(0); // prepared (spec "States and transitions")

    // A clean answer of the same scale is a weight.
    desk.vs.show({ state: 'stable', text: '8.888 kg' });
    await waitFor(() => outcomeOf(from, scanId) !== undefined, 20_000);
    expect(outcomeOf(from, scanId)).toMatchObject({
      kind: 'printed',
      shipment: { weighed: { packages: ['8.888'], source: 'scale', updated: true } },
    });
  }, 60_000);

  it('a single `ET` between two readings of a parcel left on the scale is not "the scale showed something else": the parcel is not taken for the next scan', async () => {
    await desk.vs.shown({ state: 'stable', text: '0.000 kg' });
    const first = await scanWaitingForScale('ORD-1001');
    desk.vs.show({ state: 'stable', text: '7.5 kg' });
    await waitFor(() => outcomeOf(first.from, first.scanId)?.kind === 'printed', 20_000);

    // The parcel stays on the scale; the next scan waits. One answer in between is `ET`.
    const next = await scanWaitingForScale('ORD-1003');
    await desk.vs.answerOnce('ET');
    await moreAnswers(5);
    expect(await desk.call('scale.weighing', {})).toMatchObject({ packageNumber: 1 });
    expect(outcomeOf(next.from, next.scanId)).toBeUndefined();

    // Lifted off, the next parcel on: that one counts.
    await desk.vs.shown({ state: 'stable', text: '0.000 kg' });
    await moreAnswers(3);
    desk.vs.show({ state: 'stable', text: '3.2 kg' });
    await waitFor(() => outcomeOf(next.from, next.scanId) !== undefined, 20_000);
    expect(outcomeOf(next.from, next.scanId)).toMatchObject({
      kind: 'printed',
      shipment: { weighed: { packages: ['3.2'] } },
    });
  }, 60_000);
});
