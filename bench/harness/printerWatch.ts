/** Waiting on the benchmark's virtual printer (it lives in the benchmark process, not the core's). */
import { performance } from 'node:perf_hooks';
import type { VirtualZplPrinter } from '../../electron/printing/virtualZplPrinter';

/** Resolves once the printer holds `n` labels, at the time the last one arrived (polled every millisecond). */
export async function labelsAt(printer: VirtualZplPrinter, n: number, timeoutMs = 120_000): Promise<number> {
  const until = performance.now() + timeoutMs;
  while (printer.printed().length < n) {
    if (performance.now() > until)
      throw new Error(`the printer has ${printer.printed().length} labels, waited for ${n}`);
    await new Promise((r) => setTimeout(r, 1));
  }
  return performance.now();
}
