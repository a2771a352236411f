/**
 * A scan's outcome is told again when its labels change after it was told: the core's later
 * record of the same scan (`scan.outcome` marked `update`) and the recent list a page loads
 * (`scan.recent`) say the same thing. Labels waiting for a printer that is off and then cancelled in
 * the print queue are "print cancelled", not "prints by itself"; labels that wait and print when the
 * printer is back are "printed" without a new scan. The real station core over its RPC, the
 * embedded sandbox, and a real TCP listener as the printer, switched off and on. A label moved to
 * another printer is told again naming it; a scan from before a restart of the core is followed by
 * the new core.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

/** The desk's label printer (the default route): a TCP listener as a Zebra on port 9100. */
async function useDeskPrinter(rpc: RpcSocket, printer: VirtualZplPrinter): Promise<void> {
  await rpc.call('printing.printers.save', {
    id: 'desk',
    name: 'Zebra u okénka',
    connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
    settings: printerSettings.parse({ hostStatus: true }),
  });
  await rpc.call('printing.routes.set', {
    carriers: {},
    defaultRoute: { format: 'zpl', printerId: 'desk' },
    protocolPrinterId: null,
  });
}

describe.skipIf(!needs('keychain'))('a scan outcome that its labels change later', { timeout: 120_000 }, () => {
  let printer: VirtualZplPrinter;
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    printer = await startVirtualZplPrinter();
    hs = await startHostedStation({ printWaitMs: 60_000 });
    rpc = await connectRpc(hs.host);
    await useDeskPrinter(rpc, printer);
    await printer.offline();
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
    await printer?.close();
  });

  const recentKind = async (scanId: number) =>
    (await rpc.call('scan.recent', {})).scans.find((s) => s.scanId === scanId)?.kind;

  it('printer off, a scan, its waiting label cancelled in the queue: told again as print_cancelled, and the recent list agrees', async () => {
    const first = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1001' });
    const told = await first;
    expect(told.kind).toBe('printer_down');
    expect(told.update).toBeUndefined();
    const jobIds = 'jobIds' in told ? told.jobIds : [];
    expect(jobIds.length).toBeGreaterThan(0);

    const again = rpc.waitFor('scan.outcome', (o) => o.scanId === told.scanId && o.update === true, 60_000);
    for (const jobId of jobIds) await rpc.call('printing.queue.cancel', { jobId });
    expect(await again).toMatchObject({ scanId: told.scanId, kind: 'print_cancelled', update: true });
    expect(await recentKind(told.scanId)).toBe('print_cancelled');
  });

  it('printer off, a scan, the printer back: told again as printed without a new scan, and the recent list agrees', async () => {
    const first = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1003', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1003' });
    const told = await first;
    expect(told.kind).toBe('printer_down');

    const printed = rpc.waitFor('scan.outcome', (o) => o.scanId === told.scanId && o.kind === 'printed', 60_000);
    await printer.online();
    expect(await printed).toMatchObject({ scanId: told.scanId, kind: 'printed', update: true });
    expect(printer.printed().length).toBeGreaterThan(0);
    expect(await recentKind(told.scanId)).toBe('printed');
  });
});

describe.skipIf(!needs('keychain'))('a scan outcome whose labels move to another printer', { timeout: 120_000 }, () => {
  let desk: VirtualZplPrinter;
  let spare: VirtualZplPrinter;
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    desk = await startVirtualZplPrinter();
    spare = await startVirtualZplPrinter();
    await Promise.all([desk.offline(), spare.offline()]);
    hs = await startHostedStation({ printWaitMs: 60_000 });
    rpc = await connectRpc(hs.host);
    await useDeskPrinter(rpc, desk);
    await rpc.call('printing.printers.save', {
      id: 'spare',
      name: 'Náhradní Zebra',
      connection: { kind: 'zpl-tcp', host: spare.host, port: spare.port },
      settings: printerSettings.parse({ hostStatus: true }),
    });
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
    await desk?.close();
    await spare?.close();
  });

  it('desk printer off, a scan, its label moved to a spare printer that is off too: told again as waiting there; the spare back: printed there', async () => {
    const first = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1004', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1004' });
    const told = await first;
    expect(told).toMatchObject({ kind: 'printer_down' });
    expect('printers' in told ? told.printers : undefined).toBeUndefined();
    const jobIds = 'jobIds' in told ? told.jobIds : [];

    // Same kind, same reason code (offline): only the printer differs, and the screen must name it.
    const moved = rpc.waitFor('scan.outcome', (o) => o.scanId === told.scanId && o.update === true, 60_000);
    for (const jobId of jobIds) await rpc.call('printing.queue.move', { jobId, printerId: 'spare' });
    expect(await moved).toMatchObject({ kind: 'printer_down', printers: ['spare'], update: true });

    const printed = rpc.waitFor('scan.outcome', (o) => o.scanId === told.scanId && o.kind === 'printed', 60_000);
    await spare.online();
    expect(await printed).toMatchObject({ kind: 'printed', printers: ['spare'], update: true });
    expect(spare.printed().length).toBeGreaterThan(0);
    expect(desk.printed()).toEqual([]);
  });
});

describe.skipIf(!needs('keychain'))('a scan outcome across a restart of the core', { timeout: 120_000 }, () => {
  let printer: VirtualZplPrinter;
  let hs: HostedStation | undefined;
  let rpc: RpcSocket | undefined;
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
    await printer?.close();
  });

  it('printer off, a scan, the core restarted, the printer back: the new core tells it printed', async () => {
    printer = await startVirtualZplPrinter();
    await printer.offline();
    hs = await startHostedStation({ printWaitMs: 60_000 });
    rpc = await connectRpc(hs.host);
    await useDeskPrinter(rpc, printer);
    const first = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1006', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1006' });
    const told = await first;
    expect(told.kind).toBe('printer_down');

    rpc.close();
    const dataDir = hs.dataDir;
    await hs.close();
    hs = await startHostedStation({ printWaitMs: 60_000, dataDir });
    rpc = await connectRpc(hs.host);
    const again = rpc;
    await expect
      .poll(async () => (await again.call('station.status', {})).session.usable, { timeout: 60_000 })
      .toBe('usable');
    expect((await rpc.call('scan.recent', {})).scans.find((s) => s.scanId === told.scanId)?.kind).toBe('printer_down');

    const printed = rpc.waitFor('scan.outcome', (o) => o.scanId === told.scanId && o.kind === 'printed', 60_000);
    await printer.online();
    expect(await printed).toMatchObject({ scanId: told.scanId, kind: 'printed', update: true });
    expect(printer.printed().length).toBeGreaterThan(0);
  });
});
