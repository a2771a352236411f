/**
 * Every reprint says why, and the desk keeps it (desk_actions `reprint`): the already-closed
 * question's reprint, the Shipments screen's and the print queue's, each against a real sandbox,
 * the station's SQLite and a virtual ZPL printer on TCP. Also the cancel command: the newest scan's
 * label still waiting for its printer is cancelled, recorded as `parcel_cancelled`, and nothing
 * prints; with nothing waiting there is nothing to cancel.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryInput } from '../../../electron/api/index';
import { createDeskCommands } from '../../../electron/workflows/deskCommands';
import { createQueueReprint } from '../../../electron/workflows/queueReprint';
import { createShipmentActions } from '../../../electron/workflows/shipmentActions';
import { methods } from '../../../shared/contract';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { waitFor } from '../printing/printingTestKit';
import { clearPrinted, startRig, type Rig } from './workflowRig';

let sb: Sandbox;
let rig: Rig;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb, { printWaitMs: 1000 });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});
beforeEach(() => {
  rig.printer.set({ paperOut: false, jammed: false });
  clearPrinted(rig);
});

async function closedParcel(over: Partial<DeliveryInput> = {}) {
  const [d] = await rig.session.client.insertDeliveries([shipment(over)]);
  const first = await rig.workflows.scanToClose.scan(d!.externalId!);
  expect(first.kind).toBe('printed');
  return { d: d!, jobId: 'jobIds' in first ? first.jobIds[0]! : -1 };
}

/** The desk's actions on a shipment as stored, in the columns the audit trail and the statistics read. */
const actionsOf = (deliveryId: number) =>
  rig.db
    .prepare(
      'SELECT action, account_id AS accountId, delivery_id AS deliveryId, entry_id AS entryId, job_id AS jobId, reason_code AS reasonCode, note FROM desk_actions WHERE delivery_id = ? ORDER BY id',
    )
    .all(deliveryId) as Record<string, unknown>[];
/** The journal entry a job belongs to, with its source. */
const entryOfJob = (jobId: number) =>
  rig.db
    .prepare(
      'SELECT e.id, e.source FROM journal_entries e JOIN journal_jobs j ON j.entry_id = e.id WHERE j.job_id = ? ORDER BY e.id DESC LIMIT 1',
    )
    .get(jobId) as { id: number; source: string };

