/**
 * A printer that drops off while the streaming driver keeps its connection open (host status on).
 * The virtual printer (a real TCP listener) closes each connection after `closeAfterBytes`; the
 * connection the driver kept from an earlier label already carried more than that, so the drop
 * must reach the driver at once, as a real printer that went away does (a reset), not as a port
 * that stays open and silent: the job must be `uncertain` within the time the worker's request
 * waits for it (well before the status read timeout), its label not counted printed, and "Print
 * again" must go over a new connection and print it once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const label = (code: string) =>
  `^XA^CI28^PW1181^LL600^FO50,50^A0N,40,40^FDŠtítek ${code}^FS^FO50,150^BY3^BCN,200,Y,N,N^FD${code}^FS^XZ`;
/** How long the driver waits for a ~HS answer: a drop must be known long before that. */
const READ_MS = 5000;

describe('a printer that drops off under a kept-open streaming connection', () => {
  it('leaves the job uncertain at once, prints nothing for it, and "Print again" reconnects and prints it once', async () => {
    const lane = await startStreamingLane({ label, driver: { timeouts: { readMs: READ_MS } } });
    cleanup.push(lane.close);
    const { printer, queue, enqueue } = lane;

    // A first label: the driver keeps its connection open afterwards.
    const first = enqueue('KEPT-1').id;
    await waitFor(() => queue.get(first).state === 'done');

    printer.set({ closeAfterBytes: 40 });
    const dropped = enqueue('DROP-2').id;
    const started = Date.now();
    await waitFor(() => !['queued', 'sending', 'sent'].includes(queue.get(dropped).state), READ_MS / 2);
    expect(Date.now() - started).toBeLessThan(READ_MS / 2);
    // Part of the label reached the printer before it dropped: whether it printed is unknown.
    expect(queue.get(dropped)).toMatchObject({ state: 'uncertain', reasonCode: 'connection_lost', delivered: true });
    expect(queue.history(dropped).map((e) => e.state)).toEqual(['queued', 'sending', 'uncertain']);
    expect(printer.printed().map((l) => l.zpl.match(/(KEPT|DROP)-\d/)![0])).toEqual(['KEPT-1']);
    const cut = printer.connections().at(-1)!.toString('latin1');
    expect(cut).toContain('^XA');
    expect(cut).not.toContain('DROP-2');

    printer.set({ closeAfterBytes: null });
    const connectionsBefore = printer.connections().length;
    const again = queue.reprint(dropped).id;
    await waitFor(() => queue.get(again).state === 'done');
    expect(queue.get(dropped).state).toBe('cancelled');
    expect(printer.printed().map((l) => l.zpl.match(/(KEPT|DROP)-\d/)![0])).toEqual(['KEPT-1', 'DROP-2']);
    // The dropped connection is not used again: the reprint went over a new one.
    expect(printer.connections().length).toBe(connectionsBefore + 1);
    expect(printer.connections().at(-1)!.toString('latin1')).toContain('DROP-2');
  });
});
