/**
 * A station restarted while labels wait for a printer that is off (durable-journal issue, point 3):
 * it starts without an exception (the queue drains only after recovery and once the RPC server
 * exists), nothing is marked uncertain (no byte ever left), and the labels print in scan order as
 * soon as the printer is back. Real parts: the composed station on a real sandbox over HTTP, a
 * real TCP listener as the label printer.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createStation, type Station } from '../../../electron/station';
import { printerSettings } from '../../../shared/contract/printing';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { memoryLogger } from '../../support/memoryLogger';
import { labelsBeforeMarker } from '../../support/printMarker';
import { waitFor } from '../printing/printingTestKit';

let sb: Sandbox;
let printer: VirtualZplPrinter;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-restart-'));
const secrets = createMemorySecretStore();

const start = (log = memoryLogger()) =>
  createStation({
    dataDir,
    host: 'web',
    version: 'test',
    log,
    sandbox: sb,
    secrets,
    printWaitMs: 300,
    healthIntervalMs: 60_000,
  });

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  printer = await startVirtualZplPrinter();
});
afterAll(async () => {
  await printer?.close();
  await sb?.close();
});

describe('restart with labels waiting for a printer that is off', () => {
  let station: Station;
  it('starts cleanly, marks nothing uncertain, and prints the waiting labels in scan order once the printer is back', async () => {
    station = await start();
    const h = station.printing.handlers;
    await h['printing.printers.save']!({
      id: 'desk',
      name: 'Desk Zebra',
      connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
      settings: printerSettings.parse({ hostStatus: true }),
    });
    await h['printing.routes.set']!({
      carriers: {},
      defaultRoute: { format: 'zpl', printerId: 'desk' },
      protocolPrinterId: null,
    });
    await printer.offline();

    const codes = ['ORD-1001', 'ORD-1002', 'ORD-1003'];
    const outcomes = [];
    for (const c of codes) outcomes.push(await station.workflows.scanToClose.scan(c));
    // The first finds the printer off; the others wait behind it in the lane, and say so at once.
    expect(outcomes.map((o) => o.kind)).toEqual(['printer_down', 'printer_down', 'printer_down']);
    const barcodes = outcomes.flatMap((o) => ('shipment' in o ? o.shipment.barcodes : []));
    expect(barcodes.length).toBeGreaterThanOrEqual(3); // one label per package
    await station.close();

    const log = memoryLogger();
    station = await start(log);
    const jobs = station.printing.queue.list({ limit: 50 }).filter((j) => j.printerId === 'desk');
    expect(jobs).toHaveLength(3);
    expect(jobs.filter((j) => j.state === 'uncertain')).toEqual([]);
    expect(log.lines.filter((l) => JSON.parse(l).level === 'error')).toEqual([]);

    await printer.online();
    // Everything the queue had comes out before a marker label queued after it.
    const printed = await labelsBeforeMarker(printer, (j) => station.printing.queue.enqueue(j), 'desk');
    const order = printed.map((l) => barcodes.find((b) => l.zpl.includes(b)));
    expect(order).toEqual(barcodes);
    await station.close();
  });

  it('stopping waits for the label in flight: it ends printed, not uncertain', async () => {
    station = await start();
    printer.clear();
    // Jammed: the printer takes the label into its buffer, says nothing is wrong, and prints it once freed.
    printer.set({ jammed: true });
    const scanned = station.workflows.scanToClose.scan('ORD-1005');
    await waitFor(
      () =>
        station.printing.queue
          .list({ limit: 5 })
          .some((j) => j.printerId === 'desk' && (j.state === 'sending' || j.state === 'sent')),
      10_000,
    );
    const closing = station.close();
    setTimeout(() => printer.set({ jammed: false }), 500);
    await closing;
    await scanned;
    expect(printer.printed().length).toBeGreaterThan(0);

    station = await start();
    const last = station.printing.queue.list({ limit: 5 }).find((j) => j.printerId === 'desk')!;
    expect(last.state).toBe('done');
    // Done before the stop ended, not called done by the next start's recovery.
    expect(station.printing.queue.history(last.id).map((e) => e.reasonCode)).not.toContain('sent_before_restart');
    await station.close();
  });
});
