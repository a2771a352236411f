/**
 * A Zebra that goes silent at a stop. Zebra's guide, under ~HS: "When a ~HS command is sent the
 * printer will not send a response to the host if the printer is in one of these conditions: MEDIA
 * OUT, RIBBON OUT, HEAD OPEN, REWINDER FULL, HEAD OVER-TEMPERATURE"; its ~HQ examples answer ~HQES
 * in those states ("ERRORS: 1 00000000 00000005": media out (1) and head open (4)). Sources quoted
 * in docs/printer-behaviour-sources.md (§ 1a, 2b, 2e). The virtual printer (a real TCP listener) has
 * the profile `silentOnFault`: no ~HS answer while out of labels or ribbon or with its head open,
 * ~HQES answered with those bits.
 *
 * What the worker must see: the stop named after the station's next status question, while labels
 * wait on the printer, however long those labels take to print; and the moment the printer prints
 * again, the labels in it say so, never "not answering" and never the stop that is over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PrintError } from '../../../electron/printing/printerDriver';
import type { VirtualPrinterOptions } from '../../../electron/printing/virtualZplPrinter';
import type { StoredJob } from '../../../electron/store/printJobsRepo';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A 10×15 cm label at 300 dpi: ^LL1800 is six inches. Czech text, as the service's labels carry. */
const label = (code: string) => {
  const copies = /-x(\d+)$/.exec(code)?.[1];
  return `^XA^CI28^PW1181^LL1800^FO50,50^A0N,40,40^FDPříjemce: Šárka Řeháková ${code}^FS^FO50,150^BY3^BCN,200,Y,N,N^FD${code}^FS${copies ? `^PQ${copies}` : ''}^XZ`;
};

/** A lane whose every job change and every word on the printer's state is kept, in order. */
async function recordedLane(printer: VirtualPrinterOptions) {
  const changes: { id: number; state: string; reasonCode: string | null }[] = [];
  /** What the printer's state was told (the Station screen's printer chip, the Status screen): a reason code, null for ready. */
  const printerSaid: (string | null)[] = [];
  const lane = await startStreamingLane({
    label,
    printer,
    // The read timeout is the station's "a few seconds" (3 s by default), shortened for the tests.
    driver: { timeouts: { connectMs: 1000, writeMs: 3000, readMs: 800 } },
    onJobChanged: (j: StoredJob) => changes.push({ id: j.id, state: j.state, reasonCode: j.reasonCode }),
    onPrinterResult: (e: PrintError | null) => printerSaid.push(e ? e.code : null),
  });
  cleanup.push(() => lane.close());
  const reasonsOf = (id: number) => changes.filter((c) => c.id === id).map((c) => `${c.state}:${c.reasonCode}`);
  return { ...lane, changes, printerSaid, reasonsOf };
}

