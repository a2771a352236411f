/**
 * The statistics of real scans: the workflow rig (a real sandbox, the station's journal, the print
 * queue and a virtual ZPL printer) with its clock held by the test, so every step of a scan happens
 * at the moment the test set; two operators signed in one after the other (deps.desk.signIn, as
 * the sign-in does), a carrier's refusal, a reprint with its reason, a scan with nobody signed in.
 * What the workflows record is what the statistics read: expected figures worked out by hand below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/base/clock';
import { deskStatistics } from '../../../electron/statistics/deskStatistics';
import { createStatisticsRepo } from '../../../electron/store/statisticsRepo';
import { statisticsRange } from '../../../shared/contract/statistics';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { startRig, type Rig } from '../workflows/workflowRig';
import { at, registerOperator } from '../../support/scriptedShift';

const day = new Date(2026, 3, 7);
let t = at(day, 8, 0, 0);
/** On: every reading of the clock is a millisecond after the last, so a scan's close comes a few ms after it. */
let ticking = false;
const clock: Clock = {
  now: () => (ticking ? (t = new Date(t.getTime() + 1)) : new Date(t)),
  setInterval: systemClock.setInterval,
};

let sb: Sandbox;
let rig: Rig;
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb, { clock });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});

async function scanAt(h: number, m: number, over: Parameters<typeof shipment>[0] = {}) {
  const [d] = await rig.session.client.insertDeliveries([shipment(over)]);
  t = at(day, h, m, 0);
  return rig.workflows.scanToClose.scan(d!.externalId!);
}

