/**
 * "Nothing more comes out", waited on an event instead of a fixed sleep: a marker label queued now
 * on the same printer comes out after every label queued before it (a printer's lane prints its
 * jobs in order), so once it is out, the labels before it are all the queue had to print.
 */
import type { PrintedLabel, VirtualZplPrinter } from '../../electron/printing/virtualZplPrinter';
import type { NewPrintJob } from '../../electron/store/printJobsRepo';

const MARK = 'TEST-MARKER-';
let markers = 0;

/** Whether a printed label is one of these markers (left out of what a test counts). */
export const isMarker = (l: PrintedLabel) => l.zpl.includes(MARK);

/**
 * Queues a marker label on `printerId` (through `enqueue`, the print queue's) and waits until
 * `printer` has printed it; resolves with the labels it printed before it, markers left out.
 */
export async function labelsBeforeMarker(
  printer: VirtualZplPrinter,
  enqueue: (job: NewPrintJob) => unknown,
  printerId: string,
  timeoutMs = 15_000,
): Promise<PrintedLabel[]> {
  const text = `${MARK}${++markers}`;
  enqueue({
    kind: 'print',
    printerId,
    format: 'zpl',
    payload: Buffer.from(`^XA^FO50,50^A0N,40,40^FD${text}^FS^XZ`),
    title: text,
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const printed = printer.printed();
    const at = printed.findIndex((l) => l.zpl.includes(text));
    if (at >= 0) return printed.slice(0, at).filter((l) => !isMarker(l));
    if (Date.now() > deadline) throw new Error(`the marker label ${text} did not come out within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
