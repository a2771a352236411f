/** The print queue's table (migration print_queue) and its crash recovery rules. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/store/database';
import {
  BUSY_LANES_SQL,
  createPrintJobsRepo,
  LANE_AFTER_SQL,
  LANE_HEAD_SQL,
} from '../../../electron/store/printJobsRepo';
import { createPrintersRepo } from '../../../electron/store/printersRepo';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { backoffDelay } from '../../../electron/queue/backoff';
import { printerSettings } from '../../../shared/contract/printing';

function repo() {
  const db = new Database(':memory:');
  migrate(db);
  return { db, jobs: createPrintJobsRepo(db), printers: createPrintersRepo(db) };
}
const t0 = new Date('2026-11-22T08:00:00Z');
const job = (title: string, printerId = 'zebra') =>
  ({ kind: 'print', printerId, format: 'zpl', payload: Buffer.from(`^XA^FD${title}^FS^XZ`), title }) as const;

describe('print queue store', () => {
  it('keeps the payload bytes and a history of every state', () => {
    const { jobs } = repo();
    const j = jobs.insert(job('a'), t0);
    jobs.setState(j.id, 'sending', t0, { attempt: true });
    jobs.setState(j.id, 'sent', t0, { delivered: true });
    const done = jobs.setState(j.id, 'done', t0, { delivered: true });
    expect(done).toMatchObject({ state: 'done', attempts: 1, delivered: true, finishedAt: t0.toISOString() });
    expect(jobs.payload(j.id)!.toString()).toBe('^XA^FDa^FS^XZ');
    expect(jobs.history(j.id).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
  });

  it('after a crash: sending -> uncertain, sent -> done; nothing is dropped', () => {
    const { jobs } = repo();
    const a = jobs.insert(job('a'), t0);
    const b = jobs.insert(job('b'), t0);
    const d = jobs.insert(job('d'), t0);
    jobs.setState(a.id, 'sending', t0);
    jobs.setState(b.id, 'sent', t0);
    const r = jobs.recoverAfterCrash(t0);
    expect(r).toEqual({ uncertain: [a.id], done: [b.id], spooled: [] });
    expect(jobs.get(a.id)).toMatchObject({ state: 'uncertain', delivered: true, reasonCode: 'interrupted_by_restart' });
    expect(jobs.get(d.id)!.state).toBe('queued');
  });

  it('after a crash: a job the print system (CUPS, the Windows spooler) had taken is handed to it, not printed', () => {
    const { jobs, printers } = repo();
    printers.save(
      {
        id: 'cups-zebra',
        name: 'Zebra via CUPS',
        connection: { kind: 'zpl-spooler', queue: 'Zebra' },
        settings: printerSettings.parse({}),
      },
      t0,
    );
    printers.save(
      {
        id: 'office',
        name: 'Office',
        connection: { kind: 'pdf-system', queue: 'PDF' },
        settings: printerSettings.parse({}),
      },
      t0,
    );
    printers.save(
      {
        id: 'zebra',
        name: 'Desk Zebra',
        connection: { kind: 'zpl-tcp', host: '10.0.0.5', port: 9100 },
        settings: printerSettings.parse({}),
      },
      t0,
    );
    const viaCups = jobs.insert(job('a', 'cups-zebra'), t0);
    const pdf = jobs.insert({ ...job('b', 'office'), format: 'pdf' }, t0);
    const tcp = jobs.insert(job('c'), t0);
    for (const j of [viaCups, pdf, tcp]) jobs.setState(j.id, 'sent', t0, { delivered: true });
    expect(jobs.recoverAfterCrash(t0)).toEqual({ uncertain: [], done: [tcp.id], spooled: [viaCups.id, pdf.id] });
    expect(jobs.get(viaCups.id)).toMatchObject({
      state: 'spooled',
      reasonCode: 'handed_to_spooler',
      finishedAt: t0.toISOString(),
    });
    expect(jobs.get(tcp.id)!.state).toBe('done');
  });

  it('a lane works on its oldest pending job; an uncertain job does not hold it', () => {
    const { jobs } = repo();
    const a = jobs.insert(job('a'), t0);
    const b = jobs.insert(job('b'), t0);
    jobs.insert(job('x', 'office'), t0);
    expect(jobs.laneHead('zebra')!.id).toBe(a.id);
    jobs.setState(a.id, 'uncertain', t0);
    expect(jobs.laneHead('zebra')!.id).toBe(b.id);
    expect(jobs.lanesWithWork().sort()).toEqual(['office', 'zebra']);
  });

  it('a lane’s head is its lowest pending id, whether queued or failed with a retry time', () => {
    const { jobs } = repo();
    const a = jobs.insert(job('a'), t0);
    const b = jobs.insert(job('b'), t0);
    const c = jobs.insert(job('c'), t0);
    jobs.setState(a.id, 'done', t0);
    jobs.setState(b.id, 'failed', t0, {
      nextRetryAt: t0.toISOString(),
      reasonCode: 'offline',
      reason: 'Tiskárna je vypnutá',
    });
    expect(jobs.laneHead('zebra')!.id).toBe(b.id);
    // Failed for good (no retry time): the worker decides, the lane goes on.
    jobs.setState(b.id, 'failed', t0, { reasonCode: 'paper_out', reason: 'Došel papír' });
    expect(jobs.laneHead('zebra')!.id).toBe(c.id);
    jobs.setState(c.id, 'done', t0);
    expect(jobs.laneHead('zebra')).toBeUndefined();
  });

  it('finds a lane’s head through the lane index, without reading the printer’s history', () => {
    const { db } = repo();
    // SQLite's plan: a SCAN or a sort would read every job the printer ever printed, before each label.
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${LANE_HEAD_SQL}`).all({ printerId: 'zebra' }) as { detail: string }[];
    const steps = plan.map((r) => r.detail);
    expect(
      steps.filter((d) => /^SEARCH print_jobs USING INDEX print_jobs_lane \(printer_id=\? AND state=\?\)/.test(d)),
    ).toHaveLength(2);
    expect(steps.filter((d) => /^SCAN print_jobs|TEMP B-TREE/.test(d))).toEqual([]);
  });

  it('the queued jobs behind a lane’s head, in order, up to the first that waits for its retry', () => {
    const { jobs } = repo();
    const made = ['hlava', 'druhý', 'třetí', 'čeká', 'pátý'].map((t) => jobs.insert(job(t), t0));
    jobs.insert(job('jiná tiskárna', 'office'), t0);
    expect(jobs.queuedAfter('zebra', made[0]!.id, 7).map((j) => j.title)).toEqual(['druhý', 'třetí', 'čeká', 'pátý']);
    expect(jobs.queuedAfter('zebra', made[0]!.id, 2).map((j) => j.title)).toEqual(['druhý', 'třetí']);
    jobs.setState(made[3]!.id, 'failed', t0, {
      nextRetryAt: t0.toISOString(),
      reasonCode: 'offline',
      reason: 'Tiskárna je vypnutá',
    });
    expect(jobs.queuedAfter('zebra', made[0]!.id, 7).map((j) => j.title)).toEqual(['druhý', 'třetí']);
    jobs.setState(made[1]!.id, 'done', t0);
    expect(jobs.queuedAfter('zebra', made[0]!.id, 7).map((j) => j.title)).toEqual(['třetí']);
  });

  it('finds the jobs behind a lane’s head through the lane index, without reading or sorting every waiting job', () => {
    const { db } = repo();
    const steps = (
      db.prepare(`EXPLAIN QUERY PLAN ${LANE_AFTER_SQL}`).all({ printerId: 'zebra', afterId: 0, limit: 8 }) as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    // One range of the queued jobs, bounded by the first job waiting for its retry (the front of the failed ones).
    expect(steps.filter((d) => /^SEARCH print_jobs USING INDEX print_jobs_lane/.test(d))).toEqual([
      'SEARCH print_jobs USING INDEX print_jobs_lane (printer_id=? AND state=? AND id>? AND id<?)',
      'SEARCH print_jobs USING INDEX print_jobs_lane (printer_id=? AND state=? AND id>?)',
    ]);
    // No scan, no MULTI-INDEX OR over the lane, no list of ids built and sorted before each label.
    expect(steps.filter((d) => /^SCAN|MULTI-INDEX OR|TEMP B-TREE|LIST SUBQUERY|COMPOUND/.test(d))).toEqual([]);
  });

  it('a job of a label just kept prints the label’s own bytes, stored once; after a restart it reads them from the label', () => {
    const { db, jobs } = repo();
    const labels = createLabelsRepo(db);
    const parts = [
      '^XA^CI28^FDBalík 1/2 Jiří Dvořák, Šumperk^FS^XZ',
      '^XA^CI28^FDBalík 2/2 Jiří Dvořák, Šumperk^FS^XZ',
    ];
    const documentId = labels.save(
      {
        accountId: 'acc',
        variant: { format: 'zpl', size: 'default' },
        deliveryIds: [7001],
        parts: parts.map((p) => Buffer.from(p)),
      },
      t0,
    );
    const sent = Buffer.from(parts.join('\n'));
    const j = jobs.insert(
      { ...job('Zásilka 7001'), payload: sent, labelRef: 'zpl:7001', labelDocumentId: documentId },
      t0,
    );
    expect(db.prepare('SELECT count(*) FROM print_job_bytes WHERE job_id = ?').pluck().get(j.id)).toBe(0);
    expect(db.prepare('SELECT document_id FROM print_job_labels WHERE job_id = ?').pluck().get(j.id)).toBe(documentId);
    expect(j.bytes).toBe(sent.length);
    // A restart: the store alone says what the job prints.
    expect(createPrintJobsRepo(db).payload(j.id)?.equals(sent)).toBe(true);
    expect(jobs.payload(j.id)?.equals(sent)).toBe(true);
    expect(jobs.payload(j.id)?.equals(sent)).toBe(true);
  });

  it('a job whose label was replaced before it was queued keeps its own copy of the bytes', () => {
    const { db, jobs } = repo();
    const labels = createLabelsRepo(db);
    const kept = (zpl: string) =>
      labels.save(
        {
          accountId: 'acc',
          variant: { format: 'zpl', size: 'default' },
          deliveryIds: [7002],
          parts: [Buffer.from(zpl)],
        },
        t0,
      );
    const first = kept('^XA^FDPůvodní štítek^XZ');
    kept('^XA^FDNový štítek^XZ');
    const sent = Buffer.from('^XA^FDPůvodní štítek^XZ');
    const j = jobs.insert({ ...job('Zásilka 7002'), payload: sent, labelDocumentId: first }, t0);
    expect(db.prepare('SELECT count(*) FROM print_job_labels WHERE job_id = ?').pluck().get(j.id)).toBe(0);
    expect(createPrintJobsRepo(db).payload(j.id)?.equals(sent)).toBe(true);
  });

  it('lists the printers with work, past a history of done jobs and a printer that is off', () => {
    const { db, jobs } = repo();
    for (const printer of ['zebra', 'office', 'kancelář-2']) {
      for (let i = 0; i < 30; i++)
        jobs.setState(jobs.insert(job(`${printer}-${i}`, printer), t0).id, 'done', t0, { delivered: true });
    }
    expect(jobs.lanesWithWork()).toEqual([]);
    const off = jobs.insert(job('čeká', 'office'), t0);
    jobs.setState(off.id, 'failed', t0, {
      nextRetryAt: t0.toISOString(),
      reasonCode: 'offline',
      reason: 'Tiskárna je vypnutá',
    });
    jobs.insert(job('nový', 'kancelář-2'), t0);
    expect(jobs.lanesWithWork().sort()).toEqual(['kancelář-2', 'office']);
    jobs.setState(off.id, 'failed', t0, { reasonCode: 'paper_out', reason: 'Došel papír' });
    expect(jobs.lanesWithWork()).toEqual(['kancelář-2']);
    // Printer by printer over the lane index, never every waiting job.
    const steps = (db.prepare(`EXPLAIN QUERY PLAN ${BUSY_LANES_SQL}`).all() as { detail: string }[]).map(
      (r) => r.detail,
    );
    expect(steps.filter((d) => /^SCAN print_jobs|TEMP B-TREE|USING INDEX print_jobs_state/.test(d))).toEqual([]);
  });

  it('stores printers with their settings, filling defaults', () => {
    const { printers } = repo();
    printers.save(
      {
        id: 'zebra',
        name: 'Zebra',
        connection: { kind: 'zpl-tcp', host: '10.0.0.5', port: 9100 },
        settings: printerSettings.parse({ dpi: 203 }),
      },
      t0,
    );
    expect(printers.get('zebra')!.settings).toMatchObject({ dpi: 203, darkness: 0, copies: 1 });
    expect(printers.remove('zebra')).toBe(true);
    expect(printers.list()).toEqual([]);
  });

  it('backs off exponentially with a cap', () => {
    expect([1, 2, 3, 4, 10, 50].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000]);
  });
});
