/**
 * The close-and-print machine's transitions (electron/workflows/closeAndPrint.ts), one test each:
 * from the journal step an entry is at (received is the scan runner's: test/unit/workflows/runScan.test.ts),
 * what the run answers and which step it commits, as docs/ARCHITECTURE.md ("A scan, step by step:
 * the journal") states them:
 *
 *   close_requested (sent before) ──read at the service──▶ closed / resolved again / ended
 *   resolved ──commit──▶ close_requested ──PATCH──▶ closed / waiting / ended
 *   closed ──labels (stored, else fetched) + routing──▶ queued (jobs, links, step: one commit) / waiting / ended
 *   queued, ended ──▶ answered from the journal
 *
 * Real parts: the journal, cache, labels and print queue in SQLite in a temporary folder, the
 * sandbox service on 127.0.0.1 (its injected faults stand for a service down or a carrier's
 * refusal), a virtual ZPL printer on a real TCP listener. One fake, where the sandbox cannot be
 * made to answer so: `fakeCloseAnswer`, a client that closes at the real sandbox and then answers
 * the close as told (a lost answer found closed by the search, a login that expired).
 * Every case of test/unit/workflows/closeAndPrint.test.ts (each start × each failure) holds too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/api/errors';
import type { CloseGroup } from '../../../electron/api/types';
import type { JournalEntry } from '../../../electron/store/journalRepo';
import { createCloseAndPrint, type CloseAndPrint, type EntryResult } from '../../../electron/workflows/closeAndPrint';
import type { WorkflowSession } from '../../../electron/workflows/workflowDeps';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import type { LabelRoute } from '../../../shared/contract/printing';
import { shipmentStates } from '../../../shared/contract/shipments';
import { shipment } from '../../integration/api/support';
import { waitFor } from '../../integration/printing/printingTestKit';
import { PDF_PRINTER, startRig, ZPL_PRINTER, type Rig } from '../../integration/workflows/workflowRig';
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
beforeEach(async () => {
  await sandboxFault(sb, null);
  rig.printer.set({ paperOut: false });
  rig.routes.defaultRoute = { format: 'zpl', printerId: ZPL_PRINTER };
});

const journal = () => rig.deps.repos.journal;
const session = (): WorkflowSession => rig.deps.session()!;
const now = () => new Date();
const ACCOUNT = () => rig.session.accountId;

/** A prepared shipment at the service, in the station's cache as well unless `cached` is false. */
async function prepared(cached = true): Promise<number> {
  const [d] = await rig.session.client.insertDeliveries([shipment({ recipient: recipientCz() })]);
  if (cached) rig.deps.recordDeliveries(ACCOUNT(), await rig.session.client.getDeliveriesByIds([d!.deliveryId]));
  return d!.deliveryId;
}

const recipientCz = () => ({
  type: 'address' as const,
  firstname: 'Jiří',
  surname: 'Dvořák',
  email: 'jiri@example.cz',
  phone: '+420 602 111 222',
  address: { street: 'Náměstí Míru 5', city: 'Brno', postalCode: '60200', state: 'CZ' },
});

async function closeAtService(deliveryId: number): Promise<void> {
  const s = rig.deps.repos.shipments.get(ACCOUNT(), deliveryId)!;
  await rig.session.client.closeDeliveries([{ deliveryId, agent: s.agent ?? '', sender: {} }]);
}

const serviceState = async (deliveryId: number) =>
  (await rig.session.client.getDeliveriesByIds([deliveryId]))[0]!.deliveryState;

/** A new entry that closes and prints (or only prints), moved on to `step` as a run stopped there would leave it. */
function entry(
  deliveryId: number,
  o: { want?: 'close_and_print' | 'print'; step?: 'close_requested' | 'closed'; route?: LabelRoute } = {},
): JournalEntry {
  const [e] = journal().begin(
    [
      {
        accountId: ACCOUNT(),
        source: 'shipments',
        deliveryId,
        want: o.want ?? 'close_and_print',
        route: o.route ?? null,
      },
    ],
    now(),
  );
  if (o.step === 'close_requested' || o.step === 'closed') journal().step([e!.id], 'close_requested', now());
  if (o.step === 'closed') journal().step([e!.id], 'closed', now());
  return journal().get(e!.id)!;
}

async function run(e: JournalEntry, notSent?: Set<number>, s: WorkflowSession = session()): Promise<EntryResult> {
  const r = (await engine.run(s, [journal().get(e.id)!], notSent)).get(e.id);
  if (!r) throw new Error('no result');
  return r;
}

const stepsOf = (e: JournalEntry) =>
  journal()
    .steps(e.id)
    .map((s) => s.step);
const after = (e: JournalEntry) => journal().get(e.id)!;
const jobsOf = (deliveryId: number) => journal().jobIdsOfShipment(ACCOUNT(), deliveryId);