describe('a printer silent on ~HS while it is stopped', () => {
  it('out of labels with a 100-label shipment in it: named "out of labels" from ~HQES before any of its labels came out, and the status probe says it too', async () => {
    // 100 six-inch labels (^PQ100) and one more: the station allows a printer that answers ~HS
    // only once its labels are out their printing time (at 2 in/s, five minutes), so a station
    // that asked what stops it only after that wait would name nothing while they are in it. At
    // 0.01 in/s none of them comes out during the test.
    const lane = await recordedLane({ speedIps: 0.01, dpi: 300, profile: { silentOnFault: true } });
    const ids = [lane.enqueue('PKG-P1-x100').id, lane.enqueue('PKG-P2').id];
    await waitFor(() => ids.every((id) => lane.queue.get(id).state === 'sent'));
    lane.printer.set({ paperOut: true });

    await waitFor(() => ids.every((id) => lane.queue.get(id).reasonCode === 'paper_out'), 60_000);
    // Named while the labels are still in the printer: they stay `sent` (never offered for reprint).
    expect(lane.printer.printed()).toEqual([]);
    expect(lane.printer.buffered()).toBe(2);
    expect(ids.map((id) => lane.queue.get(id).state)).toEqual(['sent', 'sent']);
    // What named it: the printer's answer to ~HQES (its ~HS went unanswered).
    expect(lane.printer.connections().some((c) => c.toString('latin1').includes('~HQES'))).toBe(true);
    expect(lane.printerSaid).toContain('paper_out');
    // The printer probe (what the Status screen and the printer chip show) names it as well.
    expect(await lane.driver.status()).toMatchObject({ state: 'error', reasonCode: 'paper_out' });

    // Loaded, and printing at full speed: both labels come out and are confirmed.
    lane.printer.setSpeed(null);
    lane.printer.set({ paperOut: false });
    await waitFor(() => ids.every((id) => lane.queue.get(id).state === 'done'), 20_000);
    expect(lane.printer.labelCount()).toBe(101);
    // A printer that answers again is never called "not answering", and its state ends ready.
    expect(lane.changes.filter((c) => c.reasonCode === 'not_answering')).toEqual([]);
    expect(lane.printerSaid).not.toContain('not_answering');
    expect(lane.printerSaid.at(-1)).toBeNull();
    expect(await lane.driver.status()).toMatchObject({ state: 'ready' });
  });

  it('head open, then closed: "head open" while it is open, and the labels still in it say "in the printer" as soon as it prints again, not "head open" nor "not answering"', async () => {
    // 2 in/s: three seconds a label, so the last of three is still in the printer while the first prints.
    const lane = await recordedLane({ speedIps: 2, dpi: 300, profile: { silentOnFault: true } });
    const ids = ['PKG-H1', 'PKG-H2', 'PKG-H3'].map((c) => lane.enqueue(c).id);
    await waitFor(() => ids.every((id) => lane.queue.get(id).state === 'sent'));
    lane.printer.set({ headOpen: true });
    await waitFor(() => ids.every((id) => lane.queue.get(id).reasonCode === 'head_open'), 20_000);
    expect(lane.printer.printed()).toEqual([]);

    lane.printer.set({ headOpen: false });
    await waitFor(() => ids.every((id) => lane.queue.get(id).state === 'done'), 30_000);
    expect(lane.printer.printed()).toHaveLength(3);
    // The last label, in the printer all along: the stop, then in the printer again (printing), then done.
    const last = lane.reasonsOf(ids[2]!);
    const stopAt = last.lastIndexOf('sent:head_open');
    expect(last.slice(stopAt)).toEqual(['sent:head_open', 'sent:in_printer', 'done:null']);
    expect(lane.changes.filter((c) => c.reasonCode === 'not_answering')).toEqual([]);
    expect(lane.printerSaid).not.toContain('not_answering');
    // The printer's state was told "ready" once it printed again.
    expect(lane.printerSaid.slice(lane.printerSaid.lastIndexOf('head_open'))).toContain(null);
  });

  it('a printer that answers ~HS only once its labels are out and ignores ~HQES (Ladder99: "not all printers handle this"): the labels are confirmed, never "not answering"', async () => {
    // answerAfterDrain: the wait for a ~HS answer is the read timeout plus the labels' printing
    // time; ~HQES, asked after the read timeout, gets nothing, so ~HS is asked again for the rest.
    const lane = await recordedLane({
      speedIps: 5,
      dpi: 300,
      profile: { answerAfterDrain: true, hostQuery: false },
    });
    const ids = ['PKG-D1', 'PKG-D2', 'PKG-D3'].map((c) => lane.enqueue(c).id);
    await waitFor(() => ids.every((id) => lane.queue.get(id).state === 'done'), 30_000);
    expect(lane.printer.printed()).toHaveLength(3);
    expect(lane.changes.filter((c) => c.reasonCode === 'not_answering' || c.state === 'uncertain')).toEqual([]);
  });
});
