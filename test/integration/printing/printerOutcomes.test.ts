/**
 * What the queue may claim about a label, against real TCP listeners: a printer that accepts and
 * never reads is not "printed"; a printer that is off never makes a job `sending` (the state a
 * crash turns into "did it print?"); a printer that comes back prints its waiting jobs at once,
 * not at their backoff time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createPrintingService, type PrintingService } from '../../../electron/printing/printingService';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import { createPrintQueue, type PrintQueue } from '../../../electron/queue/printQueue';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createPrintersRepo } from '../../../electron/store/printersRepo';
import { createJobWaiter } from '../../../electron/workflows/jobWaiter';
import { printerSettings } from '../../../shared/contract/printing';
import { freshDb, packageLabelZpl, tempDir, waitFor } from './printingTestKit';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function listener(): Promise<VirtualZplPrinter> {
  const p = await startVirtualZplPrinter();
  cleanup.push(() => p.close());
  return p;
}

function labelJob(barcode: string, payload = Buffer.from(packageLabelZpl(barcode), 'latin1')) {
  return {
    kind: 'print' as const,
    printerId: 'zebra',
    format: 'zpl' as const,
    payload,
    labelSize: '10x15',
    title: `Label ${barcode}`,
    barcodes: [barcode],
  };
}

/** A queue draining to one raw-TCP printer, with the job waiter the scan workflow uses. */
function queueTo(printer: VirtualZplPrinter, o: { hostStatus: boolean; writeMs?: number; backoffMs?: number }) {
  const { db } = freshDb();
  const jobs = createPrintJobsRepo(db);
  const driver = createZplTcpDriver({
    host: printer.host,
    port: printer.port,
    settings: printerSettings.parse({ hostStatus: o.hostStatus }),
    timeouts: { connectMs: 1000, writeMs: o.writeMs ?? 2000, readMs: 800 },
    closeWaitMs: 500,
  });
  const waiter = createJobWaiter((id) => jobs.get(id));
  const queue: PrintQueue = createPrintQueue({
    jobs,
    clock: systemClock,
    driverFor: (id) => (id === 'zebra' ? driver : undefined),
    backoff: { baseMs: o.backoffMs ?? 60_000, maxMs: o.backoffMs ?? 60_000 },
    tickMs: 25,
    onJobChanged: (j) => waiter.jobChanged(j),
  });
  queue.start();
  cleanup.push(async () => {
    await queue.stop();
    db.close();
  });
  return { queue, waiter };
}

describe('a printer that accepts the connection and never reads', () => {
  it('leaves a label unconfirmed, never done: the scan is not told "printed", and the worker decides', async () => {
    const printer = await listener();
    printer.set({ neverRead: true });
    const { queue, waiter } = queueTo(printer, { hostStatus: false });
    const job = queue.enqueue(labelJob('NR0001'));
    const settled = await waiter.wait([job.id], 10_000);
    expect(settled).toMatchObject({ kind: 'failed', job: { id: job.id, state: 'unconfirmed' } });
    expect(queue.get(job.id)).toMatchObject({ state: 'unconfirmed', reasonCode: 'not_confirmed', delivered: true });
    expect(queue.history(job.id).map((e) => e.state)).toEqual(['queued', 'sending', 'unconfirmed']);
    expect(printer.printed()).toHaveLength(0);
    // Never sent again by itself; only the worker's word settles it.
    await queue.settle();
    expect(queue.get(job.id).state).toBe('unconfirmed');
    expect(() => queue.retryNow(job.id)).toThrow(/may have printed/);
    // The worker looked: nothing came out. The reprint goes to a printer that reads again.
    printer.set({ neverRead: false });
    const again = queue.reprint(job.id);
    expect(queue.get(job.id).state).toBe('cancelled');
    expect(await waiter.wait([again.id], 10_000)).toEqual({ kind: 'done' });
    expect(printer.printed()).toHaveLength(1);
  });

  it('the worker can confirm an unconfirmed label printed, or cancel it', async () => {
    const printer = await listener();
    printer.set({ neverRead: true });
    const { queue, waiter } = queueTo(printer, { hostStatus: false });
    const a = queue.enqueue(labelJob('NR0002'));
    const b = queue.enqueue(labelJob('NR0003'));
    await waiter.wait([a.id, b.id], 10_000);
    await queue.settle();
    expect([queue.get(a.id).state, queue.get(b.id).state]).toEqual(['unconfirmed', 'unconfirmed']);
    expect(queue.markPrinted(a.id)).toMatchObject({ state: 'done', reasonCode: 'confirmed_by_worker' });
    expect(queue.cancel(b.id).state).toBe('cancelled');
  });

  it('a label larger than the socket buffers stalls the write: uncertain with that reason, not done', async () => {
    const printer = await listener();
    printer.set({ neverRead: true });
    const { queue, waiter } = queueTo(printer, { hostStatus: false, writeMs: 1000 });
    // More than the kernel's send and receive buffers on loopback hold (a few MB), so the write never completes.
    const big = Buffer.from(`^XA^FO0,0^FD${'X'.repeat(24 * 1024 * 1024)}^FS^XZ`, 'latin1');
    const job = queue.enqueue(labelJob('NR0004', big));
    const settled = await waiter.wait([job.id], 15_000);
    expect(settled).toMatchObject({ kind: 'failed', job: { state: 'uncertain' } });
    expect(queue.get(job.id)).toMatchObject({ state: 'uncertain', reasonCode: 'stopped_reading', delivered: true });
    expect(queue.get(job.id).reason).toMatch(/stopped reading the label/);
  });
});

