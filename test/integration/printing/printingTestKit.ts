/** Shared pieces for the printing tests: a fresh database, our own test ZPL, barcode decoding, a streaming lane. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../../../electron/base/clock';
import type { PrintHooks } from '../../../electron/printing/printerDriver';
import { startVirtualZplPrinter, type VirtualPrinterOptions } from '../../../electron/printing/virtualZplPrinter';
import { createZplTcpDriver, type ZplTcpOptions } from '../../../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../../../electron/queue/printQueue';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createPrintJobsRepo, type StoredJob } from '../../../electron/store/printJobsRepo';
import { printerSettings } from '../../../shared/contract/printing';

export function tempDir(prefix = 'printing-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function freshDb(dir = tempDir()): { db: Db; file: string } {
  const file = path.join(dir, 'station.db');
  return { db: openDatabase(file), file };
}

/**
 * A package label as the service lays it out: 300 dpi (12 dots/mm), 10x15 cm, a Code 128 of the
 * package barcode (module 3 dots) and its text. Written here, not by the sandbox's generator.
 */
export function packageLabelZpl(barcode: string, recipient = 'Jana Novakova'): string {
  return [
    '^XA',
    '^CI28^PW1200^LL1800^LH0,0',
    '^FO60,60^A0N,60,60^FDParcel label^FS',
    `^FO60,160^A0N,50,50^FD${recipient}^FS`,
    `^FO90,400^BY3,3,300^BCN,300,Y,N,N^FD${barcode}^FS`,
    '^XZ',
  ].join('\n');
}

/** Decodes every barcode in a PNG with zbarimg (what a scanner would read from the printed label). */
export function decodeBarcodes(png: Buffer, dir = tempDir('zbar-')): Promise<string[]> {
  const file = path.join(dir, `img-${Math.random().toString(36).slice(2)}.png`);
  writeFileSync(file, png);
  return new Promise((resolve) => {
    execFile('zbarimg', ['-q', '--raw', file], (err, stdout) => {
      resolve(
        err && !stdout
          ? []
          : stdout
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean),
      );
    });
  });
}

/** Hooks for calling a driver directly, outside the queue. */
export function printHooks(accepted: () => void = () => undefined): PrintHooks {
  return { sending: () => undefined, accepted };
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000, stepMs = 20): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * A label printer's lane as the station drains it: the virtual ZPL printer (a real TCP listener),
 * a fresh queue database, the streaming driver (host status on, unless `hostStatus: false`: a raw
 * port's bursts) and the durable queue, started unless `start: false`. `close` stops them in
 * order. `label(code)` is each test's own ZPL.
 */
export async function startStreamingLane(o: {
  label: (code: string) => string;
  hostStatus?: boolean;
  printer?: VirtualPrinterOptions;
  driver?: Partial<ZplTcpOptions>;
  onJobChanged?: (job: StoredJob) => void;
  start?: boolean;
}) {
  const printer = await startVirtualZplPrinter(o.printer);
  const { db, file } = freshDb();
  const jobs = createPrintJobsRepo(db);
  const driver = createZplTcpDriver({
    host: '127.0.0.1',
    port: printer.port,
    settings: printerSettings.parse({ hostStatus: o.hostStatus ?? true }),
    printTimeoutMs: 5000,
    pollMs: 20,
    ...o.driver,
  });
  const queue = createPrintQueue({
    jobs,
    clock: systemClock,
    driverFor: () => driver,
    backoff: { baseMs: 60_000, maxMs: 60_000 },
    tickMs: 25,
    onJobChanged: o.onJobChanged,
  });
  if (o.start !== false) queue.start();
  const newJob = (code: string) => ({
    kind: 'print' as const,
    printerId: 'zebra',
    format: 'zpl' as const,
    payload: Buffer.from(o.label(code), 'utf8'),
    labelSize: null,
    title: code,
    barcodes: [code],
  });
  return {
    printer,
    db,
    file,
    jobs,
    driver,
    queue,
    newJob,
    enqueue: (code: string) => queue.enqueue(newJob(code)),
    async close() {
      await queue.stop();
      await driver.close?.();
      await printer.close();
      db.close();
    },
  };
}
