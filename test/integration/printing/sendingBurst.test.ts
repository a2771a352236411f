/**
 * Labels sent in a burst (electron/queue/printQueue.ts burstOf): when a streaming printer has room
 * for the queued labels behind the one it prints next, they are committed `sending` together, in
 * one commit before the first byte, instead of one disk sync before each label. What a worker
 * would check: every label prints once, in order; what a crash at that moment would leave is said
 * honestly (every label of the burst is `sending`, so `uncertain` after a restart, never silently
 * sent again); a printer that refuses the burst leaves its labels waiting in line, none printed.
 * Real parts: the virtual ZPL printer on a TCP listener answering ~HS, the durable queue in SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredJob } from '../../../electron/store/printJobsRepo';
import { startStreamingLane, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const label = (code: string) =>
  `^XA^CI28^PW812^LL400^FO40,40^A0N,40,40^FDZásilka ${code} – Žluťoučký kůň^FS^FO40,120^BY2^BCN,120,Y,N,N^FD${code}^FS^XZ`;

async function rig(opts: { paused?: boolean; offAtBurst?: boolean } = {}) {
  /** Each moment a job turned `sending`: the states of all jobs as committed then. */
  const atSending: { id: number; states: Record<number, string> }[] = [];
  let switchedOff: Promise<void> | null = null;
  const ids: number[] = [];
  const lane = await startStreamingLane({
    label,
    printer: { speedIps: 1000, dpi: 203 },
    driver: { maxBuffered: 3 },
    start: false,
    onJobChanged: (j: StoredJob) => {
      if (j.state !== 'sending') return;
      atSending.push({ id: j.id, states: Object.fromEntries(ids.map((id) => [id, lane.jobs.get(id)!.state])) });
      // Switched off the moment a burst is committed: its labels' bytes have not left yet.
      const inBurst = ids.filter((id) => lane.jobs.get(id)!.state === 'sending').length;
      if (opts.offAtBurst && inBurst >= 2 && !switchedOff) switchedOff = lane.printer.offline();
    },
  });
  cleanup.push(lane.close);
  if (opts.paused) lane.printer.set({ paused: true });
  const enqueueAll = (codes: string[]) => lane.queue.enqueueAll(codes.map(lane.newJob), () => []);
  return {
    printer: lane.printer,
    queue: lane.queue,
    jobs: lane.jobs,
    ids,
    atSending,
    enqueueAll,
    switchedOff: () => switchedOff,
  };
}

