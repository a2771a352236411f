/**
 * A scan's outcome is told again when its labels change after it was told: the core's later
 * record of the same scan (`scan.outcome` marked `update`) and the recent list a page loads
 * (`scan.recent`) say the same thing. Labels waiting for a printer that is off and then cancelled in
 * the print queue are "print cancelled", not "prints by itself"; labels that wait and print when the
 * printer is back are "printed" without a new scan. The real station core over its RPC, the
 * embedded sandbox, and a real TCP listener as the printer, switched off and on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain'))('a scan outcome that its labels change later', { timeout: 120_000 }, () => {
  let printer: VirtualZplPrinter;
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    printer = await startVirtualZplPrinter();
    hs = await startHostedStation({ printWaitMs: 60_000 });
    rpc = await connectRpc(hs.host);
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