describe('a printer that is off', () => {
  it('refusing connections: the job is never `sending`, it fails with a retry time', async () => {
    const printer = await listener();
    await printer.offline();
    for (const hostStatus of [false, true]) {
      const { queue } = queueTo(printer, { hostStatus, backoffMs: 100 });
      const job = queue.enqueue(labelJob(`OFF${Number(hostStatus)}`));
      await waitFor(() => queue.get(job.id).attempts >= 2);
      await queue.stop();
      const j = queue.get(job.id);
      expect(j).toMatchObject({ state: 'failed', reasonCode: 'offline', delivered: false });
      expect(j.nextRetryAt).not.toBeNull();
      const states = queue.history(job.id).map((e) => e.state);
      expect(states).not.toContain('sending');
      expect(states.slice(0, 3)).toEqual(['queued', 'failed', 'failed']);
    }
  });

  it('reporting paper out to ~HS: the job is never `sending` either (nothing left before the check)', async () => {
    const printer = await listener();
    printer.set({ paperOut: true });
    const { queue } = queueTo(printer, { hostStatus: true });
    const job = queue.enqueue(labelJob('PAPER1'));
    await waitFor(() => queue.get(job.id).state === 'failed');
    expect(queue.get(job.id)).toMatchObject({ reasonCode: 'paper_out', attempts: 1, delivered: false });
    expect(queue.history(job.id).map((e) => e.state)).toEqual(['queued', 'failed']);
  });
});

describe('a printer that comes back', () => {
  let printing: PrintingService | undefined;
  afterEach(async () => {
    await printing?.close();
    printing = undefined;
  });

  it('prints the job waiting for it within seconds of its return, long before its backoff time', async () => {
    const printer = await listener();
    await printer.offline();
    const dir = tempDir('printer-back-');
    const { db } = freshDb(dir);
    cleanup.push(() => {
      db.close();
    });
    createPrintersRepo(db).save(
      {
        id: 'zebra',
        name: 'Zebra',
        connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
        settings: printerSettings.parse({}),
      },
      new Date(),
    );
    // A backoff and a usual status interval far beyond the test's patience: only the close watch
    // of a printer its jobs wait for can notice it back, and only its return can make the job print.
    printing = await createPrintingService({
      db,
      clock: systemClock,
      dataDir: dir,
      emit: () => undefined,
      backoff: { baseMs: 120_000, maxMs: 120_000 },
      statusIntervalMs: 120_000,
    });
    await printing.start();
    const job = printing.queue.enqueue(labelJob('BACK01'));
    await waitFor(() => printing!.queue.get(job.id).state === 'failed');
    const retryAt = Date.parse(printing.queue.get(job.id).nextRetryAt!);
    expect(printing.queue.get(job.id).reasonCode).toBe('offline');

    await printer.online();
    await waitFor(() => printing!.queue.get(job.id).state === 'done', 15_000);
    expect(Date.now()).toBeLessThan(retryAt);
    expect(printer.printed()).toHaveLength(1);
    expect(printing.printers().find((p) => p.id === 'zebra')!.status.state).toBe('ready');
  });
});