describe('reprint reasons', () => {
  it('the already-closed question: the reason chosen is recorded with the reprint entry and its label job', async () => {
    const { d } = await closedParcel();
    const again = await rig.workflows.scanToClose.scan(String(d.deliveryId));
    expect(again.kind).toBe('already_closed');
    const reprint = await rig.workflows.scanToClose.reprint({
      deliveryId: d.deliveryId,
      scanId: again.scanId,
      why: { code: 'lost' },
    });
    expect(reprint.kind).toBe('printed');
    const jobId = 'jobIds' in reprint ? reprint.jobIds[0]! : -1;
    const entry = entryOfJob(jobId);
    expect(entry.source).toBe('reprint');
    expect(actionsOf(d.deliveryId)).toEqual([
      {
        action: 'reprint',
        accountId: rig.session.accountId,
        deliveryId: d.deliveryId,
        entryId: entry.id,
        jobId,
        reasonCode: 'lost',
        note: null,
      },
    ]);
  });

  it('the print queue: "other" keeps the worker\'s own words', async () => {
    const { d, jobId } = await closedParcel();
    await waitFor(() => rig.deps.queue.get(jobId).state === 'done');
    const { handlers } = createQueueReprint(rig.deps);
    const copy = handlers['printing.queue.reprint']({
      jobId,
      why: { code: 'other', note: 'customer wants two' },
    }) as { id: number };
    await waitFor(() => rig.deps.queue.get(copy.id).state === 'done', 15_000);
    expect(actionsOf(d.deliveryId)).toEqual([
      expect.objectContaining({
        action: 'reprint',
        jobId: copy.id,
        entryId: entryOfJob(copy.id).id,
        reasonCode: 'other',
        note: 'customer wants two',
      }),
    ]);
  });

  it('the Shipments screen: each shipment reprinted gets its reason; a listed reason keeps no text', async () => {
    const { d } = await closedParcel();
    const actions = createShipmentActions({
      deps: rig.deps,
      printers: () => [],
      recordCancelled: () => undefined,
      printWaitMs: 8000,
    });
    const summary = await actions.reprint([d.deliveryId], { code: 'wrong_printer', note: 'ignored' });
    expect(summary.done).toBe(1);
    expect(actionsOf(d.deliveryId)).toEqual([
      expect.objectContaining({
        action: 'reprint',
        jobId: summary.results[0]!.jobIds[0],
        reasonCode: 'wrong_printer',
        note: null,
      }),
    ]);
  });

  it('the contract requires a reason on every reprint, and words for "other"', () => {
    const bad = [
      ['scan.reprint', { deliveryId: 1 }],
      ['scan.reprint', { deliveryId: 1, why: { code: 'other' } }],
      ['scan.reprint', { deliveryId: 1, why: { code: 'other', note: '   ' } }],
      ['scan.reprint', { deliveryId: 1, why: { code: 'bored' } }],
      ['shipments.reprint', { deliveryIds: [1] }],
      ['printing.queue.reprint', { jobId: 1 }],
      ['printing.queue.reprint', { jobId: 1, why: { code: 'other', note: 'x'.repeat(201) } }],
    ] as const;
    for (const [m, p] of bad) expect(methods[m].params.safeParse(p).success, `${m} ${JSON.stringify(p)}`).toBe(false);
    expect(methods['scan.reprint'].params.safeParse({ deliveryId: 1, why: { code: 'damaged' } }).success).toBe(true);
    expect(
      methods['printing.queue.reprint'].params.safeParse({ jobId: 1, why: { code: 'other', note: 'torn' } }).success,
    ).toBe(true);
  });
});

describe('the cancel command', () => {
  it("cancels the newest scan's label still waiting for its printer, records it, and nothing prints; then there is nothing to cancel", async () => {
    const commands = createDeskCommands({ deps: rig.deps, language: () => 'en' });
    const [d] = await rig.session.client.insertDeliveries([shipment()]);
    rig.printer.set({ paperOut: true });
    // The printer's last all-clear answer stands for the check before a job for 50 ms (STATUS_FRESH_MS in
    // electron/printing/zplTcpDriver.ts): past it, the station asks again and hears "out of paper".
    await new Promise((r) => setTimeout(r, 100));
    const outcome = await rig.workflows.scanToClose.scan(d!.externalId!);
    // Out of paper: the label waits for its printer (said at once, or after the wait).
    expect(['printer_down', 'queued']).toContain(outcome.kind);
    const jobId = 'jobIds' in outcome ? outcome.jobIds[0]! : -1;
    await waitFor(() => rig.deps.queue.get(jobId).state === 'failed');

    const cancelled = commands.cancelParcel();
    expect(cancelled).toEqual({
      scanId: outcome.scanId,
      code: d!.externalId,
      deliveryId: d!.deliveryId,
      jobIds: [jobId],
    });
    expect(rig.deps.queue.get(jobId).state).toBe('cancelled');
    expect(actionsOf(d!.deliveryId)).toEqual([
      expect.objectContaining({ action: 'parcel_cancelled', jobId, entryId: entryOfJob(jobId).id, reasonCode: null }),
    ]);
    rig.printer.set({ paperOut: false });
    await new Promise((r) => setTimeout(r, 1500));
    expect(rig.printer.printed()).toHaveLength(0);
    expect(commands.cancelParcel()).toBeNull();
  });

  it('a label already printed is not cancelled: nothing to cancel', async () => {
    const commands = createDeskCommands({ deps: rig.deps, language: () => 'en' });
    const { d, jobId } = await closedParcel();
    await waitFor(() => rig.deps.queue.get(jobId).state === 'done');
    expect(commands.cancelParcel()).toBeNull();
    expect(actionsOf(d.deliveryId)).toEqual([]);
  });
});
