/**
 * Labels to a raw port without host status (a new printer's default, every print server), in
 * bursts: labels that come one after another go over one connection, and the printer closing it
 * after the station's close is the one proof that it read them all (docs/printer-behaviour-sources.md
 * §9). What a worker would check: every label prints once, in order; none is called printed before
 * that proof; a connection lost mid-burst leaves every label written on it for the worker to look
 * at (uncertain), never printed, never failed and sent again by itself. Real parts: the virtual
 * ZPL printer on a TCP listener, the durable queue in SQLite. No timing is asserted (that is bench/batchClose).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../../../electron/queue/printQueue';
import { openDatabase } from '../../../electron/store/database';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { printerSettings } from '../../../shared/contract/printing';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const label = (code: string) =>
  `^XA^CI28^PW812^LL400^FO40,40^A0N,40,40^FDZásilka ${code} – Příliš žluťoučký kůň^FS^FO40,120^BY2^BCN,120,Y,N,N^FD${code}^FS^XZ`;
const codesPrinted = (printed: { zpl: string }[]) => printed.map((l) => /RAW-\d+/.exec(l.zpl)?.[0]);
const settledStates = ['done', 'uncertain', 'unconfirmed', 'cancelled'];

/**
 * A raw lane whose labels are all queued before it starts. `settleMs` (the pause after a label
 * before the station closes its side) is long here, so a loaded test machine never ends a burst
 * between two labels of the batch; the order of what happens does not depend on it.
 */
async function rawLane(o: { closeDelayMs?: number; settleMs?: number; maxBurstFormats?: number } = {}) {
  const lane = await startStreamingLane({
    label,
    hostStatus: false,
    printer: { profile: { closeDelayMs: o.closeDelayMs ?? 0 } },
    driver: { settleMs: o.settleMs ?? 1000, maxBurstFormats: o.maxBurstFormats },
    start: false,
  });
  cleanup.push(lane.close);
  const enqueueAll = (codes: string[]) => lane.queue.enqueueAll(codes.map(lane.newJob), () => []).map((j) => j.id);
  return { ...lane, enqueueAll };
}