/**
 * The fake: the real client, except that a close is made at the sandbox and then answered as
 * `answer` says (CloseOutcome in electron/api/types.ts: a lost answer whose search found it closed,
 * or an error the sandbox's faults cannot give).
 */
function fakeCloseAnswer(answer: (g: CloseGroup) => CloseGroup['outcome']): WorkflowSession {
  const client = rig.session.client;
  const fake = Object.create(client) as typeof client;
  fake.closeDeliveries = async (list) =>
    (await client.closeDeliveries(list)).map((g) => ({ ...g, outcome: answer(g) }));
  return { accountId: ACCOUNT(), client: fake };
}

describe('close_requested, sent before a stop: the service is read first', () => {
  it('closed at the service: closed (found by the read), its label held for the worker', async () => {
    const id = await prepared();
    const e = entry(id, { step: 'close_requested' });
    await closeAtService(id);
    const r = await run(e);
    expect(r.kind).toBe('queued');
    expect(
      journal()
        .steps(e.id)
        .find((s) => s.step === 'closed')?.reason_code,
    ).toBe('close_confirmed_by_search');
    const job = rig.deps.queue.get(jobsOf(id)[0]!);
    expect({ state: job.state, reasonCode: job.reasonCode }).toEqual({
      state: 'failed',
      reasonCode: 'held_closed_elsewhere',
    });
  });

  it('still prepared: close_requested committed again before the close goes out, closed once, printed', async () => {
    const id = await prepared();
    const e = entry(id, { step: 'close_requested' });
    expect((await run(e)).kind).toBe('queued');
    expect(stepsOf(e)).toEqual(['resolved', 'close_requested', 'close_requested', 'closed', 'queued']);
    expect(await serviceState(id)).toBe(shipmentStates.closedUnsent);
  });

  it('cancelled at the service: ended cancelled, nothing closed', async () => {
    const id = await prepared();
    const e = entry(id, { step: 'close_requested' });
    await rig.session.client.cancelDeliveries([id]);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'refused', close: { kind: 'cancelled' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'cancelled' });
  });

  it('the service cannot be read: waits at close_requested, tried again in about 2 s', async () => {
    const id = await prepared();
    const e = entry(id, { step: 'close_requested' });
    await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'GET', status: 503 });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'waiting', closed: false, shipment: { deliveryId: id } });
    expect(after(e)).toMatchObject({ step: 'close_requested', outcome: 'waiting' });
    expect(after(e).nextRetryAt).not.toBeNull();
  });

  it('committed with its scan (its close not sent yet): closed without a read or a second close_requested', async () => {
    const id = await prepared();
    const e = entry(id, { step: 'close_requested' });
    // A read would fail: the close goes out without one.
    await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'GET', status: 503 });
    const r = await run(e, new Set([e.id]));
    expect(r.kind).toBe('queued');
    expect(stepsOf(e)).toEqual(['resolved', 'close_requested', 'closed', 'queued']);
    expect(
      journal()
        .steps(e.id)
        .find((s) => s.step === 'closed')?.reason_code,
    ).toBeNull();
  });
});

