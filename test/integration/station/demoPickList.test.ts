/**
 * The demo pick list over the WebSocket bridge, as the first-run dialog uses it:
 * the prepared demo shipments as Code 128 codes that a scanner reads from the on-screen pages and
 * from the PDF the office printer (the virtual PDF printer) received; a scanned code closes its
 * shipment; an account on a real service gets a clear refusal.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { pdfBarcodes, pngBarcodes } from '../../support/pdfBarcodes';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain', 'pdftoppm', 'zbarimg'))('demo pick list', { timeout: 60_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    hs = await startHostedStation({ printWaitMs: 5000 });
    rpc = await connectRpc(hs.host);
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
  });

  it('lists the prepared demo shipments with carrier and recipient, and each code on screen scans', async () => {
    const list = await rpc.call('demo.pickList', { language: 'en' });
    const codes = list.items.map((i) => i.code);
    expect(codes).toContain('ORD-1001');
    expect(codes.length).toBeGreaterThanOrEqual(15);
    expect(list.items.find((i) => i.code === 'ORD-1001')).toMatchObject({
      carrier: 'NP',
      recipientName: 'Jana Nováková',
    });
    expect(list.pages.length).toBeGreaterThanOrEqual(1);
    // What a scanner reads from the pages as the dialog shows them (the PNGs themselves, unscaled).
    const onScreen = list.pages.flatMap((p) => pngBarcodes(Buffer.from(p.png, 'base64')));
    expect(onScreen.sort()).toEqual([...codes].sort());
  });

  it('prints on the office printer route: the virtual PDF printer gets a PDF whose barcodes are the demo codes', async () => {
    const before = hs.station.printing.virtual.pdf.received().length;
    const { items } = await rpc.call('demo.pickList', {});
    const { jobId } = await rpc.call('demo.printPickList', { language: 'cs' });
    await rpc.waitFor('printing.jobs', (c) => c.jobs.some((j) => j.id === jobId && j.state === 'done'));
    const received = hs.station.printing.virtual.pdf.received();
    expect(received).toHaveLength(before + 1);
    const pdf = readFileSync(path.join(hs.station.printing.virtual.pdf.folder, received.at(-1)!.name));
    expect(pdfBarcodes(pdf).sort()).toEqual(items.map((i) => i.code).sort());
  });

  it('a code from the list closes its shipment, which then leaves the list', async () => {
    const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1002' });
    const outcome = await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId);
    expect(outcome).toMatchObject({ kind: 'printed', shipment: { carrier: 'NP' } });
    const { items } = await rpc.call('demo.pickList', {});
    expect(items.map((i) => i.code)).not.toContain('ORD-1002');
    expect(items.map((i) => i.code)).toContain('ORD-1001');
  });

  it('bad params are refused with a clear error', async () => {
    const err = await rpc.call('demo.pickList', { language: 'de' } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StationCallError);
    expect((err as StationCallError).code).toBe('invalid_params');
  });

  it('with a company on a real service active, the pick list is refused and says why', async () => {
    const other = await rpc.call('accounts.add', {
      name: 'Real Shop',
      environment: 'production',
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'real-client',
      clientSecret: 'real-secret',
    });
    await rpc.call('accounts.setActive', { accountId: other.id });
    const err = await rpc.call('demo.pickList', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StationCallError);
    expect((err as StationCallError).code).toBe('not_demo');
    expect((err as StationCallError).message).toContain('built-in sandbox');
    const print = await rpc.call('demo.printPickList', {}).catch((e: unknown) => e);
    expect((print as StationCallError).code).toBe('not_demo');
  });
});
