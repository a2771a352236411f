/** One station scan as the benchmarks time it: scan.submit (the page's Enter) until its label is at the printer. */
import { performance } from 'node:perf_hooks';
import type { VirtualZplPrinter } from '../../electron/printing/virtualZplPrinter';
import type { Core } from './core';
import { labelsAt } from './printerWatch';

/** Ms from submit to the label's last byte; the outcome awaited (it must be `printed`) so scans never overlap. */
export async function timedScan(core: Core, printer: VirtualZplPrinter, code: string): Promise<number> {
  const before = printer.printed().length;
  const outcome = core.waitFor('scan.outcome', (o) => o.code === code, 60_000);
  const t0 = performance.now();
  await core.call('scan.submit', { code });
  const t1 = await labelsAt(printer, before + 1, 60_000);
  const o = await outcome;
  if (o.kind !== 'printed') throw new Error(`scan ${code} ended ${o.kind}: ${JSON.stringify(o).slice(0, 300)}`);
  return t1 - t0;
}
