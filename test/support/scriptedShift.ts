/**
 * A scripted shift at one desk, written through the station's own repositories at known times (the
 * times are given to each call, as the workflows pass their clock's time): two operators sign in
 * one after the other and scan 100 parcels between them; each parcel's journal steps (received,
 * resolved, close requested, closed, queued) and its label job's `done` come at the moments the
 * script says; one close is refused by the carrier, one closed parcel gets no labels (an error);
 * reprints with their reasons are desk actions, as the reprint command records them, one of them
 * with nobody signed in. The statistics tests compute what they expect from this script by hand.
 *
 * Alena (operator 1): 60 scans, scan i (0–59) at 08:00:00 + i min; carrier PPL for even i, DPD for
 *   odd; scan → closed (1 + i mod 10) s; closed → queued 0.5 s (PPL) or 1.5 s (DPD); queued →
 *   printed 3 s. Scan 15 (DPD) is refused by the carrier (never closed).
 *   Reprints: damaged at 08:30, lost at 08:45.
 * Bořek (operator 2): 40 scans, scan j (0–39) at 10:00:00 + 90 j s; PPL for j < 30, DPD after;
 *   scan → closed 2 s; closed → queued 1 s; queued → printed 2 s (PPL) or 5 s (DPD). Scan 5 (PPL)
 *   closes and ends with no labels (not printed: an error). Reprint: wrong printer at 10:30.
 * Nobody signed in: a reprint "other" at 12:00.
 */
import { createDeskOperator } from '../../electron/operators/deskOperator';
import type { Db } from '../../electron/store/database';
import { createDeskActionsRepo } from '../../electron/store/deskActionsRepo';
import { createJournalRepo } from '../../electron/store/journalRepo';
import { createPrintJobsRepo } from '../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../electron/store/scanLogRepo';

const SHIFT_ACCOUNT = 'shift-account';
const ALENA = { name: 'Alena Dvořáková', badge: '!LS-OP-ALENA' };
const BOREK = { name: 'Bořek Šťastný', badge: '!LS-OP-BOREK' };

/** A local time on the shift's day (the station's days are local days). */
export const at = (day: Date, h: number, m: number, s: number, ms = 0) =>
  new Date(day.getFullYear(), day.getMonth(), day.getDate(), h, m, s, ms);

interface Parcel {
  scanAt: Date;
  carrier: 'PPL' | 'DPD';
  toClosedMs: number;
  toQueuedMs: number;
  toPrintedMs: number;
  refused?: boolean;
  noLabels?: boolean;
}

/** The operators as the desk admin registers them (the operators' own part does this through its repo). */
export function registerOperator(db: Db, o: { name: string; badge: string }, when: Date): { id: number; name: string } {
  const id = Number(
    db
      .prepare('INSERT INTO operators (name, badge, pin_hash, created_at) VALUES (?, ?, NULL, ?)')
      .run(o.name, o.badge, when.toISOString()).lastInsertRowid,
  );
  return { id, name: o.name };
}

/** The shipment in the station's cache with its carrier (what a sync would have stored). */
function cacheShipment(db: Db, deliveryId: number, carrier: string, when: Date): void {
  db.prepare(
    `INSERT INTO shipments (account_id, delivery_id, state, agent, search_text, data, synced_at)
     VALUES (?, ?, 2, ?, ?, '{}', ?)`,
  ).run(SHIFT_ACCOUNT, deliveryId, carrier, `shift-${deliveryId}`, when.toISOString());
}

