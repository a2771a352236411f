/**
 * A device on a printer's port that answers a status question with a flood (a misconfigured port,
 * a hostile host, something that is not a printer): the station keeps a bounded part of it
 * (electron/printing/printerSocket.ts MAX_UNREAD_ANSWER_BYTES), hangs up, and names why on the job, instead of reading it all
 * into memory until the read times out. A Zebra's answers are short frames (ZPL II guide, "~HS
 * Host Status Return": three <STX>…<ETX> strings of some 80 bytes), so anything near the bound is
 * no printer's answer. Against a real TCP listener written here.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import { createPrintQueue } from '../../../electron/queue/printQueue';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createJobWaiter } from '../../../electron/workflows/jobWaiter';
import { printerSettings } from '../../../shared/contract/printing';
import { freshDb, packageLabelZpl } from './printingTestKit';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Answers anything it is sent with bytes that never make a frame, until the other side hangs up (at most 256 MB). */
async function floodingDevice() {
  const seen = { bytesSent: 0, hungUp: false, asked: '' };
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('close', () => (seen.hungUp = true));
    const chunk = Buffer.alloc(64 * 1024, 'A');
    const pour = () => {
      while (!socket.destroyed && seen.bytesSent < 256 * 1024 * 1024) {
        seen.bytesSent += chunk.length;
        if (!socket.write(chunk)) return socket.once('drain', pour);
      }
    };
    socket.once('data', (d) => {
      seen.asked = d.toString('latin1');
      pour();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as net.AddressInfo).port, seen, server };
}

describe('a device that floods its answer to a status question', () => {
  it('is hung up on after a bounded read, and the job names why (not "no answer" after the whole flood)', async () => {
    const device = await floodingDevice();
    const { db } = freshDb();
    const jobs = createPrintJobsRepo(db);
    const driver = createZplTcpDriver({
      host: '127.0.0.1',
      port: device.port,
      settings: printerSettings.parse({ hostStatus: true }),
      // Long enough that, without the bound, the whole flood would be read before the timeout.
      timeouts: { connectMs: 1000, writeMs: 2000, readMs: 5000 },
      closeWaitMs: 500,
    });
    const waiter = createJobWaiter((id) => jobs.get(id));
    const queue = createPrintQueue({
      jobs,
      clock: systemClock,
      driverFor: (id) => (id === 'zebra' ? driver : undefined),
      backoff: { baseMs: 60_000, maxMs: 60_000 },
      tickMs: 25,
      onJobChanged: (j) => waiter.jobChanged(j),
    });
    queue.start();
    cleanup.push(async () => {
      await queue.stop();
      db.close();
    });

    const job = queue.enqueue({
      kind: 'print',
      printerId: 'zebra',
      format: 'zpl',
      payload: Buffer.from(packageLabelZpl('FL0001'), 'latin1'),
      labelSize: '10x15',
      title: 'Štítek FL0001',
      barcodes: ['FL0001'],
    });
    await waiter.wait([job.id], 10_000);
    await expect.poll(() => queue.get(job.id).reasonCode, { timeout: 10_000 }).toBe('answer_flood');
    expect(device.seen.asked).toContain('~HS');
    await expect.poll(() => device.seen.hungUp, { timeout: 10_000 }).toBe(true);
    // Hung up long before the flood's end: what it read was bounded (the kernel's socket buffers
    // on loopback hold a few MB more that nobody read).
    expect(device.seen.bytesSent).toBeLessThan(64 * 1024 * 1024);
  });
});
