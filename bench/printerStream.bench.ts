/**
 * Keeping the printer busy: 100 labels of 10x15 cm queued for the
 * virtual ZPL printer printing at 6 ips, host status on, drained by the durable queue and the
 * streaming driver. Wall time against the printer's own print time (100 x label length / speed)
 * plus the first label's latency (queued to first byte at the printer); the target ratio is <= 1.05.
 *
 * Streaming across scans: the same at a fast printer (250 ms a label), 40 labels
 * queued together and 40 queued one by one as scans come (every 150 ms, faster than it prints);
 * and two 0.5 s labels queued 0.2 s apart, where the head's idle time between them is measured
 * from the printer's own clock (target: less than 5 % of a label).
 *
 * Every figure on both printer modes: `hs_` with host status (the streaming driver), `raw_` without
 * (labels in bursts over one connection, each burst proved by the printer's close).
 * BENCH_PRINTER_MODES (`hs,raw`) runs fewer.
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
import { printerModes, type PrinterMode } from './harness/printerMode';
import { labelsAt } from './harness/printerWatch';

const LABELS = Number(process.env.BENCH_STREAM_LABELS ?? 100);
const IPS = 6;
const DPI = 300;
const LL = 1772; // 10x15 cm at 300 dpi, as the service lays it out

function label(i: number): string {
  return `^XA^CI28^PW1181^LL${LL}^LH0,0^FO60,60^A0N,60,60^FDBalík č. ${i}^FS^FO90,400^BY3,3,300^BCN,300,Y,N,N^FDPKG${String(i).padStart(6, '0')}^FS^XZ\n`;
}

/** `labels` labels printed at `labelMs` each, queued `everyMs` apart (0: all at once); wall time against print time. */
async function stream(mode: PrinterMode, labels: number, labelMs: number, everyMs: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-'));
  const ips = LL / DPI / (labelMs / 1000);
  const printer = await startVirtualZplPrinter({ speedIps: ips, dpi: DPI });
  const db = openDatabase(path.join(dir, 'station.db'));
  const jobs = createPrintJobsRepo(db);
  const driver = createZplTcpDriver({
    host: '127.0.0.1',
    port: printer.port,
    settings: printerSettings.parse({ hostStatus: mode === 'hs', dpi: DPI }),
  });
  const queue = createPrintQueue({ jobs, clock: systemClock, driverFor: () => driver });
  const job = (i: number) => ({
    kind: 'print' as const,
    printerId: 'zebra',
    format: 'zpl' as const,
    payload: Buffer.from(label(i), 'utf8'),
    labelSize: '10x15',
    title: `job ${i}`,
  });
  try {
    queue.start();
    const t0 = performance.now();
    for (let i = 0; i < labels; i++) {
      if (everyMs && i) await new Promise((r) => setTimeout(r, everyMs));
      queue.enqueue(job(i));
    }
    while ((jobs.countByState()['done'] ?? 0) < labels) await new Promise((r) => setTimeout(r, 5));
    // A raw port's labels are done once the printer read them, before they come out: the last one out ends the run.
    await labelsAt(printer, labels, 120_000);
    const out = printer.printed();
    if (out.length !== labels) throw new Error(`${out.length} labels printed of ${labels}`);
    const first = out[0]!.startedMs - t0;
    const printTime = out.reduce((ms, l) => ms + (l.endedMs - l.startedMs), 0);
    const idle = out.slice(1).reduce((ms, l, i) => ms + Math.max(0, l.startedMs - out[i]!.endedMs), 0);
    const wall = out[out.length - 1]!.endedMs - t0;
    return { first, printTime, idle, wall, gaps: out.slice(1).map((l, i) => l.startedMs - out[i]!.endedMs) };
  } finally {
    await queue.stop();
    await driver.close?.();
    await printer.close();
    db.close();
  }
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const mode of printerModes)
    for (const [k, v] of Object.entries({ ...(await acrossScans(mode)), ...(await hundred(mode)) }))
      out[`${mode}_${k}`] = v;
  return out;
}

async function acrossScans(mode: PrinterMode): Promise<Record<string, number>> {
  const fast = await stream(mode, 40, 250, 0);
  const scans = await stream(mode, 40, 250, 150);
  const pair = await stream(mode, 2, 500, 200);
  return {
    fast_labels: 40,
    fast_label_ms: 250,
    fast_together_wall_vs_print_time_plus_first_ratio: fast.wall / (fast.printTime + fast.first),
    fast_together_idle_ms: fast.idle,
    fast_scans_150ms_apart_wall_vs_print_time_plus_first_ratio: scans.wall / (scans.printTime + scans.first),
    fast_scans_150ms_apart_idle_ms: scans.idle,
    pair_label_ms: 500,
    pair_scanned_apart_ms: 200,
    pair_head_idle_ms: pair.gaps[0]!,
    pair_head_idle_share_of_label: pair.gaps[0]! / 500,
  };
}

async function hundred(mode: PrinterMode): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-'));
  const printer = await startVirtualZplPrinter({ speedIps: IPS, dpi: DPI });
  const db = openDatabase(path.join(dir, 'station.db'));
  const jobs = createPrintJobsRepo(db);
  const driver = createZplTcpDriver({
    host: '127.0.0.1',
    port: printer.port,
    settings: printerSettings.parse({ hostStatus: mode === 'hs', dpi: DPI }),
  });
  const queue = createPrintQueue({ jobs, clock: systemClock, driverFor: () => driver });
  try {
    for (let i = 0; i < LABELS; i++) {
      jobs.insert(
        {
          kind: 'print',
          printerId: 'zebra',
          format: 'zpl',
          payload: Buffer.from(label(i), 'utf8'),
          labelSize: '10x15',
          title: `job ${i}`,
        },
        new Date(),
      );
    }
    let firstByte = 0;
    const t0 = performance.now();
    const watch = setInterval(() => {
      if (!firstByte && printer.connections().some((c) => c.includes('^XA'))) firstByte = performance.now() - t0;
    }, 1);
    queue.start();
    await queue.settle();
    await labelsAt(printer, LABELS, 600_000);
    const wall = performance.now() - t0;
    clearInterval(watch);
    const done = jobs.countByState()['done'] ?? 0;
    if (done !== LABELS || printer.printed().length !== LABELS)
      throw new Error(`${done} jobs done, ${printer.printed().length} labels printed of ${LABELS}`);
    const perLabelMs = (LL / DPI / IPS) * 1000;
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
