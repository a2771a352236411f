/**
 * Two desks of one company on one sandbox (each its own data folder and label printer), and a
 * parcel both of them touch. A desk that finds the parcel it was about to close already closed,
 * without the service's answer to its own close, cannot tell whether it closed it or another desk
 * did (spec "PATCH /api/v3/deliveries": a closed shipment cannot be closed again, and nothing in a
 * shipment says who closed it): its label is held in the print queue for the worker's word, never
 * printed by itself. Where the service says nothing (who fetched or printed a parcel's labels:
 * spec "Label, trace, protocol and place records" has no such field), each desk says what it
 * cannot see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldForWorker } from '../../../shared/contract/printing';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { startFlakyProxy, type FlakyProxy } from '../../support/flakyProxy';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { startRig, type Rig } from './workflowRig';

let sb: Sandbox;
let proxyA: FlakyProxy;
let deskA: Rig;
let deskB: Rig;
/** Desk A's network: while down, every request of A is cut before it reaches the service. */
const networkA = { down: false };
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  proxyA = await startFlakyProxy(sb.url);
  proxyA.decide = () => (networkA.down ? 'reset' : 'pass');
  deskA = await startRig(sb, { baseUrl: proxyA.url });
  deskB = await startRig(sb);
});
afterAll(async () => {
  await deskA?.close();
  await deskB?.close();
  await proxyA?.close();
  await sb?.close();
});

/** A prepared parcel both desks have looked up (in their caches as prepared). */
async function parcelKnownToBoth(surname: string) {
  const [d] = await deskB.session.client.insertDeliveries([
    shipment({ recipient: { ...shipment().recipient, surname } }),
  ]);
  for (const desk of [deskA, deskB]) expect((await desk.deps.lookup(d!.externalId!)).kind).toBe('found');
  return d!;
}

const labelsOf = (desk: Rig, deliveryId: number) =>
  desk.deps.repos.journal.jobIdsOfShipment(desk.session.accountId, deliveryId).map((id) => desk.queue.get(id));

/** Desk A's close is cut before the service; B closes and prints the parcel meanwhile; then A's network is back. */
async function closedAtBWhileACutOff(surname: string) {
  const p = await parcelKnownToBoth(surname);
  networkA.down = true;
  // A's close is cut before the service: the scan waits for it.
  expect((await deskA.workflows.scanToClose.scan(p.externalId!)).kind).toBe('service_unreachable');
  // Meanwhile the parcel is scanned at B: closed and printed there.
  expect((await deskB.workflows.scanToClose.scan(p.externalId!)).kind).toBe('printed');
  // A's network is back: A finds the parcel closed, and cannot prove the close was its own.
  networkA.down = false;
  deskA.workflows.journal.wake();
  await waitFor(() => labelsOf(deskA, p.deliveryId).length > 0);
  await deskA.workflows.scanToClose.idle();
  return p;
}

describe('a parcel closed at another desk while this one could not reach the service', () => {
  it('is held for the worker at the desk whose close was cut off, and prints there only on their word', async () => {
    const printedAtA = deskA.printer.printed().length;
    const printedAtB = deskB.printer.printed().length;
    const p = await closedAtBWhileACutOff('Kučerová');
    const [held, ...more] = labelsOf(deskA, p.deliveryId);
    expect(more).toEqual([]);
    expect(heldForWorker(held!)).toBe(true);
    expect(held!.reasonCode).toBe('held_closed_elsewhere');
    // Nothing came out at A; B's one label stands.
    expect(deskA.printer.printed()).toHaveLength(printedAtA);
    expect(deskB.printer.printed()).toHaveLength(printedAtB + 1);
    // A's journal does not count the close as its own.
    expect(deskA.deps.repos.journal.closedHere(deskA.session.accountId, p.deliveryId)).toBe(false);

    // The worker's word in the print queue (Retry now) prints it.
    deskA.queue.retryNow(held!.id);
    await waitFor(() => deskA.queue.get(held!.id).state === 'done');
    expect(deskA.printer.printed()).toHaveLength(printedAtA + 1);
  });

  it('a rescan there asks as for a parcel closed elsewhere, and Esc drops the held label', async () => {
    const printedAtA = deskA.printer.printed().length;
    const p = await closedAtBWhileACutOff('Šimková');
    const rescan = await deskA.workflows.scanToClose.scan(p.externalId!);
    expect(rescan).toMatchObject({ kind: 'already_closed', closedElsewhere: true });
    deskA.workflows.scanToClose.skip(rescan.scanId);
    expect(labelsOf(deskA, p.deliveryId).map((j) => j.state)).toEqual(['cancelled']);
    expect(deskA.printer.printed()).toHaveLength(printedAtA);
  });
});
