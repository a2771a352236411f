/**
 * The close-and-print state machine (electron/workflows/closeAndPrint.ts), step by failure, as
 * docs/ARCHITECTURE.md ("A scan, step by step: the journal") states it:
 *
 * - each step is committed before the side effect it allows (close_requested before the PATCH,
 *   jobs + links + `queued` in one commit);
 * - a close whose answer was lost stays `close_requested`; the next run reads the shipment at the
 *   service first (closed: its labels are fetched and held for the worker, as another desk may have
 *   closed and printed it; prepared: closed now; cancelled: ended), never a blind second close;
 * - trouble that may pass leaves the entry at its step, waiting, with a retry time (2 s first);
 *   an answer that refuses ends the entry with its reason;
 * - a print job's own troubles (failed, uncertain) are the print queue's: the entry is `queued`,
 *   its job waits for the printer or for the worker, and nothing is closed or printed again.
 *
 * Real parts throughout: the journal in SQLite, the sandbox service on 127.0.0.1 (its injected
 * faults stand for a service down, a hang, a carrier's refusal), the print queue with a virtual
 * ZPL printer on a real TCP listener. A kill between steps is the journal left at that step with
 * the service in the state the lost step left it: the next run starts from there.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCloseAndPrint, type CloseAndPrint, type EntryResult } from '../../../electron/workflows/closeAndPrint';
import type { JournalEntry, JournalStep } from '../../../electron/store/journalRepo';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipmentStates } from '../../../shared/contract/shipments';
import { shipment } from '../../integration/api/support';
import { waitFor } from '../../integration/printing/printingTestKit';
import { startRig, ZPL_PRINTER, type Rig } from '../../integration/workflows/workflowRig';
import { sandboxFault } from '../../support/sandboxShipments';

let sb: Sandbox;
let rig: Rig;
let engine: CloseAndPrint;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb);
  // Only the runs of this test move its entries (the background resume would run waiting ones again).
  await rig.workflows.journal.stop();
  engine = createCloseAndPrint(rig.deps);
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});
const desk = { format: 'zpl' as const, printerId: ZPL_PRINTER };
beforeEach(async () => {
  await sandboxFault(sb, null);
  rig.printer.set({ paperOut: false });
  rig.routes.defaultRoute = desk;
});

// Spec "Shipment states": what a close leaves at the service.
const PREPARED = shipmentStates.prepared;
const CLOSED = shipmentStates.closedUnsent;
const CANCELLED = shipmentStates.cancelled;

/** Where a run starts: a new entry, or the journal as a kill between two steps left it (with the service as the lost step left it). */
type Start =
  | 'resolved'
  | 'close_requested, PATCH never left'
  | 'close_requested, PATCH closed it, answer lost'
  | 'close_requested, cancelled at the service meanwhile'
  | 'closed, labels not fetched'
  | 'queued, its label found uncertain';

/** What goes wrong during the run. */
type Failure =
  | 'none'
  | 'service down at close (503)'
  | 'service down at close (connection reset)'
  | 'close times out (no answer)'
  | 'carrier refuses the close'
  | 'service down when its state is read'
  | 'label fetch: service down'
  | 'labels refused: no printer for the carrier'
  | 'printer out of paper';

interface Expected {
  /** What the caller (and so the worker) is told. */
  result: EntryResult['kind'];
  /** What the journal holds after the run. */
  step: JournalStep;
  outcome: string | null;
  /** The entry waits and is tried again by itself (a retry time is set). */
  retried: boolean;
  /** The shipment's state at the service after the run. */
  service: number;
  /** Print jobs of the shipment after the run, and the state of the last one when it settled. */
  jobs: number;
  job?: 'done' | 'failed' | 'uncertain';
}