describe('resolved: close_requested is committed, then the PATCH', () => {
  it('closed by the answer: resolved → close_requested → closed → queued, the label printed', async () => {
    const id = await prepared();
    const e = entry(id);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'queued', shipment: { deliveryId: id } });
    expect(stepsOf(e)).toEqual(['resolved', 'close_requested', 'closed', 'queued']);
    if (r.kind === 'queued') expect(r.jobs.map((j) => j.id)).toEqual(jobsOf(id));
    await waitFor(() => rig.deps.queue.get(jobsOf(id)[0]!).state === 'done');
  });

  it('its labels are asked for as soon as the close is answered: the cache row and the closed step are written while the request is out, queued after it', async () => {
    const id = await prepared();
    const e = entry(id);
    // The real client, watched: what the station's database says when the labels are asked for,
    // and one turn of the event loop later (the request's bytes written to its socket by then).
    const seen: { at: string; step: string; cached: number | undefined }[] = [];
    const look = (at: string) =>
      seen.push({ at, step: after(e).step, cached: rig.deps.repos.shipments.get(ACCOUNT(), id)?.state });
    const client = rig.session.client;
    const watched = Object.create(client) as typeof client;
    watched.getZpl = (list, o) => {
      look('asked');
      setImmediate(() => look('a turn later'));
      return client.getZpl(list, o);
    };
    const r = await run(e, undefined, { accountId: ACCOUNT(), client: watched });
    expect(seen).toEqual([
      { at: 'asked', step: 'close_requested', cached: shipmentStates.prepared },
      { at: 'a turn later', step: 'close_requested', cached: shipmentStates.prepared },
    ]);
    // On the disk in the journal's order, one job, and it carries the barcodes the close gave the
    // packages (spec: filled only after closing), not the prepared shipment's none.
    expect(stepsOf(e)).toEqual(['resolved', 'close_requested', 'closed', 'queued']);
    expect(r.kind).toBe('queued');
    const [atService] = await rig.session.client.getDeliveriesByIds([id]);
    const barcodes = atService!.packages.map((p) => p.barcode);
    expect(barcodes.every((b) => !!b)).toBe(true);
    expect(jobsOf(id).map((j) => rig.deps.queue.get(j).barcodes)).toEqual([barcodes]);
    await waitFor(() => rig.deps.queue.get(jobsOf(id)[0]!).state === 'done');
  });

  it('a parcel on the problem shelf that this station closes leaves the shelf', async () => {
    const id = await prepared();
    rig.deps.repos.shelf.hold(
      { accountId: ACCOUNT(), code: `ID-${id}`, deliveryId: id, reason: 'damaged', note: 'Roztržený obal' },
      now(),
    );
    await run(entry(id));
    expect(rig.deps.repos.shelf.ofParcel(ACCOUNT(), id, `ID-${id}`)).toBeNull();
  });

  it('not in the cache: read at the service, then closed', async () => {
    const id = await prepared(false);
    const e = entry(id);
    expect((await run(e)).kind).toBe('queued');
    expect(await serviceState(id)).toBe(shipmentStates.closedUnsent);
  });

  it('not in the cache and the service cannot be read: waits at resolved, nothing sent', async () => {
    const id = await prepared(false);
    const e = entry(id);
    await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'GET', status: 503 });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'waiting', shipment: null, closed: false });
    expect(after(e)).toMatchObject({ step: 'resolved', outcome: 'waiting' });
    await sandboxFault(sb, null);
    expect(await serviceState(id)).toBe(shipmentStates.prepared);
  });

  it('known neither to the station nor to the service: ended not_found', async () => {
    const e = entry(987_654_321);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'missing', error: { code: 'not_in_cache' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'not_found', reasonCode: 'not_in_cache' });
  });

  it('the service is down at the PATCH: waits at close_requested, tried again later', async () => {
    const id = await prepared();
    const e = entry(id);
    await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', status: 503 });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'waiting', closed: false, shipment: { deliveryId: id } });
    expect(after(e)).toMatchObject({ step: 'close_requested', outcome: 'waiting' });
    expect(after(e).nextRetryAt).not.toBeNull();
  });

  it('the login expired at the PATCH: waits at close_requested for a login, no retry time', async () => {
    const id = await prepared();
    const e = entry(id);
    const loggedOut = fakeCloseAnswer(() => ({
      status: 'rejected',
      error: new ServiceError('login_required', 'Přihlášení vypršelo.', { status: 401 }),
    }));
    const r = await run(e, undefined, loggedOut);
    expect(r).toMatchObject({ kind: 'waiting', closed: false, trouble: { kind: 'login' } });
    expect(after(e)).toMatchObject({ step: 'close_requested', outcome: 'waiting', nextRetryAt: null });
  });

  it('the answer lost, the search found it closed: closed (found by the search), its label held', async () => {
    const id = await prepared();
    const e = entry(id);
    const lost = fakeCloseAnswer((g) =>
      g.outcome.status === 'closed' ? { ...g.outcome, confirmedBy: 'search' } : g.outcome,
    );
    expect((await run(e, undefined, lost)).kind).toBe('queued');
    expect(
      journal()
        .steps(e.id)
        .find((s) => s.step === 'closed')?.reason_code,
    ).toBe('close_confirmed_by_search');
    expect(rig.deps.queue.get(jobsOf(id)[0]!).reasonCode).toBe('held_closed_elsewhere');
  });

  it('closed by another desk meanwhile: ended closed_elsewhere, nothing printed', async () => {
    const id = await prepared();
    const e = entry(id);
    await closeAtService(id); // the cache still says prepared
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'refused', close: { kind: 'closed_elsewhere' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'closed_elsewhere' });
    expect(jobsOf(id)).toEqual([]);
  });

  it('cancelled meanwhile: ended cancelled', async () => {
    const id = await prepared();
    const e = entry(id);
    await rig.session.client.cancelDeliveries([id]);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'refused', close: { kind: 'cancelled' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'cancelled' });
  });

  it("the carrier refuses: ended rejected with the carrier's words", async () => {
    const id = await prepared();
    const e = entry(id);
    await sandboxFault(sb, { path: '/api/v3/deliveries', method: 'PATCH', carrierReject: true, count: 1 });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'refused', close: { kind: 'rejected', status: 422 } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'rejected', reasonCode: 'carrier_rejected' });
    expect(await serviceState(id)).toBe(shipmentStates.prepared);
  });
});

