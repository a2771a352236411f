/**
 * Real CUPS: PDFs to the cups-pdf virtual printer `PDF` (rasterised with pdftoppm and decoded with
 * zbarimg, as a printed page would be scanned), and ZPL through a raw spooler queue pointed at a
 * loopback TCP listener (CUPS `-o raw` must pass the bytes unchanged).
 * Spec: GET /api/v3/deliveries/tickets returns base64 PDF labels (`printFormat` single or A4).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createCupsDriver, lpArgs } from '../../../electron/printing/cupsDriver';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createPrintQueue } from '../../../electron/queue/printQueue';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { printerSettings } from '../../../shared/contract/printing';
import { needs } from '../../support/services';
import { decodeBarcodes, freshDb, packageLabelZpl, printHooks, tempDir, waitFor } from './printingTestKit';

/**
 * Where cups-pdf writes the jobs of the user running the tests: its `Out` setting in
 * cups-pdf.conf (the Debian default is `${HOME}/PDF`; the built-in default, when the line is
 * missing, `/var/spool/cups-pdf/${USER}`), with ${HOME} and ${USER} of the job's owner.
 */
export function cupsPdfOutDir(
  conf = '/etc/cups/cups-pdf.conf',
  user: { homedir: string; username: string } = userInfo(),
): string {
  const text = existsSync(conf) ? readFileSync(conf, 'utf8') : '';
  const out = /^\s*Out\s+(.+?)\s*$/m.exec(text)?.[1] ?? '/var/spool/cups-pdf/${USER}';
  return out.replaceAll('${HOME}', user.homedir).replaceAll('${USER}', user.username);
}
const CUPS_PDF_OUT = cupsPdfOutDir();

