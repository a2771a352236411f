/**
 * The streaming driver's status pre-check in a burst: a label sent right after the previous one
 * is judged by the ~HS answer the printer gave after that label (or by a poll) on the same open
 * connection, instead of asking again; anything older, a new connection, or a printer whose
 * fresh answer names a problem still keeps the label unsent. Against the virtual printer (a real
 * TCP listener); the ~HS queries are counted from the bytes it received, never from timings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ZplTcpOptions } from '../../../electron/printing/zplTcpDriver';
import type { VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const label = (code: string) =>
  `^XA^CI28^PW1181^LL600^FO50,50^A0N,40,40^FDŠtítek ${code}, Žluťoučký kůň^FS^FO50,150^BY3^BCN,200,Y,N,N^FD${code}^FS^XZ`;

/** Every ~HS query the printer received, over all its connections. */
const statusQueries = (printer: VirtualZplPrinter) =>
  printer.connections().reduce((n, c) => n + (c.toString('latin1').match(/~HS/g) ?? []).length, 0);
const received = (printer: VirtualZplPrinter) => Buffer.concat(printer.connections()).toString('utf8');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Past sending: the driver's answer for the label is in. */
const settled = (state: string) => !['queued', 'sending', 'sent'].includes(state);

/** The queue draining to the virtual printer through the streaming driver (host status on); labels print at once. */
async function rig(driverOpts: Partial<ZplTcpOptions> = {}) {
  const lane = await startStreamingLane({
    label,
    driver: { timeouts: { connectMs: 1000, writeMs: 2000, readMs: 800 }, ...driverOpts },
  });
  cleanup.push(lane.close);
  return {
    printer: lane.printer,
    queue: lane.queue,
    driver: lane.driver,
    enqueue: (code: string) => lane.enqueue(code).id,
  };
}

describe('the status pre-check in a burst of labels', () => {
  it('ten labels queued back to back print in order over one connection, with fewer than two ~HS queries a label', async () => {
    const { printer, queue, enqueue } = await rig();
    const ids = Array.from({ length: 10 }, (_, i) => enqueue(`DÁVKA-${i + 1}`));
    await waitFor(() => ids.every((id) => queue.get(id).state === 'done'), 20_000);
    expect(printer.printed().map((l) => l.zpl.match(/DÁVKA-\d+/)![0])).toEqual(ids.map((_, i) => `DÁVKA-${i + 1}`));
    expect(printer.connections()).toHaveLength(1);
    for (const id of ids) expect(queue.history(id).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
    // Asking before and after every label would be 20; the answer after one label serves the next.
    expect(statusQueries(printer)).toBeLessThan(2 * ids.length);
  });

  it('a printer paused after a label was accepted gets no byte of a label sent once that answer is no longer fresh', async () => {
    const { printer, queue, enqueue } = await rig();
    const first = enqueue('PAUZA-1');
    await waitFor(() => queue.get(first).state === 'done');
    printer.set({ paused: true });
    const asked = statusQueries(printer);
    // Well past the driver's freshness bound (50 ms): the "not paused" answer after PAUZA-1 is old.
    await sleep(300);
    const second = enqueue('PAUZA-2');
    await waitFor(() => settled(queue.get(second).state));
    expect(queue.get(second)).toMatchObject({ state: 'failed', reasonCode: 'paused', delivered: false });
    expect(queue.get(second).nextRetryAt).not.toBeNull();
    expect(queue.history(second).map((e) => e.state)).toEqual(['queued', 'failed']);
    expect(statusQueries(printer)).toBe(asked + 1);
    expect(received(printer)).not.toContain('PAUZA-2');
    expect(printer.printed().map((l) => l.zpl.match(/PAUZA-\d/)![0])).toEqual(['PAUZA-1']);
  });

  it('a fresh answer that names a problem is not reused: the printer is asked again, so a printer fixed a moment later prints at once', async () => {
    // A bound far longer than the test, so the answer below would surely be fresh when the label goes.
    const { printer, queue, driver, enqueue } = await rig({ statusFreshMs: 60_000 });
    const first = enqueue('PAPÍR-1');
    await waitFor(() => queue.get(first).state === 'done');
    printer.set({ paperOut: true });
    // The printer is asked on the connection the label went over (as a poll is).
    expect(await driver.status()).toMatchObject({ state: 'error', reasonCode: 'paper_out' });
    expect(printer.connections()).toHaveLength(1);
    const asked = statusQueries(printer);
    // The worker loads paper right away: a label judged by the remembered answer would wait for nothing.
    printer.set({ paperOut: false });
    const second = enqueue('PAPÍR-2');
    await waitFor(() => queue.get(second).state === 'done');
    expect(statusQueries(printer)).toBeGreaterThan(asked);
    expect(received(printer)).toContain('PAPÍR-2');
  });

  it('a new connection asks first, however recent the last answer on the one before', async () => {
    const { printer, queue, driver, enqueue } = await rig({ statusFreshMs: 60_000 });
    const first = enqueue('NOVÉ-1');
    await waitFor(() => queue.get(first).state === 'done');
    await driver.close!();
    printer.set({ headOpen: true });
    const asked = statusQueries(printer);
    const second = enqueue('NOVÉ-2');
    await waitFor(() => settled(queue.get(second).state));
    expect(queue.get(second)).toMatchObject({ state: 'failed', reasonCode: 'head_open', delivered: false });
    expect(printer.connections()).toHaveLength(2);
    expect(statusQueries(printer)).toBe(asked + 1);
    expect(received(printer)).not.toContain('NOVÉ-2');
  });

  it('a kept connection the printer closed is not trusted, however recent its last answer: the label waits, unsent', async () => {
    const { printer, queue, enqueue } = await rig({ statusFreshMs: 60_000 });
    const first = enqueue('RESTART-1');
    await waitFor(() => queue.get(first).state === 'done');
    // The printer restarts: it closes the connection the driver kept, and comes back paused.
    await printer.offline();
    await printer.online();
    printer.set({ paused: true });
    await sleep(100); // the close reaches the driver's side of the connection
    const second = enqueue('RESTART-2');
    await waitFor(() => settled(queue.get(second).state));
    // Not `uncertain`: no byte of the label went down the dead connection.
    expect(queue.get(second)).toMatchObject({ state: 'failed', reasonCode: 'paused', delivered: false });
    expect(queue.history(second).map((e) => e.state)).toEqual(['queued', 'failed']);
    expect(printer.connections()).toHaveLength(2);
    expect(received(printer)).not.toContain('RESTART-2');
  });
});