describe('labels streamed to a raw port in a burst', () => {
  it('a batch goes over one connection, prints once each in order, and each is done only once the printer closed it', async () => {
    // The printer closes its side 2 s after the station's (it renders first, as erikn69/ZplEscPrinter does, §5b).
    const { printer, queue, enqueueAll } = await rawLane({ closeDelayMs: 2000 });
    const codes = Array.from({ length: 6 }, (_, i) => `RAW-${i + 1}`);
    const ids = enqueueAll(codes);
    queue.start();

    // Every label is out of the printer, and still none is called printed: nothing proved it read them yet.
    await waitFor(() => printer.printed().length === codes.length);
    expect(ids.map((id) => queue.get(id).state)).toEqual(ids.map(() => 'sending'));

    await waitFor(() => ids.every((id) => queue.get(id).state === 'done'), 20_000);
    expect(codesPrinted(printer.printed())).toEqual(codes);
    expect(printer.printed()[0]!.zpl).toContain('Příliš žluťoučký kůň');
    // One connection carried the whole batch.
    expect(printer.connections().filter((c) => c.toString('latin1').includes('^XA'))).toHaveLength(1);
    for (const id of ids) expect(queue.history(id).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
  });

  it('a printer that resets in the middle of a burst: every label written on that connection is uncertain (also those it printed), none is sent again by itself, none prints twice', async () => {
    const { printer, queue, enqueueAll } = await rawLane();
    const codes = Array.from({ length: 5 }, (_, i) => `RAW-${i + 1}`);
    // It drops off halfway through the third label: the first two came out whole.
    printer.set({ closeAfterBytes: Math.floor(Buffer.byteLength(label('RAW-1')) * 2.5) });
    const ids = enqueueAll(codes);
    queue.start();

    await waitFor(() => ids.slice(0, 3).every((id) => queue.get(id).state === 'uncertain'));
    expect(codesPrinted(printer.printed()).slice(0, 2)).toEqual(['RAW-1', 'RAW-2']);
    printer.set({ closeAfterBytes: null });
    // Labels not written when the connection went (if any) wait for the printer, then go over a new one.
    queue.printerBack('zebra');
    await waitFor(() => ids.every((id) => settledStates.includes(queue.get(id).state)), 20_000);

    // The station cannot tell which labels of the cut connection the printer read: the worker
    // looks (two of them did print), never "printed", never "failed" with a retry that would print them twice.
    for (const id of ids.slice(0, 3)) expect(queue.get(id)).toMatchObject({ state: 'uncertain', delivered: true });
    const printed = codesPrinted(printer.printed());
    expect(new Set(printed).size).toBe(printed.length);
    expect(printed).not.toContain('RAW-3');
    for (const [i, id] of ids.entries()) {
      const state = queue.get(id).state;
      expect(['done', 'uncertain']).toContain(state);
      if (state === 'done') expect(printed).toContain(codes[i]);
    }
  });

  it('a station cut off while its burst waits for the printer to close: after the restart every label of it is uncertain, none done', async () => {
    // The printer closes only 5 s after the station's close; the station stops before that.
    const lane = await rawLane({ closeDelayMs: 5000, settleMs: 50 });
    const ids = lane.enqueueAll(['RAW-1', 'RAW-2', 'RAW-3']);
    lane.queue.start();
    await waitFor(() => lane.printer.printed().length === 3);
    expect(ids.map((id) => lane.queue.get(id).state)).toEqual(['sending', 'sending', 'sending']);
    // What a kill leaves in the store: the first run writes nothing more.
    await lane.queue.stop(0);
    lane.db.close();

    const db = openDatabase(lane.file);
    cleanup.push(() => {
      db.close();
    });
    const driver = createZplTcpDriver({
      host: '127.0.0.1',
      port: lane.printer.port,
      settings: printerSettings.parse({ hostStatus: false }),
    });
    const queue = createPrintQueue({ jobs: createPrintJobsRepo(db), clock: systemClock, driverFor: () => driver });
    const recovered = queue.start();
    cleanup.push(() => queue.stop());
    expect(recovered.uncertain).toEqual(ids);
    expect(ids.map((id) => queue.get(id))).toEqual(
      ids.map(() => expect.objectContaining({ state: 'uncertain', delivered: true })),
    );
  });

  it('a printer that closed its last burst in order and resets the next one: every label of that burst is uncertain, never printed; a reset that answers the close after the pause is its close again', async () => {
    // Bursts of two labels; the printer first ends its connections in order (a Zebra's own port).
    const { printer, queue, enqueueAll } = await rawLane({ maxBurstFormats: 2 });
    queue.start();
    const first = enqueueAll(['RAW-1', 'RAW-2']);
    await waitFor(() => first.every((id) => queue.get(id).state === 'done'), 20_000);

    // Now it answers the station's close with a reset (as a print server does). The full burst was
    // closed at once after its last label, so nothing tells this reset from one in the middle of a label.
    printer.setProfile({ resetOnClose: true });
    const second = enqueueAll(['RAW-3', 'RAW-4']);
    await waitFor(() => second.every((id) => settledStates.includes(queue.get(id).state)), 20_000);
    for (const id of second) expect(queue.get(id)).toMatchObject({ state: 'uncertain', delivered: true });

    // The next burst waits the pause before the close again: a reset after it answers the close.
    const third = enqueueAll(['RAW-5', 'RAW-6']);
    await waitFor(() => third.every((id) => settledStates.includes(queue.get(id).state)), 20_000);
    expect(third.map((id) => queue.get(id).state)).toEqual(['done', 'done']);
    // Each label came out once, in order: none was sent again by itself.
    expect(codesPrinted(printer.printed())).toEqual(['RAW-1', 'RAW-2', 'RAW-3', 'RAW-4', 'RAW-5', 'RAW-6']);
  });
});
