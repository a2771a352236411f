/**
 * Printing throughput. 1,000 queued ZPL jobs (one package label each) drained by the durable
 * queue to a loopback TCP printer (the virtual ZPL printer), against the floor: the same bytes
 * piped to the same listener by one `nc` process. Then 100 PDF jobs through real CUPS (the
 * cups-pdf queue `PDF`) until CUPS reports each completed, when CUPS is there. Such a job ends
 * `spooled` (handed to the print system, which finished with it), never `done`: the station does
 * not know it was printed (electron/printing/cupsDriver.ts).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import PDFDocument from 'pdfkit';
import { systemClock } from '../electron/base/clock';
import { createCupsDriver } from '../electron/printing/cupsDriver';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { createZplTcpDriver } from '../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../electron/queue/printQueue';
import { openDatabase } from '../electron/store/database';
import { createPrintJobsRepo } from '../electron/store/printJobsRepo';
import { printerSettings } from '../shared/contract/printing';

const LABELS = 1000;
const PDF_JOBS = Number(process.env.PRINTING_BENCH_PDF_JOBS ?? 100);

function label(i: number): string {
  return `^XA^PW1200^LL1800^FO60,60^A0N,60,60^FDParcel ${i}^FS^FO90,400^BY3,3,300^BCN,300,Y,N,N^FDPKG${String(i).padStart(6, '0')}^FS^XZ\n`;
}

async function waitPrinted(count: () => number, n: number): Promise<void> {
  while (count() < n) await new Promise((r) => setTimeout(r, 2));
}

function cupsUp(): boolean {
  try {
    return /is running/.test(execFileSync('lpstat', ['-r'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

function smallPdf(i: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: [283, 425], margin: 20 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((r) => doc.on('end', () => r(Buffer.concat(chunks))));
  doc.fontSize(14).text(`Parcel label ${i}`);
  doc.end();
  return done;
}

export async function run(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-printing-'));
  const printer = await startVirtualZplPrinter();
  const out: Record<string, number> = {};
  try {
    // --- the queue: rows committed before bytes leave, one connection per job, in order
    const db = openDatabase(path.join(dir, 'station.db'));
    const jobs = createPrintJobsRepo(db);
    const driver = createZplTcpDriver({
      host: '127.0.0.1',
      port: printer.port,
      settings: printerSettings.parse({}),
      closeWaitMs: 2000,
    });
    const queue = createPrintQueue({ jobs, clock: systemClock, driverFor: () => driver });
    const t0 = performance.now();
    for (let i = 0; i < LABELS; i++) {
      jobs.insert(
        {
          kind: 'print',
          printerId: 'zebra',
          format: 'zpl',
          payload: Buffer.from(label(i), 'latin1'),
          title: `job ${i}`,
        },
        new Date(),
      );
    }
    const tQueued = performance.now();
    queue.start();
    await queue.settle();
    await waitPrinted(() => printer.printed().length, LABELS);
    const queueMs = performance.now() - t0;
    await queue.stop();
    db.close();
    out['zpl_queue_enqueue_ms'] = tQueued - t0;
    out['zpl_queue_wall_ms'] = queueMs;
    out['zpl_queue_labels_per_s'] = (LABELS / queueMs) * 1000;

    // --- the floor: the same bytes through one nc process
    printer.clear();
    const file = path.join(dir, 'labels.zpl');
    writeFileSync(file, Array.from({ length: LABELS }, (_, i) => label(i)).join(''), 'latin1');
    const t1 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const nc = spawn('nc', ['-N', '127.0.0.1', String(printer.port)], {
        stdio: [openSync(file, 'r'), 'ignore', 'ignore'],
      });
      nc.on('error', reject);
      nc.on('exit', () => resolve());
    });
    await waitPrinted(() => printer.printed().length, LABELS);
    const ncMs = performance.now() - t1;
    out['zpl_nc_floor_wall_ms'] = ncMs;
    out['zpl_nc_floor_labels_per_s'] = (LABELS / ncMs) * 1000;
    out['zpl_queue_vs_nc_ratio'] = queueMs / ncMs;

    // --- PDF through real CUPS, each job until CUPS reports it completed
    if (cupsUp() && PDF_JOBS > 0) {
      const pdb = openDatabase(path.join(dir, 'pdf.db'));
      const pjobs = createPrintJobsRepo(pdb);
      const cups = createCupsDriver({ queue: 'PDF', mode: 'pdf', settings: printerSettings.parse({}) });
      const pqueue = createPrintQueue({ jobs: pjobs, clock: systemClock, driverFor: () => cups });
      const pdf = await smallPdf(1);
      const t2 = performance.now();
      for (let i = 0; i < PDF_JOBS; i++) {
        pjobs.insert(
          { kind: 'print', printerId: 'office', format: 'pdf', payload: pdf, title: `bench-pdf-${process.pid}-${i}` },
          new Date(),
        );
      }
      pqueue.start();
      await pqueue.settle();
      const pdfMs = performance.now() - t2;
      const done = pjobs.countByState()['spooled'] ?? 0;
      await pqueue.stop();
      pdb.close();
      out['pdf_cups_jobs_spooled'] = done;
      out['pdf_cups_wall_ms'] = pdfMs;
      out['pdf_cups_jobs_per_s'] = (done / pdfMs) * 1000;
    }
  } finally {
    await printer.close();
  }
  return out;
}