describe('statistics of scans through the real workflow', () => {
  it('count each operator’s parcels, labels, refusals, reprints and rate from what the scans recorded', async () => {
    const alena = registerOperator(rig.db, { name: 'Alena Dvořáková', badge: '!LS-OP-A' }, t);
    const borek = registerOperator(rig.db, { name: 'Bořek Šťastný', badge: '!LS-OP-B' }, t);

    rig.deps.desk.signIn(alena);
    expect((await scanAt(9, 0, { packages: [{ weight: '1' }, { weight: '2' }] })).kind).toBe('printed');
    expect((await scanAt(9, 20)).kind).toBe('printed');
    expect((await scanAt(9, 40)).kind).toBe('printed');
    t = at(day, 9, 45, 0);
    rig.deps.repos.deskActions.record({ action: 'reprint', at: clock.now(), reasonCode: 'damaged' });
    rig.deps.desk.signOut();

    rig.deps.desk.signIn(borek);
    expect((await scanAt(10, 10)).kind).toBe('printed');
    const refused = await scanAt(10, 30, { recipient: { ...shipment().recipient, surname: 'REJECT' } });
    expect(refused.kind).toBe('carrier_rejected');
    expect((await scanAt(11, 0)).kind).toBe('printed');
    rig.deps.desk.signOut();
    expect((await scanAt(11, 30)).kind).toBe('printed');

    const s = deskStatistics(
      createStatisticsRepo(rig.db),
      statisticsRange.parse({ from: '2026-04-07', to: '2026-04-07' }),
    );
    const of = (scope: number | 'nobody') => s.operators.find((o) => o.scope === scope)!;
    // Alena: 3 parcels, all closed and printed; labels 2 + 1 + 1 = 4; 3 closed in 09:00 → 09:40 (2/3 h) = 4.5 an hour.
    expect(of(alena.id)).toMatchObject({
      parcels: 3,
      closed: 3,
      printed: 3,
      labels: 4,
      reprints: { damaged: 1, lost: 0, wrong_printer: 0, other: 0 },
      refusals: 0,
      errors: 0,
      perHour: 4.5,
    });
    // Bořek: 3 parcels, the REJECT one refused; 2 closed in 10:10 → 11:00 (5/6 h) = 2.4 an hour.
    expect(of(borek.id)).toMatchObject({ parcels: 3, closed: 2, printed: 2, labels: 2, refusals: 1, errors: 0 });
    expect(of(borek.id).perHour).toBeCloseTo(2.4, 9);
    // Nobody: one parcel, first scan = last close: no rate.
    expect(of('nobody')).toMatchObject({ parcels: 1, closed: 1, printed: 1, labels: 1, perHour: null });
    // Everyone: 6 closed in 09:00 → 11:30 (2.5 h) = 2.4 an hour.
    expect(s.total).toMatchObject({ parcels: 7, closed: 6, printed: 6, labels: 7, refusals: 1 });
    expect(s.total.perHour).toBeCloseTo(2.4, 9);
    const hour = (h: number) => Object.fromEntries(s.hours[h]!.closed.map((c) => [String(c.scope), c.closed]));
    expect(hour(9)).toEqual({ [alena.id]: 3, [borek.id]: 0, nobody: 0 });
    expect(hour(10)).toEqual({ [alena.id]: 0, [borek.id]: 1, nobody: 0 });
    expect(hour(11)).toEqual({ [alena.id]: 0, [borek.id]: 1, nobody: 1 });
    // The clock stood still during each scan: every step took 0 ms, and each closed parcel has all three
    // steps (scan → closed, closed → queued, queued → printed), under the carrier it was sent with (NP).
    expect(s.steps.filter((x) => x.scope === alena.id && x.carrier === 'NP')).toEqual([
      { scope: alena.id, carrier: 'NP', step: 'scan_to_closed', count: 3, p50Ms: 0, p95Ms: 0 },
      { scope: alena.id, carrier: 'NP', step: 'closed_to_queued', count: 3, p50Ms: 0, p95Ms: 0 },
      { scope: alena.id, carrier: 'NP', step: 'queued_to_printed', count: 3, p50Ms: 0, p95Ms: 0 },
    ]);
    expect(
      s.steps.find((x) => x.scope === 'everyone' && x.carrier === null && x.step === 'queued_to_printed')?.count,
    ).toBe(6);
  });

  it('give no rate for a few milliseconds of work and count a rescanned parcel once, as a rescan', async () => {
    const nextDay = new Date(2026, 3, 8);
    const cyril = registerOperator(rig.db, { name: 'Cyril Čermák', badge: '!LS-OP-C' }, t);
    const stats = () =>
      deskStatistics(createStatisticsRepo(rig.db), statisticsRange.parse({ from: '2026-04-08', to: '2026-04-08' }));
    rig.deps.desk.signIn(cyril);
    ticking = true;
    const [d] = await rig.session.client.insertDeliveries([shipment({})]);
    t = at(nextDay, 9, 0, 0);
    expect((await rig.workflows.scanToClose.scan(d!.externalId!)).kind).toBe('printed');
    // One parcel closed milliseconds after its scan: too little work for a pace (it was 300,000+ an hour).
    expect(stats().total).toMatchObject({ parcels: 1, closed: 1, perHour: null });

    // The same parcel scanned again five minutes later and its label reprinted: still one parcel.
    t = at(nextDay, 9, 5, 0);
    const again = await rig.workflows.scanToClose.scan(d!.externalId!);
    expect(again.kind).toBe('already_closed');
    const reprinted = await rig.workflows.scanToClose.reprint({
      deliveryId: d!.deliveryId,
      scanId: again.scanId,
      why: { code: 'damaged' },
    });
    expect(reprinted.kind).toBe('printed');
    const of = stats().operators.find((o) => o.scope === cyril.id)!;
    expect(of).toMatchObject({
      parcels: 1,
      rescans: 1,
      closed: 1,
      printed: 1,
      reprints: { damaged: 1, lost: 0, wrong_printer: 0, other: 0 },
    });
    expect(stats().total).toMatchObject({ parcels: 1, rescans: 1, closed: 1 });
    // The chart agrees: one parcel closed at nine.
    expect(stats().hours[9]!.closed.find((c) => c.scope === cyril.id)!.closed).toBe(1);

    // A second parcel twenty minutes after the first scan: 2 closed in 1/3 h = 6 an hour (the clock's ms aside).
    const [d2] = await rig.session.client.insertDeliveries([shipment({})]);
    t = at(nextDay, 9, 20, 0);
    expect((await rig.workflows.scanToClose.scan(d2!.externalId!)).kind).toBe('printed');
    ticking = false;
    expect(stats().total.parcels).toBe(2);
    expect(stats().total.perHour).toBeCloseTo(6, 2);
    rig.deps.desk.signOut();
  });
});