/** A label-sized PDF (10x15 cm) with a Code 128 barcode, like the service's `single` format. */
export async function pdfLabel(barcode: string): Promise<Buffer> {
  const png = await bwipjs.toBuffer({ bcid: 'code128', text: barcode, scale: 3, height: 18, includetext: true });
  const doc = new PDFDocument({ size: [283, 425], margin: 20 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((r) => doc.on('end', () => r()));
  doc.fontSize(14).text('Parcel label', 20, 20);
  doc.image(png, 20, 80, { width: 240 });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

function pdfToPngs(pdf: string, dir: string): string[] {
  const prefix = path.join(dir, 'page');
  execFileSync('pdftoppm', ['-r', '200', '-png', pdf, prefix]);
  return readdirSync(dir)
    .filter((f) => f.startsWith('page') && f.endsWith('.png'))
    .sort()
    .map((f) => path.join(dir, f));
}

describe("where cups-pdf puts a user's PDFs", () => {
  const jana = { homedir: '/home/jana', username: 'jana' };
  it('follows the Out line of cups-pdf.conf for the user who printed, else the built-in spool folder', () => {
    const dir = tempDir('cups-pdf-conf-');
    const conf = path.join(dir, 'cups-pdf.conf');
    writeFileSync(conf, '### Key: Out\n#Out /var/spool/cups-pdf/${USER}\nOut ${HOME}/PDF\n');
    expect(cupsPdfOutDir(conf, jana)).toBe('/home/jana/PDF');
    writeFileSync(conf, '#Out ${HOME}/PDF\n');
    expect(cupsPdfOutDir(conf, jana)).toBe('/var/spool/cups-pdf/jana');
  });
});

describe.skipIf(!needs('cups', 'zbarimg', 'pdftoppm'))('printing through real CUPS', () => {
  const rawQueue = `ZPLRAW_TEST_${process.pid}`;
  let listener: VirtualZplPrinter;

  beforeAll(async () => {
    listener = await startVirtualZplPrinter();
    execFileSync('lpadmin', ['-p', rawQueue, '-v', `socket://127.0.0.1:${listener.port}`, '-E']);
  });
  afterAll(async () => {
    try {
      execFileSync('lpadmin', ['-x', rawQueue]);
    } catch {
      /* already gone */
    }
    await listener.close();
  });

  it('builds lp arguments with queue, title, copies, raw and the media options label printers need', () => {
    expect(
      lpArgs({
        queue: 'Zebra_GK420',
        title: 'Shipment 12; rm -rf /',
        copies: 2,
        raw: false,
        options: ['media=Custom.100x150mm', 'fit-to-page'],
      }),
    ).toEqual([
      '-d',
      'Zebra_GK420',
      '-t',
      'Shipment 12_ rm -rf _',
      '-n',
      '2',
      '-o',
      'media=Custom.100x150mm',
      '-o',
      'fit-to-page',
    ]);
  });

  it('a PDF label job reaches the cups-pdf printer, and the printed page scans as the package barcode', async () => {
    const { db } = freshDb();
    const driver = createCupsDriver({ queue: 'PDF', mode: 'pdf', settings: printerSettings.parse({}) });
    const queue = createPrintQueue({
      jobs: createPrintJobsRepo(db),
      clock: systemClock,
      driverFor: () => driver,
      tickMs: 50,
    });
    queue.start();
    const title = `cupstest-${process.pid}-${Date.now()}`;
    const job = queue.enqueue({
      kind: 'print',
      printerId: 'office',
      format: 'pdf',
      payload: await pdfLabel('DR7001CZ'),
      title,
      barcodes: ['DR7001CZ'],
    });
    await queue.settle();
    // CUPS finished it: handed to the print system, not confirmed printed.
    expect(queue.get(job.id).state).toBe('spooled');
    // cups-pdf names the file after the job title; it may take a moment to appear.
    let file: string | undefined;
    await waitFor(
      () => {
        file = existsSync(CUPS_PDF_OUT) ? readdirSync(CUPS_PDF_OUT).find((f) => f.startsWith(title)) : undefined;
        return !!file;
      },
      15_000,
      100,
    );
    const dir = tempDir('cups-out-');
    const pages = pdfToPngs(path.join(CUPS_PDF_OUT, file!), dir);
    expect(pages.length).toBe(1);
    expect(await decodeBarcodes(readFileSync(pages[0]!))).toEqual(['DR7001CZ']);
    await queue.stop();
    db.close();
  });

  it('ZPL through a raw spooler queue (lp -o raw) arrives byte for byte at the label printer', async () => {
    const { db } = freshDb();
    const driver = createCupsDriver({ queue: rawQueue, mode: 'zpl', settings: printerSettings.parse({}) });
    const queue = createPrintQueue({
      jobs: createPrintJobsRepo(db),
      clock: systemClock,
      driverFor: () => driver,
      tickMs: 50,
    });
    queue.start();
    const zpl = Buffer.from([packageLabelZpl('RAW001'), packageLabelZpl('RAW002')].join('\n'), 'latin1');
    const job = queue.enqueue({
      kind: 'print',
      printerId: 'zebra-cups',
      format: 'zpl',
      payload: zpl,
      title: 'raw test',
      barcodes: ['RAW001', 'RAW002'],
    });
    await queue.settle();
    // CUPS finished it: handed to the print system, not confirmed printed.
    expect(queue.get(job.id).state).toBe('spooled');
    await waitFor(() => Buffer.concat(listener.connections()).length >= zpl.length, 15_000, 50);
    expect(Buffer.concat(listener.connections()).equals(zpl)).toBe(true);
    expect(listener.printed()).toHaveLength(2);
    await queue.stop();
    db.close();
  });

  it("a queue that does not exist fails the job with the spooler's reason and nothing printed", async () => {
    const driver = createCupsDriver({
      queue: `NO_SUCH_QUEUE_${process.pid}`,
      mode: 'pdf',
      settings: printerSettings.parse({}),
    });
    const err = await driver
      .print({ format: 'pdf', bytes: await pdfLabel('X1'), title: 'x', copies: 1, labelSize: null }, printHooks())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'spooler_rejected', outcome: 'not_sent' });
    expect(await driver.status()).toMatchObject({ state: 'offline' });
  });
});
