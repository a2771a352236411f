/**
 * The audit trail of a parcel from a scripted desk with known times: a scan by Jana, weighed and
 * corrected, closed, printed at the Zebra by the window and checked; reprinted by Petr (damaged)
 * after Jana signed out; a job Petr sent again and Jana cancelled. Every figure the test expects is
 * written by hand here: the steps in order, who, which desk, which printer, what came out, and the
 * CSV of the day (read back with csv-parse) in Prague time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createAuditHandlers } from '../../../electron/audit/auditHandlers';
import { createJobActionRecorder } from '../../../electron/audit/jobActions';
import { createDeskOperator } from '../../../electron/operators/deskOperator';
import { createAuditTrailRepo } from '../../../electron/store/auditTrailRepo';
import { openDatabase } from '../../../electron/store/database';
import { createDeskActionsRepo } from '../../../electron/store/deskActionsRepo';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createWeighRepo } from '../../../electron/store/weighRepo';
import { auditMethods } from '../../../shared/contract/audit';
import { statisticsCsvColumns } from '../../../shared/contract/statistics';
import { statisticsCsv } from '../../../electron/statistics/statisticsCsv';

const at = (hms: string, day = '2026-11-26') => new Date(`${day}T${hms}Z`);

function scriptedDesk() {
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'audit-trail-')), 'station.db'));
  const add = db.prepare('INSERT INTO operators (name, badge, created_at) VALUES (?, ?, ?)');
  const jana = {
    id: Number(add.run('Jana Nováková', 'OP-1', at('06:00:00').toISOString()).lastInsertRowid),
    name: 'Jana Nováková',
  };
  const petr = {
    id: Number(add.run('Petr Dvořák', 'OP-2', at('06:00:00').toISOString()).lastInsertRowid),
    name: 'Petr Dvořák',
  };
  db.prepare(
    `INSERT INTO printers (id, name, connection, settings, created_at, updated_at) VALUES ('zebra-1', 'Zebra u okna', '{"kind":"zpl-tcp","host":"10.0.0.9","port":9100}', '{}', ?, ?)`,
  ).run(at('06:00:00').toISOString(), at('06:00:00').toISOString());
  const desk = createDeskOperator(() => 'Balicí stůl 3');
  const journal = createJournalRepo(db, createScanLogRepo(db), desk.who);
  const deskActions = createDeskActionsRepo(db, desk.who);
  const jobs = createPrintJobsRepo(db);
  const weights = createWeighRepo(db);
  const trail = createAuditTrailRepo(db);
  const recordJobAction = createJobActionRecorder({ deskActions, trail });
  const label = (deliveryId: number, now: Date) =>
    jobs.insert(
      {
        kind: 'print',
        printerId: 'zebra-1',
        format: 'zpl',
        payload: Buffer.from('^XA^XZ'),
        title: 'label',
        deliveryIds: [deliveryId],
      },
      now,
    );

  // 08:00 Jana scans ORD-1001 (the scanner sends a prefix), it is weighed 2.418 kg, corrected, closed, printed, checked.
  desk.signIn(jana);
  const { entry } = journal.receiveScan({
    accountId: 'acc',
    code: 'ORD-1001',
    rawCode: '#ORD-1001',
    at: at('08:00:00'),
  });
  journal.step([entry.id], 'resolved', at('08:00:01'), { deliveryId: 1001 });
  weights.recordWeight(entry.id, {
    packageIndex: 0,
    kg: '2.418',
    reading: '2.418 kg',
    source: 'scale',
    at: at('08:00:04').toISOString(),
  });
  journal.note(entry.id, 'weighed', at('08:00:05'), 'weight_updated');
  journal.step([entry.id], 'close_requested', at('08:00:05'));
  journal.step([entry.id], 'closed', at('08:00:06'));
  const first = label(1001, at('08:00:07'));
  journal.queued(entry.id, [first.id], at('08:00:07'));
  jobs.setState(first.id, 'sending', at('08:00:08'));
  jobs.setState(first.id, 'done', at('08:00:09'));
  journal.note(entry.id, 'label_expected', at('08:00:09'));
  journal.note(entry.id, 'label_verified', at('08:00:15'));
  desk.signOut();

  // 08:10 Petr reprints it: damaged (the reprint's entry and its copy, as the queue's reprint makes them).
  desk.signIn(petr);
  deskActions.record({
    action: 'reprint',
    at: at('08:10:00'),
    accountId: 'acc',
    deliveryId: 1001,
    jobId: first.id,
    reasonCode: 'damaged',
  });
  const [again] = journal.begin(
    [{ accountId: 'acc', source: 'reprint', deliveryId: 1001, want: 'print' }],
    at('08:10:00'),
  );
  const copy = label(1001, at('08:10:00'));
  journal.queued(again!.id, [copy.id], at('08:10:00'));
  // The printer was out of labels: the copy failed twice (one line), Petr sent it again, Jana cancelled it.
  jobs.setState(copy.id, 'failed', at('08:10:01'), {
    reasonCode: 'paper_out',
    reason: 'Out of labels.',
    nextRetryAt: at('08:10:03').toISOString(),
  });
  jobs.setState(copy.id, 'failed', at('08:10:03'), {
    reasonCode: 'paper_out',
    reason: 'Out of labels.',
    nextRetryAt: at('08:10:07').toISOString(),
  });
  const retried = jobs.setState(copy.id, 'queued', at('08:11:00'), { reasonCode: 'retry_by_worker' });
  recordJobAction('job_retried', retried);
  jobs.setState(copy.id, 'failed', at('08:11:01'), {
    reasonCode: 'paper_out',
    reason: 'Out of labels.',
    nextRetryAt: at('08:11:03').toISOString(),
  });
  desk.signOut();
  desk.signIn(jana);
  const cancelled = jobs.setState(copy.id, 'cancelled', at('08:12:00'), { reasonCode: 'cancelled_by_worker' });
  recordJobAction('job_cancelled', cancelled);
  desk.signOut();

  // The next day, nobody signed in: ORD-1002 scanned (not in the 26th's CSV).
  journal.receiveScan({ accountId: 'acc', code: 'ORD-1002', rawCode: null, at: at('07:00:00', '2026-11-27') });
  return { trail, jana, petr, first, copy };
}

describe('the audit trail of a parcel', () => {
  it('every step in order, with its desk, its operator, its printer and what came out', () => {
    const { trail, jana, petr, first, copy } = scriptedDesk();
    const steps = trail.ofDelivery('acc', 1001).map((s) => ({
      at: s.at.slice(11, 19),
      step: s.step,
      who: s.operator?.name ?? null,
      desk: s.desk,
      ...(s.code ? { code: s.code } : {}),
      ...(s.jobId ? { job: s.jobId } : {}),
      ...(s.printer ? { printer: s.printer } : {}),
      ...(s.outcome ? { outcome: s.outcome } : {}),
      ...(s.reasonCode ? { reason: s.reasonCode } : {}),
      ...(s.kg ? { kg: s.kg, package: s.packageNumber } : {}),
    }));
    const J = { who: jana.name, desk: 'Balicí stůl 3' };
    const P = { who: petr.name, desk: 'Balicí stůl 3' };
    expect(steps).toEqual([
      { at: '08:00:00', step: 'scanned', ...J, code: '#ORD-1001' },
      { at: '08:00:04', step: 'weight_taken', ...J, outcome: 'scale', kg: '2.418', package: 1 },
      { at: '08:00:05', step: 'weight_corrected', ...J },
      { at: '08:00:05', step: 'close_requested', ...J },
      { at: '08:00:06', step: 'closed', ...J },
      { at: '08:00:07', step: 'label_queued', ...J },
      { at: '08:00:09', step: 'print', ...J, job: first.id, printer: 'Zebra u okna', outcome: 'done' },
      { at: '08:00:15', step: 'label_verified', ...J },
      { at: '08:10:00', step: 'reprint', ...P, job: first.id, printer: 'Zebra u okna', reason: 'damaged' },
      { at: '08:10:00', step: 'print_asked', ...P },
      { at: '08:10:00', step: 'label_queued', ...P },
      {
        at: '08:10:01',
        step: 'print',
        ...P,
        job: copy.id,
        printer: 'Zebra u okna',
        outcome: 'failed',
        reason: 'paper_out',
      },
      { at: '08:11:00', step: 'job_retried', ...P, job: copy.id, printer: 'Zebra u okna' },
      {
        at: '08:11:01',
        step: 'print',
        ...P,
        job: copy.id,
        printer: 'Zebra u okna',
        outcome: 'failed',
        reason: 'paper_out',
      },
      { at: '08:12:00', step: 'job_cancelled', ...J, job: copy.id, printer: 'Zebra u okna' },
      {
        at: '08:12:00',
        step: 'print',
        ...P,
        job: copy.id,
        printer: 'Zebra u okna',
        outcome: 'cancelled',
        reason: 'cancelled_by_worker',
      },
    ]);
    // The print row of a job is the operator's who began its entry (Petr's reprint); the cancel is Jana's.
  });

  it('the CSV of a day: one row per step, Prague time, UTF-8 with a BOM, read back with csv-parse', async () => {
    const d = scriptedDesk();
    const handlers = createAuditHandlers({ trail: d.trail, activeAccountId: () => 'acc' });
    const params = auditMethods['shipments.trailCsv'].params.parse({
      from: '2026-11-25T23:00:00.000Z',
      to: '2026-11-26T23:00:00.000Z',
      timeZone: 'Europe/Prague',
      language: 'en',
    });
    const out = await handlers['shipments.trailCsv'](params);
    expect(out.csv.startsWith('\uFEFFdate_time,')).toBe(true);
    expect(out.fileName).toBe('audit-trail_2026-11-26_2026-11-26.csv');
    const rows = parse<Record<string, string>>(out.csv, { bom: true, columns: true });
    expect(out.rows).toBe(16);
    const pick = (r: Record<string, string>) =>
      [
        r.date_time,
        r.operator,
        r.desk,
        r.delivery_id,
        r.code,
        r.step,
        r.printer,
        r.outcome,
        r.reason,
        r.weight_kg,
      ].join('|');
    expect(rows.map(pick)).toEqual([
      '2026-11-26 09:00:00|Jana Nováková|Balicí stůl 3|1001|#ORD-1001|scanned||||',
      '2026-11-26 09:00:04|Jana Nováková|Balicí stůl 3|1001||weight_taken||scale||2.418',
      '2026-11-26 09:00:05|Jana Nováková|Balicí stůl 3|1001||weight_corrected||||',
      '2026-11-26 09:00:05|Jana Nováková|Balicí stůl 3|1001||close_requested||||',
      '2026-11-26 09:00:06|Jana Nováková|Balicí stůl 3|1001||closed||||',
      '2026-11-26 09:00:07|Jana Nováková|Balicí stůl 3|1001||label_queued||||',
      '2026-11-26 09:00:09|Jana Nováková|Balicí stůl 3|1001||print|Zebra u okna|done||',
      '2026-11-26 09:00:15|Jana Nováková|Balicí stůl 3|1001||label_verified||||',
      '2026-11-26 09:10:00|Petr Dvořák|Balicí stůl 3|1001||reprint|Zebra u okna||damaged|',
      '2026-11-26 09:10:00|Petr Dvořák|Balicí stůl 3|1001||print_asked_reprint||||',
      '2026-11-26 09:10:00|Petr Dvořák|Balicí stůl 3|1001||label_queued||||',
      '2026-11-26 09:10:01|Petr Dvořák|Balicí stůl 3|1001||print|Zebra u okna|failed|paper_out|',
      '2026-11-26 09:11:00|Petr Dvořák|Balicí stůl 3|1001||job_retried|Zebra u okna|||',
      '2026-11-26 09:11:01|Petr Dvořák|Balicí stůl 3|1001||print|Zebra u okna|failed|paper_out|',
      '2026-11-26 09:12:00|Jana Nováková|Balicí stůl 3|1001||job_cancelled|Zebra u okna|||',
      '2026-11-26 09:12:00|Petr Dvořák|Balicí stůl 3|1001||print|Zebra u okna|cancelled|cancelled_by_worker|',
    ]);
    // The next day holds only ORD-1002, scanned with nobody signed in.
    const next = (await handlers['shipments.trailCsv'](
      auditMethods['shipments.trailCsv'].params.parse({
        from: '2026-11-26T23:00:00Z',
        to: '2026-11-27T23:00:00Z',
        timeZone: 'Europe/Prague',
        language: 'en',
      }),
    )) as { csv: string };
    expect(parse<Record<string, string>>(next.csv, { bom: true, columns: true }).map(pick)).toEqual([
      '2026-11-27 08:00:00||Balicí stůl 3||ORD-1002|scanned||||',
    ]);
    // Both days at once (read a day at a time): every step once, in order.
    const both = await handlers['shipments.trailCsv'](
      auditMethods['shipments.trailCsv'].params.parse({
        from: '2026-11-25T23:00:00Z',
        to: '2026-11-27T23:00:00Z',
        timeZone: 'Europe/Prague',
        language: 'en',
      }),
    );
    expect(both.rows).toBe(17);
    expect(both.fileName).toBe('audit-trail_2026-11-26_2026-11-27.csv');
    const all = parse<Record<string, string>>(both.csv, { bom: true, columns: true }).map(pick);
    expect(all).toEqual([...rows.map(pick), '2026-11-27 08:00:00||Balicí stůl 3||ORD-1002|scanned||||']);
  });

  it('the CSV in Czech: the statistics’ form, a semicolon between fields and a decimal comma', async () => {
    const d = scriptedDesk();
    const handlers = createAuditHandlers({ trail: d.trail, activeAccountId: () => 'acc' });
    const out = await handlers['shipments.trailCsv'](
      auditMethods['shipments.trailCsv'].params.parse({
        from: '2026-11-25T23:00:00.000Z',
        to: '2026-11-26T23:00:00.000Z',
        timeZone: 'Europe/Prague',
        language: 'cs',
      }),
    );
    expect(out.csv.startsWith('\uFEFFdate_time;desk;operator;')).toBe(true);
    const rows = parse<Record<string, string>>(out.csv, { bom: true, columns: true, delimiter: ';' });
    expect(rows.find((r) => r.step === 'weight_taken')).toMatchObject({
      operator: 'Jana Nováková',
      desk: 'Balicí stůl 3',
      weight_kg: '2,418',
    });
    // The statistics' Czech CSV of the same station is split on the same character.
    const stats = statisticsCsv(
      { from: '2026-11-26', to: '2026-11-26', operators: [], total: emptyTotal(), hours: [], steps: [] },
      'cs',
      {
        columns: Object.fromEntries(statisticsCsvColumns.map((c) => [c, c])) as never,
        nobody: 'Nikdo',
        everyone: 'Všichni',
        everyCarrier: 'Všichni dopravci',
      },
    );
    expect(stats.split('\r\n')[0]).toBe('\uFEFF' + statisticsCsvColumns.join(';'));
  });

  it('a range is refused beyond 31 days, backwards, or in no time zone', () => {
    const p = auditMethods['shipments.trailCsv'].params;
    // 1 November to 1 December, whole days in Prague: 31 days; to 2 December: 32.
    expect(
      p.safeParse({
        from: '2026-10-31T23:00:00Z',
        to: '2026-12-01T23:00:00Z',
        timeZone: 'Europe/Prague',
        language: 'en',
      }).success,
    ).toBe(true);
    expect(
      p.safeParse({
        from: '2026-10-31T23:00:00Z',
        to: '2026-12-02T23:00:00Z',
        timeZone: 'Europe/Prague',
        language: 'en',
      }).success,
    ).toBe(false);
    expect(
      p.safeParse({
        from: '2026-11-27T00:00:00Z',
        to: '2026-11-26T00:00:00Z',
        timeZone: 'Europe/Prague',
        language: 'en',
      }).success,
    ).toBe(false);
    expect(
      p.safeParse({
        from: '2026-11-26T00:00:00Z',
        to: '2026-11-27T00:00:00Z',
        timeZone: 'Mars/Olympus',
        language: 'en',
      }).success,
    ).toBe(false);
    expect(
      p.safeParse({ from: 'yesterday', to: '2026-11-27T00:00:00Z', timeZone: 'UTC', language: 'en' }).success,
    ).toBe(false);
  });
});

describe('the audit trail of a parcel closed in a batch', () => {
  it('says when it was scanned into the batch (the code as the scanner typed it), then that the batch closed it', () => {
    const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'audit-batch-')), 'station.db'));
    const desk = createDeskOperator(() => 'Balicí stůl 3');
    const scanLog = createScanLogRepo(db);
    const journal = createJournalRepo(db, scanLog, desk.who);
    const trail = createAuditTrailRepo(db);
    // 09:00 ORD-1003 scanned into the batch (the scanner sends a prefix); 09:05 Ctrl+Enter closes the batch.
    const scanId = scanLog.record({
      accountId: 'acc',
      code: 'ORD-1003',
      rawCode: '#ORD-1003',
      scannedAt: at('09:00:00'),
      outcome: 'pending',
      deliveryId: 1003,
      message: null,
    });
    journal.begin(
      [{ accountId: 'acc', source: 'batch', scanId, code: 'ORD-1003', deliveryId: 1003, want: 'close_and_print' }],
      at('09:05:00'),
    );
    expect(trail.ofDelivery('acc', 1003).map((s) => [s.at, s.step, s.code, s.source])).toEqual([
      [at('09:00:00').toISOString(), 'scanned', '#ORD-1003', 'batch'],
      [at('09:05:00').toISOString(), 'print_asked', null, 'batch'],
    ]);
  });
});

function emptyTotal() {
  return {
    scope: 'everyone' as const,
    name: null,
    parcels: 0,
    rescans: 0,
    closed: 0,
    printed: 0,
    labels: 0,
    reprints: { damaged: 0, lost: 0, wrong_printer: 0, other: 0 },
    held: 0,
    refusals: 0,
    errors: 0,
    perHour: null,
  };
}
