/**
 * Keeping the printer busy (issue "labels right and fast"): 100 labels of 10x15 cm queued for the
 * virtual ZPL printer printing at 6 ips, host status on, drained by the durable queue and the
 * streaming driver. Wall time against the printer's own print time (100 x label length / speed)
 * plus the first label's latency (queued to first byte at the printer); the target ratio is <= 1.05.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../electron/clock';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { createZplTcpDriver } from '../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../electron/queue/printQueue';
import { openDatabase } from '../electron/store/database';
import { createPrintJobsRepo } from '../electron/store/printJobsRepo';
import { printerSettings } from '../shared/contract/printing';

const LABELS = Number(process.env.BENCH_STREAM_LABELS ?? 100);
const IPS = 6;
const DPI = 300;
const LL = 1772; // 10x15 cm at 300 dpi, as the service lays it out

function label(i: number): string {
  return `^XA^CI28^PW1181^LL${LL}^LH0,0^FO60,60^A0N,60,60^FDBalík č. ${i}^FS^FO90,400^BY3,3,300^BCN,300,Y,N,N^FDPKG${String(i).padStart(6, '0')}^FS^XZ\n`;
}

export async function run(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-'));
  const printer = await startVirtualZplPrinter({ speedIps: IPS, dpi: DPI });
  const db = openDatabase(path.join(dir, 'station.db'));
  const jobs = createPrintJobsRepo(db);
  const driver = createZplTcpDriver({ host: '127.0.0.1', port: printer.port, settings: printerSettings.parse({ hostStatus: true, dpi: DPI }) });
  const queue = createPrintQueue({ jobs, clock: systemClock, driverFor: () => driver });
  try {
    for (let i = 0; i < LABELS; i++) {
      jobs.insert({ kind: 'print', printerId: 'zebra', format: 'zpl', payload: Buffer.from(label(i), 'utf8'), labelSize: '10x15', title: `job ${i}` }, new Date());
    }
    let firstByte = 0;
    const t0 = performance.now();
    const watch = setInterval(() => {
      if (!firstByte && printer.connections().some((c) => c.includes('^XA'))) firstByte = performance.now() - t0;
    }, 1);
    queue.start();
    await queue.settle();
    const wall = performance.now() - t0;
    clearInterval(watch);
    const done = jobs.countByState()['done'] ?? 0;
    if (done !== LABELS || printer.printed().length !== LABELS) throw new Error(`${done} jobs done, ${printer.printed().length} labels printed of ${LABELS}`);
    const perLabelMs = ((LL / DPI) / IPS) * 1000;
    const printTime = LABELS * perLabelMs;
    return {
      labels: LABELS,
      print_speed_ips: IPS,
      label_print_ms: perLabelMs,
      printer_print_time_ms: printTime,
      first_label_latency_ms: firstByte,
      wall_ms: wall,
      wall_vs_print_time_plus_first_ratio: wall / (printTime + firstByte),
      printer_idle_ms: Math.max(0, wall - printTime - firstByte),
    };
  } finally {
    await queue.stop();
    await driver.close?.();
    await printer.close();
    db.close();
  }
}
