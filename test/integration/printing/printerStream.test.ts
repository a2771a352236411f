/**
 * Keeping the printer busy: with host status on, the driver sends the next label while the
 * current one prints (one connection kept open, a bounded number of labels in the printer's
 * buffer) and still confirms every label from the buffer counts ~HS reports. The virtual printer
 * prints at a set speed (label length from ^LL over inches per second). No timing is asserted
 * here (that is bench/printerStream): only what was sent when, and what is called printed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A 2-inch label at 300 dpi (^LL600): 0.1 s at 20 ips. */
const label = (code: string) =>
  `^XA^CI28^PW1181^LL600^FO50,50^A0N,40,40^FDŠtítek ${code}^FS^FO50,150^BY3^BCN,200,Y,N,N^FD${code}^FS^XZ`;

async function rig(ips: number) {
  const lane = await startStreamingLane({ label, printer: { speedIps: ips, dpi: 300 }, driver: { maxBuffered: 3 } });
  cleanup.push(lane.close);
  return { printer: lane.printer, queue: lane.queue, jobs: lane.jobs, enqueue: lane.enqueue };
}

describe('streaming labels to a printer that reports its status', () => {
  it('sends the next label while one prints, over one connection, and calls each printed only once it left the printer', async () => {
    const { printer, queue, enqueue } = await rig(10);
    const ids = Array.from({ length: 6 }, (_, i) => enqueue(`STREAM-${i + 1}`).id);
    // When the first label comes out, the next ones already wait in the printer's buffer.
    await waitFor(() => printer.printed().length >= 1);
    const states = ids.map((id) => queue.get(id).state);
    expect(states[1]).toMatch(/^(sent|done)$/);
    // Never "done" ahead of the printer: every done job's label is out.
    for (const [i, id] of ids.entries())
      if (queue.get(id).state === 'done') expect(printer.printed().length).toBeGreaterThan(i);
    // A condition, not a deadline: generous for a loaded CI machine.
    await waitFor(() => ids.every((id) => queue.get(id).state === 'done'), 90_000);
    expect(printer.printed().map((l) => l.zpl.match(/STREAM-\d/)![0])).toEqual(ids.map((_, i) => `STREAM-${i + 1}`));
    expect(printer.printed()[0]!.zpl).toContain('Štítek');
    // One connection for the whole stream (the status probes share it).
    expect(printer.connections().filter((c) => c.includes('^XA'))).toHaveLength(1);
    expect(queue.history(ids[5]!).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
  });

  it(
    'a paper-out in the middle of a stream: the labels in the printer wait in it, named, and are confirmed once paper is loaded',
    { timeout: 180_000 },
    async () => {
      // A Zebra keeps the formats it holds through a paper-out and prints them once paper is
      // loaded (docs/printer-behaviour-sources.md §7: formats counted in ~HS's eee stay there; ours too).
      const { printer, queue, enqueue } = await rig(10);
      const ids = Array.from({ length: 8 }, (_, i) => enqueue(`PAPER-${i + 1}`).id);
      await waitFor(() => printer.printed().length >= 2);
      printer.set({ paperOut: true });
      // The labels the printer holds stay `sent`, each noted "out of labels"; nothing is failed.
      await waitFor(
        () => ids.some((id) => queue.get(id).state === 'sent' && queue.get(id).reasonCode === 'paper_out'),
        20_000,
      );
      const held = ids.filter((id) => queue.get(id).state === 'sent');
      expect(held.length).toBeGreaterThan(0);
      for (const id of ids) expect(queue.get(id).state).not.toBe('uncertain');
      for (const id of held) expect(() => queue.reprint(id)).toThrow(/being printed/);
      printer.set({ paperOut: false });
      // The station's status probe sees the printer ready again: the labels that waited unsent go now.
      queue.printerBack('zebra');
      // A condition, not a deadline: generous for a loaded CI machine.
      await waitFor(() => ids.every((id) => queue.get(id).state === 'done'), 90_000);
      // Each label came out once, in order: no label the worker would have reprinted.
      expect(printer.printed().map((l) => l.zpl.match(/PAPER-\d/)![0])).toEqual(ids.map((_, i) => `PAPER-${i + 1}`));
    },
  );
});