describe('labels sent in a burst to a printer with room for them', () => {
  it('commits the labels the printer has room for `sending` together before the first byte, and prints each once, in order', async () => {
    const r = await rig();
    const codes = Array.from({ length: 7 }, (_, i) => `DAVKA-${i + 1}`);
    r.ids.push(...r.enqueueAll(codes).map((j) => j.id));
    r.queue.start();
    await waitFor(() => r.ids.every((id) => r.queue.get(id).state === 'done'), 20_000);

    // The first label went alone (the printer was asked first, on a new connection). Mid-stream,
    // labels turned `sending` together with the ones behind them that fit in the printer's buffer
    // (3 labels): a crash then leaves all of them `sending`, which the next start turns into `uncertain`.
    const first = r.atSending.find((x) => x.id === r.ids[0])!;
    expect(r.ids.slice(1).map((id) => first.states[id])).toEqual(r.ids.slice(1).map(() => 'queued'));
    const second = r.atSending.find((x) => x.id === r.ids[1])!;
    const together = r.ids.filter((id) => second.states[id] === 'sending');
    expect(together.length).toBeGreaterThanOrEqual(2);
    expect(together.length).toBeLessThanOrEqual(3);
    expect(together).toEqual(r.ids.slice(1, 1 + together.length));
    expect(r.printer.printed().map((l) => /DAVKA-\d/.exec(l.zpl)?.[0])).toEqual(codes);
    expect(r.printer.printed()[0]!.zpl).toContain('Žluťoučký kůň');
    for (const id of r.ids)
      expect(r.queue.history(id).map((e) => e.state)).toEqual(['queued', 'sending', 'sent', 'done']);
  });

  it('a paused printer gets no burst: its labels wait in line, never `sending`, and print once each when it resumes', async () => {
    const r = await rig({ paused: true });
    const codes = ['PAUZA-1', 'PAUZA-2', 'PAUZA-3', 'PAUZA-4'];
    r.ids.push(...r.enqueueAll(codes).map((j) => j.id));
    r.queue.start();
    await waitFor(() => r.queue.get(r.ids[0]!).state === 'failed');
    await waitFor(() => r.ids.slice(1).every((id) => r.queue.get(id).state === 'queued'));
    expect(r.queue.get(r.ids[0]!)).toMatchObject({ state: 'failed', reasonCode: 'paused', delivered: false });
    expect(r.queue.get(r.ids[0]!).nextRetryAt).not.toBeNull();
    // Never `sending` (a crash now leaves nothing uncertain): the printer said it was paused.
    expect(r.queue.history(r.ids[1]!).map((e) => e.state)).toEqual(['queued']);
    expect(r.queue.history(r.ids[0]!).map((e) => e.state)).toEqual(['queued', 'failed']);
    expect(r.ids.every((id) => !r.queue.get(id).delivered)).toBe(true);
    expect(r.printer.printed()).toEqual([]);

    r.printer.set({ paused: false });
    r.queue.printerBack('zebra');
    await waitFor(() => r.ids.every((id) => r.queue.get(id).state === 'done'), 20_000);
    expect(r.printer.printed().map((l) => /PAUZA-\d/.exec(l.zpl)?.[0])).toEqual(codes);
  });

  it('a printer switched off right after a burst was committed: its labels not sent wait for the printer, never left `sending`, and print once when it is back', async () => {
    const r = await rig({ offAtBurst: true });
    const codes = Array.from({ length: 7 }, (_, i) => `VYPNUTO-${i + 1}`);
    r.ids.push(...r.enqueueAll(codes).map((j) => j.id));
    r.queue.start();
    await waitFor(() => r.switchedOff() !== null, 20_000);
    await r.switchedOff();
    // Each label of the burst ends where the worker or the lane can see it: printed, uncertain (its
    // bytes left as the printer went off), or waiting for the printer; none stays `sending`.
    await waitFor(() => r.ids.some((id) => r.queue.get(id).state === 'failed'), 20_000);
    expect(r.ids.filter((id) => r.queue.get(id).state === 'sending')).toEqual([]);
    await r.printer.online();
    r.queue.printerBack('zebra');
    await waitFor(() => r.ids.every((id) => ['done', 'uncertain'].includes(r.queue.get(id).state)), 20_000);
    const printed = r.printer.printed().map((l) => /VYPNUTO-\d/.exec(l.zpl)?.[0]);
    expect(new Set(printed).size).toBe(printed.length);
    for (const id of r.ids.filter((x) => r.queue.get(x).state === 'done'))
      expect(printed).toContain(codes[r.ids.indexOf(id)]);
  });

  it('a restart right after a burst was committed: every label of it is uncertain (the worker decides), the labels behind it print once', async () => {
    const r = await rig();
    const at = new Date();
    const made = ['PAD-1', 'PAD-2', 'PAD-3', 'PAD-4'].map((code) =>
      r.jobs.insert(
        {
          kind: 'print',
          printerId: 'zebra',
          format: 'zpl',
          payload: Buffer.from(label(code), 'utf8'),
          labelSize: null,
          title: code,
          barcodes: [code],
        },
        at,
      ),
    );
    // What a kill right after the burst's commit leaves: three `sending`, one queued behind them;
    // the queue starts on it as a restarted station's does.
    r.jobs.transaction(() => made.slice(0, 3).forEach((j) => r.jobs.setState(j.id, 'sending', at, { attempt: true })));
    const recovered = r.queue.start();
    expect(recovered.uncertain).toEqual(made.slice(0, 3).map((j) => j.id));
    await waitFor(() => r.queue.get(made[3]!.id).state === 'done');
    expect(r.printer.printed().map((l) => /PAD-\d/.exec(l.zpl)?.[0])).toEqual(['PAD-4']);
    expect(made.slice(0, 3).map((j) => r.queue.get(j.id).state)).toEqual(['uncertain', 'uncertain', 'uncertain']);
  });
});
