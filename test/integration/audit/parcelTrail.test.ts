/**
 * A parcel's audit trail through the contract, from a real desk: the composed station behind its
 * web host (calls over the page's socket), a real sandbox, the built-in virtual ZPL printer and a
 * virtual MT-SICS scale. Jana scans ORD-1001, it is weighed 2.418 kg (the service held 2.3: the
 * weight is corrected), closed, printed and its label checked; Petr reprints it (damaged), then
 * Jana (other, in her words). The trail the Shipments detail shows lists every step in order with
 * the right person and desk; the print queue's "send again now" and "cancel" are recorded with
 * whoever pressed them.
 */
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrailStep } from '../../../shared/contract/audit';
import type { JobView } from '../../../shared/contract/printing';
import type { ScanOutcome } from '../../../shared/contract/workflows';
import { startVirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import { needs } from '../../support/services';
import { waitFor } from '../printing/printingTestKit';
import { startScaleDesk, type ScaleDesk } from '../scale/scaleDesk';

const run = needs('socat');
let desk: ScaleDesk;
let jana: { id: number; name: string };
let petr: { id: number; name: string };
let deliveryId = 0;
const call = (method: string, params: unknown) => desk.call(method, params);

/** Scans a code and puts `kg` on the scale when the station asks; the scan's last outcome. */
async function scanAndWeigh(code: string, kg: string): Promise<ScanOutcome> {
  const { events, vs } = desk;
  const from = events.length;
  await vs.shown({ state: 'stable', text: '0.000 kg' });
  const { scanId } = (await call('scan.submit', { code })) as { scanId: number };
  await waitFor(() => events.slice(from).some((e) => e.name === 'scale.weighing' && e.payload !== null), 10_000);
  vs.show({ state: 'moving', text: `${kg} kg` });
  await new Promise((r) => setTimeout(r, 100));
  vs.show({ state: 'stable', text: `${kg} kg` });
  const outcomes = () =>
    events
      .slice(from)
      .filter((e) => e.name === 'scan.outcome' && (e.payload as ScanOutcome).scanId === scanId)
      .map((e) => e.payload as ScanOutcome);
  await waitFor(() => outcomes().some((o) => o.kind !== 'queued'), 20_000);
  vs.show({ state: 'stable', text: '0.000 kg' });
  return outcomes().pop()!;
}

const jobsOf = async (id: number) =>
  ((await call('printing.queue.list', { limit: 100 })) as JobView[])
    .filter((j) => j.deliveryIds.includes(id))
    .sort((a, b) => a.id - b.id);
const stateOf = (jobId: number) => desk.hs.station.printing.queue.get(jobId).state;

/** A reprint from the print queue with its reason: the queue records it with whoever is signed in. */
async function reprintWithReason(jobId: number, code: 'damaged' | 'other', note: string | null): Promise<JobView> {
  const why = note ? { code, note } : { code };
  const copy = (await call('printing.queue.reprint', { jobId, why })) as JobView;
  await waitFor(() => stateOf(copy.id) === 'done', 15_000);
  return copy;
}

beforeAll(async () => {
  if (!run) return;
  desk = await startScaleDesk({ verifyLabels: true });
  // Two workers registered at this station (the operators screen's rows).
  const db = new Database(path.join(desk.hs.dataDir, 'station.db'));
  const add = db.prepare('INSERT INTO operators (name, badge, created_at) VALUES (?, ?, ?)');
  jana = {
    id: Number(add.run('Jana Nováková', 'OP-1', new Date().toISOString()).lastInsertRowid),
    name: 'Jana Nováková',
  };
  petr = { id: Number(add.run('Petr Dvořák', 'OP-2', new Date().toISOString()).lastInsertRowid), name: 'Petr Dvořák' };
  db.close();
}, 60_000);

afterAll(async () => {
  await desk?.close();
});

/** What a reader of the trail checks: the step, who, where, and its details. */
const readable = (s: TrailStep) => ({
  step: s.step,
  who: s.operator?.name ?? null,
  desk: s.desk,
  ...(s.code ? { code: s.code } : {}),
  ...(s.source && s.step === 'print_asked' ? { source: s.source } : {}),
  ...(s.printer ? { printer: s.printer } : {}),
  ...(s.outcome ? { outcome: s.outcome } : {}),
  ...(s.reasonCode ? { reason: s.reasonCode } : {}),
  ...(s.note && s.step === 'reprint' ? { note: s.note } : {}),
  ...(s.kg ? { kg: s.kg, package: s.packageNumber } : {}),
});

describe.skipIf(!run)('the audit trail of a parcel (virtual scale, sandbox, virtual ZPL printer)', () => {
  it('scanned, weighed, closed, printed, checked and reprinted twice by two people: every step in order, with who and where', async () => {
    const { deps } = desk.hs.station;
    deps.desk.signIn(jana);
    const outcome = await scanAndWeigh('ORD-1001', '2.418');
    expect(outcome.kind).toBe('printed');
    const d = await desk.atService('ORD-1001');
    deliveryId = d.deliveryId;
    expect(await call('verify.check', { code: d.packages[0]!.barcode })).toMatchObject({ kind: 'match' });
    const [first] = await jobsOf(deliveryId);
    deps.desk.signOut();

    deps.desk.signIn(petr);
    const copy1 = await reprintWithReason(first!.id, 'damaged', null);
    deps.desk.signOut();
    deps.desk.signIn(jana);
    await reprintWithReason(copy1.id, 'other', 'Štítek se roztrhl');
    deps.desk.signOut();

    const trail = (await call('shipments.trail', { deliveryId })) as TrailStep[];
    const here = os.hostname();
    const J = { who: 'Jana Nováková', desk: here };
    const P = { who: 'Petr Dvořák', desk: here };
    const zebra = 'Virtual label printer (ZPL)';
    expect(trail.map(readable)).toEqual([
      { step: 'scanned', ...J, code: 'ORD-1001' },
      { step: 'weight_taken', ...J, outcome: 'scale', kg: '2.418', package: 1 },
      { step: 'weight_corrected', ...J },
      { step: 'close_requested', ...J },
      { step: 'closed', ...J },
      { step: 'label_queued', ...J },
      { step: 'print', ...J, printer: zebra, outcome: 'done' },
      { step: 'label_verified', ...J },
      { step: 'reprint', ...P, printer: zebra, reason: 'damaged' },
      { step: 'print_asked', ...P, source: 'reprint' },
      { step: 'label_queued', ...P },
      { step: 'print', ...P, printer: zebra, outcome: 'done' },
      { step: 'reprint', ...J, printer: zebra, reason: 'other', note: 'Štítek se roztrhl' },
      { step: 'print_asked', ...J, source: 'reprint' },
      { step: 'label_queued', ...J },
      { step: 'print', ...J, printer: zebra, outcome: 'done' },
    ]);
    // Oldest first, each at a time of its own or later.
    const times = trail.map((s) => s.at);
    expect([...times].sort()).toEqual(times);
    // The page's input is checked by the core.
    await expect(call('shipments.trail', { deliveryId: 'ORD-1001' })).rejects.toThrow(/invalid_params/);
  }, 90_000);

  it('"send again now" and "cancel" in the print queue are recorded with the operator who pressed them', async () => {
    const { deps, printing } = desk.hs.station;
    const printer = printing.virtual.zpl;
    const [last] = (await jobsOf(deliveryId)).slice(-1);
    printer.set({ paperOut: true });
    // The printer's last all-clear answer goes stale (the station trusts one under 50 ms old): the copy finds it out of labels before sending.
    await new Promise((r) => setTimeout(r, 300));
    try {
      deps.desk.signIn(petr);
      const copy = (await call('printing.queue.reprint', { jobId: last!.id, why: { code: 'lost' } })) as JobView;
      await waitFor(() => stateOf(copy.id) === 'failed', 15_000);
      await call('printing.queue.retryNow', { jobId: copy.id });
      await waitFor(() => stateOf(copy.id) === 'failed', 15_000);
      deps.desk.signOut();
      deps.desk.signIn(jana);
      await call('printing.queue.cancel', { jobId: copy.id });
      deps.desk.signOut();
      expect(stateOf(copy.id)).toBe('cancelled');

      const accountId = desk.hs.station.accounts.active()!.id;
      const actions = deps.repos.deskActions
        .ofDelivery(accountId, deliveryId)
        .filter((a) => a.action !== 'reprint')
        .map((a) => ({
          action: a.action,
          operatorId: a.operatorId,
          desk: a.desk,
          jobId: a.jobId,
          entry: a.entryId !== null,
        }));
      expect(actions).toEqual([
        { action: 'job_retried', operatorId: petr.id, desk: os.hostname(), jobId: copy.id, entry: true },
        { action: 'job_cancelled', operatorId: jana.id, desk: os.hostname(), jobId: copy.id, entry: true },
      ]);
      // The trail names them too: the reprint that made the copy, then the copy's failure, the retry, the cancel.
      const tail = ((await call('shipments.trail', { deliveryId })) as TrailStep[])
        .filter((s) => s.jobId === copy.id)
        .map((s) => [s.step, s.operator?.name ?? null, s.outcome]);
      expect(tail).toEqual([
        ['reprint', 'Petr Dvořák', null],
        ['print', 'Petr Dvořák', 'failed'],
        ['job_retried', 'Petr Dvořák', null],
        ['print', 'Petr Dvořák', 'failed'],
        ['job_cancelled', 'Jana Nováková', null],
        ['print', 'Petr Dvořák', 'cancelled'],
      ]);
    } finally {
      printer.set({ paperOut: false });
    }
  }, 60_000);

  it('"move to another printer" and "it printed" in the print queue are recorded with the operator who pressed them', async () => {
    const { deps, printing } = desk.hs.station;
    const builtIn = printing.virtual.zpl;
    const other = await startVirtualZplPrinter();
    await call('printing.printers.save', {
      id: 'desk-second',
      name: 'Druhá Zebra',
      connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: other.port },
      settings: printerSettings.parse({}),
    });
    const [last] = (await jobsOf(deliveryId)).slice(-1);
    builtIn.set({ paperOut: true });
    // The printer's last all-clear answer goes stale (the station trusts one under 50 ms old).
    await new Promise((r) => setTimeout(r, 300));
    try {
      deps.desk.signIn(petr);
      const copy = (await call('printing.queue.reprint', { jobId: last!.id, why: { code: 'damaged' } })) as JobView;
      await waitFor(() => stateOf(copy.id) === 'failed', 15_000);
      deps.desk.signOut();
      deps.desk.signIn(jana);
      await call('printing.queue.move', { jobId: copy.id, printerId: 'desk-second' });
      await waitFor(() => stateOf(copy.id) === 'done', 15_000);
      expect(other.printed()).toHaveLength(1);

      // Its copy on the same printer, which takes it but never confirms it (it stops reading): the worker saw it come out.
      other.set({ neverRead: true });
      const unconfirmed = (await call('printing.queue.reprint', {
        jobId: copy.id,
        why: { code: 'other', note: 'Zmačkaný štítek' },
      })) as JobView;
      await waitFor(() => stateOf(unconfirmed.id) === 'unconfirmed', 20_000);
      deps.desk.signOut();
      deps.desk.signIn(petr);
      await call('printing.queue.markPrinted', { jobId: unconfirmed.id });
      deps.desk.signOut();

      const accountId = desk.hs.station.accounts.active()!.id;
      const mine = deps.repos.deskActions
        .ofDelivery(accountId, deliveryId)
        .filter((a) => a.action === 'job_moved' || a.action === 'job_marked_printed')
        .map((a) => [a.action, a.operatorId, a.jobId]);
      expect(mine).toEqual([
        ['job_moved', jana.id, copy.id],
        ['job_marked_printed', petr.id, unconfirmed.id],
      ]);
      const trail = (await call('shipments.trail', { deliveryId })) as TrailStep[];
      expect(
        trail
          .filter((t) => t.step === 'job_moved' || t.step === 'job_marked_printed')
          .map((t) => [t.step, t.operator?.name, t.jobId]),
      ).toEqual([
        ['job_moved', 'Jana Nováková', copy.id],
        ['job_marked_printed', 'Petr Dvořák', unconfirmed.id],
      ]);
    } finally {
      builtIn.set({ paperOut: false });
      await call('printing.printers.remove', { printerId: 'desk-second' });
      await other.close();
    }
  }, 90_000);
});
