/**
 * Kept labels and print jobs' bytes take half to two thirds of the room for ZPL (deflated,
 * store/packedBytes.ts; the labels window keeps 90 days of both) and read back byte for byte: a
 * reprint from Shipments or from the print queue sends what the service returned. A PDF, deflated inside already, and
 * rows written before migration 27 read as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';

const now = new Date('2026-11-29T08:00:00Z');
/** A package label as the service's ZPL lays one out: text fields, a barcode, Czech names (UTF-8, ^CI28). */
const zpl = (n: number) =>
  Buffer.from(
    [
      '^XA^CI28^PW1181^LL1772^LH0,0',
      '^FO40,40^A0N,44,44^FDOdesílatel: Eshop Kolečko s.r.o.^FS',
      '^FO40,100^A0N,36,36^FDŽelezná 12, 110 00 Praha 1^FS',
      `^FO40,200^A0N,56,56^FDPříjemce: Jiří Dvořák ${n}^FS`,
      '^FO40,270^A0N,40,40^FDNáměstí Svobody 7^FS',
      '^FO40,320^A0N,40,40^FD789 01 Zábřeh^FS',
      '^FO40,420^GB1100,4,4^FS',
      `^FO120,480^BY4^BCN,300,Y,N,N,A^FH_^FD4051234${String(n).padStart(4, '0')}^FS`,
      '^FO40,900^A0N,48,48^FDDOBÍRKA 1 234,50 CZK^FS',
      '^FO40,980^A0N,40,40^FDBalík 1/1  Hmotnost 2,4 kg^FS',
      '^FO40,1040^GB1100,4,4^FS',
      '^PQ1^XZ',
    ].join('\n'),
    'utf8',
  );

let dir: string | null = null;
function open(): Db {
  dir = mkdtempSync(path.join(tmpdir(), 'packed-'));
  return openDatabase(path.join(dir, 'station.db'));
}
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});
const stored = (db: Db, sql: string, id: number) => db.prepare(sql).pluck().get(id) as number;

describe('label bytes on the disk', () => {
  it('a kept ZPL label reads back byte for byte from some two thirds of its room at most', () => {
    const db = open();
    const labels = createLabelsRepo(db);
    const parts = [zpl(1), zpl(2)];
    const id = labels.save(
      { accountId: 'a', variant: { format: 'zpl', size: '10x15' }, deliveryIds: [1001], parts },
      now,
    );
    expect(labels.get(id)?.parts).toEqual(parts);
    expect(labels.latestFor('a', 1001)?.parts.map((p) => p.toString('utf8'))).toEqual(
      parts.map((p) => p.toString('utf8')),
    );
    const onDisk = stored(db, 'SELECT sum(length(bytes)) FROM label_parts WHERE document_id = ?', id);
    expect(onDisk).toBeLessThan((parts[0]!.length + parts[1]!.length) * 0.7);
    db.close();
  });

  it("a print job's ZPL is sent as the service returned it and its size is the label's, from some two thirds of the room at most", () => {
    const db = open();
    const jobs = createPrintJobsRepo(db);
    const payload = zpl(7);
    const job = jobs.insert({ kind: 'print', printerId: 'zebra', format: 'zpl', payload, title: 'Zásilka 7' }, now);
    expect(jobs.payload(job.id)?.equals(payload)).toBe(true);
    expect(jobs.get(job.id)?.bytes).toBe(payload.length);
    expect(stored(db, 'SELECT length(bytes) FROM print_job_bytes WHERE job_id = ?', job.id)).toBeLessThan(
      payload.length * 0.7,
    );
    db.close();
  });

  it('a PDF, and bytes stored before the upgrade, read as they were', () => {
    const db = open();
    const jobs = createPrintJobsRepo(db);
    const labels = createLabelsRepo(db);
    const pdf = Buffer.from(
      '%PDF-1.4\n% Štítek\n1 0 obj << /Filter /FlateDecode >> stream\nx\u009c\u0003\u0000\nendstream\n%%EOF',
    );
    const job = jobs.insert({ kind: 'print', printerId: 'office', format: 'pdf', payload: pdf, title: 'Štítky' }, now);
    expect(jobs.payload(job.id)?.equals(pdf)).toBe(true);
    const doc = labels.save(
      { accountId: 'a', variant: { format: 'pdf', printFormat: 'single' }, deliveryIds: [5], parts: [pdf] },
      now,
    );
    expect(labels.get(doc)?.parts[0]?.equals(pdf)).toBe(true);
    // As a station before migration 27 wrote them: the bytes themselves, no size.
    const old = zpl(9);
    db.prepare('UPDATE print_job_bytes SET bytes = ?, size = NULL WHERE job_id = ?').run(old, job.id);
    db.prepare('UPDATE label_parts SET bytes = ?, size = NULL WHERE document_id = ?').run(old, doc);
    expect(jobs.payload(job.id)?.equals(old)).toBe(true);
    expect(jobs.get(job.id)?.bytes).toBe(old.length);
    expect(labels.get(doc)?.parts[0]?.equals(old)).toBe(true);
    db.close();
  });
});