const cases: [Start, Failure, Expected][] = [
  [
    'resolved',
    'none',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'done' },
  ],
  [
    'resolved',
    'service down at close (503)',
    { result: 'waiting', step: 'close_requested', outcome: 'waiting', retried: true, service: PREPARED, jobs: 0 },
  ],
  [
    'resolved',
    'service down at close (connection reset)',
    { result: 'waiting', step: 'close_requested', outcome: 'waiting', retried: true, service: PREPARED, jobs: 0 },
  ],
  [
    'resolved',
    'close times out (no answer)',
    { result: 'waiting', step: 'close_requested', outcome: 'waiting', retried: true, service: PREPARED, jobs: 0 },
  ],
  [
    'resolved',
    'carrier refuses the close',
    { result: 'refused', step: 'ended', outcome: 'rejected', retried: false, service: PREPARED, jobs: 0 },
  ],
  [
    'resolved',
    'label fetch: service down',
    { result: 'waiting', step: 'closed', outcome: 'waiting', retried: true, service: CLOSED, jobs: 0 },
  ],
  [
    'resolved',
    'labels refused: no printer for the carrier',
    { result: 'not_printed', step: 'ended', outcome: 'not_printed', retried: false, service: CLOSED, jobs: 0 },
  ],
  [
    'resolved',
    'printer out of paper',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'failed' },
  ],
  [
    'close_requested, PATCH never left',
    'none',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'done' },
  ],
  [
    'close_requested, PATCH never left',
    'service down when its state is read',
    { result: 'waiting', step: 'close_requested', outcome: 'waiting', retried: true, service: PREPARED, jobs: 0 },
  ],
  // Found closed by a read: maybe another desk's close, so its label is held for the worker (issue 44).
  [
    'close_requested, PATCH closed it, answer lost',
    'none',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'failed' },
  ],
  [
    'close_requested, PATCH closed it, answer lost',
    'service down when its state is read',
    { result: 'waiting', step: 'close_requested', outcome: 'waiting', retried: true, service: CLOSED, jobs: 0 },
  ],
  [
    'close_requested, cancelled at the service meanwhile',
    'none',
    { result: 'refused', step: 'ended', outcome: 'cancelled', retried: false, service: CANCELLED, jobs: 0 },
  ],
  [
    'closed, labels not fetched',
    'none',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'done' },
  ],
  [
    'closed, labels not fetched',
    'label fetch: service down',
    { result: 'waiting', step: 'closed', outcome: 'waiting', retried: true, service: CLOSED, jobs: 0 },
  ],
  [
    'queued, its label found uncertain',
    'none',
    { result: 'queued', step: 'queued', outcome: null, retried: false, service: CLOSED, jobs: 1, job: 'uncertain' },
  ],
];

const session = () => rig.deps.session()!;
const now = () => new Date();

async function prepared(): Promise<number> {
  const [d] = await rig.session.client.insertDeliveries([shipment()]);
  rig.deps.recordDeliveries(rig.session.accountId, await rig.session.client.getDeliveriesByIds([d!.deliveryId]));
  return d!.deliveryId;
}

async function serviceState(deliveryId: number): Promise<number> {
  const [d] = await rig.session.client.getDeliveriesByIds([deliveryId]);
  return d!.deliveryState;
}

/** A new entry to close and print, moved to `start` the way a run killed there would have left it. */
async function entryAt(start: Start, deliveryId: number): Promise<JournalEntry> {
  const journal = rig.deps.repos.journal;
  const [e] = journal.begin(
    [{ accountId: rig.session.accountId, source: 'shipments', deliveryId, want: 'close_and_print' }],
    now(),
  );
  switch (start) {
    case 'resolved':
      break;
    case 'close_requested, PATCH never left':
      journal.step([e!.id], 'close_requested', now());
      break;
    case 'close_requested, PATCH closed it, answer lost': {
      journal.step([e!.id], 'close_requested', now());
      // The service closed it; the station never heard (its cache still says prepared).
      await closeAtService(deliveryId);
      break;
    }
    case 'close_requested, cancelled at the service meanwhile':
      journal.step([e!.id], 'close_requested', now());
      await rig.session.client.cancelDeliveries([deliveryId]);
      break;
    case 'closed, labels not fetched':
      journal.step([e!.id], 'close_requested', now());
      await closeAtService(deliveryId);
      rig.deps.recordDeliveries(rig.session.accountId, await rig.session.client.getDeliveriesByIds([deliveryId]));
      journal.step([e!.id], 'closed', now());
      break;
    case 'queued, its label found uncertain': {
      const first = (await engine.run(session(), [e!])).get(e!.id)!;
      if (first.kind !== 'queued') throw new Error(`setup: ${first.kind}`);
      const jobId = first.jobs[0]!.id;
      await waitFor(() => rig.deps.queue.get(jobId).state === 'done');
      // What the queue's recovery makes of a job found `sending` after a kill.
      rig.jobs.setState(jobId, 'uncertain', now(), { reasonCode: 'interrupted_in_printer', delivered: true });
      break;
    }
  }
  return journal.get(e!.id)!;
}