describe('closed: the labels, routed, become print jobs with the queued step in one commit', () => {
  it('labels fetched in the route format and kept for a reprint', async () => {
    const id = await prepared();
    const e = entry(id, { want: 'print', step: 'closed' });
    await closeAtService(id);
    expect((await run(e)).kind).toBe('queued');
    expect(rig.deps.repos.labels.allFor(ACCOUNT(), id).map((d) => d.variant.format)).toEqual(['zpl']);
    expect(rig.deps.queue.get(jobsOf(id)[0]!)).toMatchObject({ printerId: ZPL_PRINTER, format: 'zpl' });
  });

  it('labels kept before: printed from them, the service not asked', async () => {
    const id = await prepared();
    await run(entry(id));
    const e = entry(id, { want: 'print' });
    await sandboxFault(sb, { path: '/api/v3/deliveries/zpl', status: 503 });
    expect((await run(e)).kind).toBe('queued');
    expect(after(e).step).toBe('queued');
  });

  it('the route the worker chose: its printer and format, not the station rules', async () => {
    const id = await prepared();
    const route: LabelRoute = { format: 'pdf-a4', printerId: PDF_PRINTER, position: 2 };
    const e = entry(id, { route });
    expect((await run(e)).kind).toBe('queued');
    expect(rig.deps.queue.get(jobsOf(id)[0]!)).toMatchObject({ printerId: PDF_PRINTER, format: 'pdf' });
  });

  it('a label still waiting in the queue is replaced by the new one, and its scan follows the new job', async () => {
    const id = await prepared();
    rig.printer.set({ paperOut: true });
    const first = entry(id);
    await run(first);
    const old = jobsOf(id)[0]!;
    const again = entry(id, { want: 'print' });
    await run(again);
    expect(rig.deps.queue.get(old)).toMatchObject({ state: 'cancelled', reasonCode: 'replaced_by_new_print' });
    const fresh = journal().jobIdsOf(again.id);
    expect(journal().jobIdsOf(first.id)).toEqual(expect.arrayContaining(fresh));
  });

  it('the labels cannot be fetched (service down): waits at closed, the shipment closed', async () => {
    const id = await prepared();
    const e = entry(id, { want: 'print', step: 'closed' });
    await closeAtService(id);
    await sandboxFault(sb, { path: '/api/v3/deliveries/zpl', status: 503 });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'waiting', closed: true, shipment: { deliveryId: id } });
    expect(after(e)).toMatchObject({ step: 'closed', outcome: 'waiting' });
  });

  it('no printer is set for the carrier: ended not_printed with the reason', async () => {
    const id = await prepared();
    rig.routes.defaultRoute = null;
    const e = entry(id);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'not_printed', error: { code: 'no_printer_route' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'not_printed', reasonCode: 'no_printer_route' });
    expect(await serviceState(id)).toBe(shipmentStates.closedUnsent);
  });

  it('the shipment is known neither to the station nor to the service: ended not_found', async () => {
    const e = entry(987_654_322, { want: 'print', step: 'closed' });
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'missing', error: { code: 'not_in_cache' } });
    expect(after(e)).toMatchObject({ step: 'ended', outcome: 'not_found' });
  });
});

describe('queued or ended: answered from the journal, nothing sent', () => {
  it('queued: its jobs as they are', async () => {
    const id = await prepared();
    const e = entry(id);
    await run(e);
    await sandboxFault(sb, { path: '/api/v3/deliveries', status: 503, count: 5 });
    const r = await run(e);
    expect(r.kind).toBe('queued');
    if (r.kind === 'queued') expect(r.jobs.map((j) => j.id)).toEqual(jobsOf(id));
    expect(jobsOf(id)).toHaveLength(1);
  });

  it('ended not_printed: not printed, with its reason', async () => {
    const id = await prepared();
    rig.routes.defaultRoute = null;
    const e = entry(id);
    await run(e);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'not_printed', error: { code: 'no_printer_route' } });
  });

  it('ended otherwise: missing, with the reason it ended on', async () => {
    const id = await prepared();
    const e = entry(id);
    await rig.session.client.cancelDeliveries([id]);
    await run(e);
    const r = await run(e);
    expect(r).toMatchObject({ kind: 'missing', error: { code: 'unexpected' } });
    if (r.kind === 'missing') expect(r.error.message).toContain('cancelled');
  });

  it('an entry another run holds is left to it: no result, its step unchanged', async () => {
    const id = await prepared();
    const e = entry(id);
    journal().claim([e.id]);
    try {
      expect((await engine.run(session(), [e])).has(e.id)).toBe(false);
      expect(after(e).step).toBe('resolved');
    } finally {
      journal().release([e.id]);
    }
  });
});
