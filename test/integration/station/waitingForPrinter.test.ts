/**
 * A label waiting for a printer that is offline is said as waiting at once, wherever the worker
 * closes or prints: a scan, a batch close, the Shipments screen's reprint. The
 * first label finds the printer off and waits for it; every label after it queues behind that one
 * and must be reported "printer not ready" with the printer's reason, not "on its way" after the
 * print wait. The real station core (its printing service, job waiter and journal) over its RPC,
 * the embedded sandbox, and a real TCP listener as the printer, switched off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain'))('labels behind one that waits for an offline printer', { timeout: 90_000 }, () => {
  let printer: VirtualZplPrinter;
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    printer = await startVirtualZplPrinter();
    // A print wait far longer than any answer here: "waiting" must come from the queue's state, not from the wait running out.
    hs = await startHostedStation({ printWaitMs: 60_000 });
    rpc = await connectRpc(hs.host);
    await rpc.call('printing.printers.save', {
      id: 'desk',
      name: 'Desk Zebra',
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

  it('a scan, a batch close and a reprint behind the waiting label all say "printer not ready" with its reason; nothing is lost when it is back', async () => {
    const first = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1001' });
    expect((await first).kind).toBe('printer_down');

    const second = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1003', 60_000);
    await rpc.call('scan.submit', { code: 'ORD-1003' });
    const o = await second;
    expect(o).toMatchObject({ kind: 'printer_down', reason: { code: 'offline' } });

    for (const code of ['ORD-1005', 'ORD-1008']) await rpc.call('batch.collect', { code });
    const summary = await rpc.call('batch.closeAll', {});
    expect(summary.shipments).toHaveLength(2);
    for (const line of summary.shipments) {
      expect(line).toMatchObject({
        closed: true,
        print: 'printer_down',
        outcome: 'closed_not_printed',
        error: { code: 'offline' },
      });
    }

    const reprint = await rpc.call('shipments.reprint', {
      deliveryIds: [summary.shipments[0]!.deliveryId],
      why: { code: 'damaged' },
    });
    expect(reprint.results[0]).toMatchObject({ outcome: 'done', print: 'printer_down', error: { code: 'offline' } });

    // Back on: every label comes out, none twice (the reprint replaced the label that waited).
    await printer.online();
    await expect.poll(() => printer.printed().length, { timeout: 60_000, interval: 200 }).toBe(4);
    const counters = await rpc.call('scan.counters', {});
    expect(counters).toMatchObject({ printed: 4, spooled: 0 });
  });
});