export function writeScriptedShift(db: Db, day: Date): { alena: number; borek: number } {
  const desk = createDeskOperator(() => 'Stůl 1');
  const scanLog = createScanLogRepo(db);
  const journal = createJournalRepo(db, scanLog, desk.who);
  const jobs = createPrintJobsRepo(db);
  const deskActions = createDeskActionsRepo(db, desk.who);
  const alena = registerOperator(db, ALENA, at(day, 7, 0, 0));
  const borek = registerOperator(db, BOREK, at(day, 7, 0, 0));
  let deliveryId = 5000;

  const run = (p: Parcel) => {
    const id = ++deliveryId;
    cacheShipment(db, id, p.carrier, p.scanAt);
    const { entry } = journal.receiveScans([
      { accountId: SHIFT_ACCOUNT, code: `SHIFT-${id}`, rawCode: null, at: p.scanAt },
    ])[0]!;
    journal.step([entry.id], 'resolved', p.scanAt, { deliveryId: id });
    journal.step([entry.id], 'close_requested', p.scanAt);
    const closedAt = new Date(p.scanAt.getTime() + p.toClosedMs);
    if (p.refused) {
      journal.step([entry.id], 'ended', closedAt, {
        outcome: 'rejected',
        reasonCode: 'carrier_rejected',
        reason: 'The carrier refused the parcel: the recipient’s phone number is missing.',
      });
      return;
    }
    journal.step([entry.id], 'closed', closedAt);
    if (p.noLabels) {
      journal.step([entry.id], 'ended', closedAt, {
        outcome: 'not_printed',
        reasonCode: 'no_labels',
        reason: `No labels came for shipment ${id}.`,
      });
      return;
    }
    const queuedAt = new Date(closedAt.getTime() + p.toQueuedMs);
    const job = jobs.insert(
      {
        kind: 'print',
        printerId: 'desk-zpl',
        format: 'zpl',
        payload: Buffer.from('^XA^XZ'),
        labelRef: `zpl:${id}`,
        title: `Label ${id}`,
        deliveryIds: [id],
        barcodes: [`PKG${id}`],
      },
      queuedAt,
    );
    journal.queued(entry.id, [job.id], queuedAt);
    jobs.setState(job.id, 'sending', queuedAt);
    jobs.setState(job.id, 'done', new Date(queuedAt.getTime() + p.toPrintedMs), { delivered: true });
  };

  desk.signIn(alena);
  for (let i = 0; i < 60; i++) {
    const ppl = i % 2 === 0;
    run({
      scanAt: at(day, 8, i, 0),
      carrier: ppl ? 'PPL' : 'DPD',
      toClosedMs: (1 + (i % 10)) * 1000,
      toQueuedMs: ppl ? 500 : 1500,
      toPrintedMs: 3000,
      refused: i === 15,
    });
    if (i === 30)
      deskActions.record({
        action: 'reprint',
        at: at(day, 8, 30, 30),
        accountId: SHIFT_ACCOUNT,
        deliveryId,
        reasonCode: 'damaged',
      });
    if (i === 45)
      deskActions.record({
        action: 'reprint',
        at: at(day, 8, 45, 30),
        accountId: SHIFT_ACCOUNT,
        deliveryId,
        reasonCode: 'lost',
      });
  }
  desk.signOut();
  desk.signIn(borek);
  for (let j = 0; j < 40; j++) {
    const ppl = j < 30;
    run({
      scanAt: at(day, 10, 0, j * 90),
      carrier: ppl ? 'PPL' : 'DPD',
      toClosedMs: 2000,
      toQueuedMs: 1000,
      toPrintedMs: ppl ? 2000 : 5000,
      noLabels: j === 5,
    });
    if (j === 20)
      deskActions.record({
        action: 'reprint',
        at: at(day, 10, 30, 30),
        accountId: SHIFT_ACCOUNT,
        deliveryId,
        reasonCode: 'wrong_printer',
      });
  }
  desk.signOut();
  deskActions.record({
    action: 'reprint',
    at: at(day, 12, 0, 0),
    accountId: SHIFT_ACCOUNT,
    deliveryId,
    reasonCode: 'other',
    note: 'smudged',
  });
  return { alena: alena.id, borek: borek.id };
}

/**
 * A short day's work: Alena (signed in) scans one parcel at 09:00:00, the service closes it 11 ms
 * later and its label prints; at 09:05 she scans it again (the already-closed prompt: a rescan).
 * Too little work for a rate: the statistics show no parcels an hour, one parcel, one rescan.
 */
export function writeQuickParcel(db: Db, day: Date, alena: { id: number; name: string }): void {
  const desk = createDeskOperator(() => 'Stůl 1');
  const scanLog = createScanLogRepo(db);
  const journal = createJournalRepo(db, scanLog, desk.who);
  const jobs = createPrintJobsRepo(db);
  const id = 9001;
  const scanAt = at(day, 9, 0, 0);
  const closedAt = at(day, 9, 0, 0, 11);
  cacheShipment(db, id, 'PPL', scanAt);
  desk.signIn(alena);
  const { entry } = journal.receiveScans([
    { accountId: SHIFT_ACCOUNT, code: `QUICK-${id}`, rawCode: null, at: scanAt },
  ])[0]!;
  journal.step([entry.id], 'resolved', scanAt, { deliveryId: id });
  journal.step([entry.id], 'close_requested', scanAt);
  journal.step([entry.id], 'closed', closedAt);
  const job = jobs.insert(
    {
      kind: 'print',
      printerId: 'desk-zpl',
      format: 'zpl',
      payload: Buffer.from('^XA^XZ'),
      labelRef: `zpl:${id}`,
      title: `Label ${id}`,
      deliveryIds: [id],
      barcodes: [`PKG${id}`],
    },
    closedAt,
  );
  journal.queued(entry.id, [job.id], closedAt);
  jobs.setState(job.id, 'sending', closedAt);
  jobs.setState(job.id, 'done', at(day, 9, 0, 2), { delivered: true });
  const rescanAt = at(day, 9, 5, 0);
  const again = journal.receiveScans([
    { accountId: SHIFT_ACCOUNT, code: `QUICK-${id}`, rawCode: null, at: rescanAt },
  ])[0]!;
  journal.step([again.entry.id], 'ended', rescanAt, { outcome: 'already_closed', deliveryId: id });
  desk.signOut();
}
