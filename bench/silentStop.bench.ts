/**
 * A Zebra that goes silent when it stops (no ~HS answer while out of labels, Zebra's guide),
 * with the station's own timings (read timeout 3 s, poll 100 ms): how long from the paper running
 * out until the labels waiting on it are named "out of labels" (from ~HQES), with a 100-label
 * shipment in the printer and with the label still waiting to be sent; and from loading paper
 * until the labels held in the printer say "in the printer" again. Target: each within 5 s.
 * The virtual ZPL printer (profile `silentOnFault`) prints at 0.01 in/s, so no label comes out
 * while it is measured.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../electron/base/clock';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { createZplTcpDriver } from '../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../electron/queue/printQueue';
import { openDatabase } from '../electron/store/database';
import { createPrintJobsRepo } from '../electron/store/printJobsRepo';
import { printerSettings } from '../shared/contract/printing';

const label = (code: string, copies = 1) =>
  `^XA^CI28^PW1181^LL1800^FO50,50^A0N,40,40^FDBalík ${code}^FS${copies > 1 ? `^PQ${copies}` : ''}^XZ`;

async function until(check: () => boolean): Promise<number> {
  const t0 = performance.now();
  while (!check()) {
    if (performance.now() - t0 > 120_000) throw new Error('not reached in 120 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - t0;
}

async function measure() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-silent-'));
  const printer = await startVirtualZplPrinter({ speedIps: 0.01, dpi: 300, profile: { silentOnFault: true } });
  const db = openDatabase(path.join(dir, 'station.db'));
  const jobs = createPrintJobsRepo(db);
  // The station's defaults: nothing but the printer's address and host status.
  const driver = createZplTcpDriver({
    host: '127.0.0.1',
    port: printer.port,
    settings: printerSettings.parse({ hostStatus: true }),
  });
  const queue = createPrintQueue({ jobs, clock: systemClock, driverFor: () => driver });
  const enqueue = (code: string, copies = 1) =>
    queue.enqueue({
      kind: 'print',
      printerId: 'zebra',
      format: 'zpl',
      payload: Buffer.from(label(code, copies), 'utf8'),
      labelSize: null,
      title: code,
    }).id;
  try {
    queue.start();
    const inPrinter = [enqueue('A', 100), enqueue('B')];
    await until(() => inPrinter.every((id) => queue.get(id).state === 'sent'));
    printer.set({ paperOut: true });
    const namedInPrinterMs = await until(() => inPrinter.every((id) => queue.get(id).reasonCode === 'paper_out'));
    const waiting = enqueue('C');
    const namedWaitingMs = await until(() => queue.get(waiting).reasonCode === 'paper_out');
    printer.set({ paperOut: false });
    const printingAgainMs = await until(() => inPrinter.every((id) => queue.get(id).reasonCode === 'in_printer'));
    return { namedInPrinterMs, namedWaitingMs, printingAgainMs };
  } finally {
    await queue.stop();
    await driver.close?.(100);
    await printer.close();
    db.close();
  }
}

export async function run(): Promise<Record<string, number>> {
  const runs: Awaited<ReturnType<typeof measure>>[] = [];
  for (let i = 0; i < 3; i++) runs.push(await measure());
  const max = (k: keyof (typeof runs)[number]) => Math.max(...runs.map((r) => r[k]));
  return {
    named_with_labels_in_printer_max_ms: max('namedInPrinterMs'),
    named_label_waiting_max_ms: max('namedWaitingMs'),
    in_printer_again_after_loading_max_ms: max('printingAgainMs'),
  };
}