async function closeAtService(deliveryId: number): Promise<void> {
  const s = rig.deps.repos.shipments.get(rig.session.accountId, deliveryId)!;
  await rig.session.client.closeDeliveries([{ deliveryId, agent: s.agent ?? '', sender: {} }]);
}

async function inject(failure: Failure): Promise<void> {
  switch (failure) {
    case 'none':
      return;
    case 'service down at close (503)':
      return sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', status: 503 });
    case 'service down at close (connection reset)':
      return sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', reset: true });
    case 'close times out (no answer)':
      return sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', hang: true });
    case 'carrier refuses the close':
      return sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', carrierReject: true, count: 1 });
    case 'service down when its state is read':
      return sandboxFault(sb, { path: '/api/v3/deliveries', method: 'GET', status: 503 });
    case 'label fetch: service down':
      await sandboxFault(sb, { path: '/api/v3/deliveries/zpl', status: 503 });
      return sandboxFault(sb, { path: '/api/v3/deliveries/tickets', status: 503 });
    case 'labels refused: no printer for the carrier':
      // Settings name no printer for its labels: the station itself refuses them (no_printer_route).
      rig.routes.defaultRoute = null;
      return;
    case 'printer out of paper':
      rig.printer.set({ paperOut: true });
  }
}

describe('close and print: every step × every failure (docs/ARCHITECTURE.md, the journal)', () => {
  it.each(cases)('from %s, with %s', async (start, failure, want) => {
    const deliveryId = await prepared();
    const entry = await entryAt(start, deliveryId);
    const jobsBefore = rig.deps.repos.journal.jobIdsOfShipment(rig.session.accountId, deliveryId);
    await inject(failure);

    const result = (await engine.run(session(), [entry])).get(entry.id)!;
    await sandboxFault(sb, null);

    expect(result.kind).toBe(want.result);
    const after = rig.deps.repos.journal.get(entry.id)!;
    expect({ step: after.step, outcome: after.outcome }).toEqual({ step: want.step, outcome: want.outcome });
    expect(after.nextRetryAt !== null).toBe(want.retried);
    if (want.retried) {
      // The first retry comes after about 2 s, not at once and not after the longest wait.
      const wait = Date.parse(after.nextRetryAt!) - Date.parse(after.createdAt);
      expect(wait).toBeGreaterThan(1000);
      expect(wait).toBeLessThan(60_000);
    }
    if (want.result === 'refused' || want.result === 'not_printed')
      expect(after.reasonCode ?? after.outcome).toBeTruthy();
    expect(await serviceState(deliveryId)).toBe(want.service);

    const jobs = rig.deps.repos.journal.jobIdsOfShipment(rig.session.accountId, deliveryId);
    expect(jobs).toHaveLength(want.jobs);
    // A label already made is never made again by a run.
    expect(jobs.slice(0, jobsBefore.length)).toEqual(jobsBefore);
    if (want.job) {
      const last = jobs[jobs.length - 1]!;
      if (want.job === 'failed') await waitFor(() => rig.deps.queue.get(last).state === 'failed');
      else if (want.job === 'done') await waitFor(() => rig.deps.queue.get(last).state === 'done');
      expect(rig.deps.queue.get(last).state).toBe(want.job);
      if (want.result === 'queued' && result.kind === 'queued') expect(result.jobs.map((j) => j.id)).toEqual(jobs);
    }
  });

  it('a waiting close runs again from the journal once the service answers: closed once, one label', async () => {
    const deliveryId = await prepared();
    const entry = await entryAt('resolved', deliveryId);
    await inject('close times out (no answer)');
    expect((await engine.run(session(), [entry])).get(entry.id)!.kind).toBe('waiting');
    await sandboxFault(sb, null);

    const again = (await engine.run(session(), [rig.deps.repos.journal.get(entry.id)!])).get(entry.id)!;
    expect(again.kind).toBe('queued');
    expect(rig.deps.repos.journal.get(entry.id)!.step).toBe('queued');
    expect(await serviceState(deliveryId)).toBe(CLOSED);
    expect(rig.deps.repos.journal.jobIdsOfShipment(rig.session.accountId, deliveryId)).toHaveLength(1);
  });
});
