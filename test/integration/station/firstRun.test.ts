/**
 * The composed station (electron/station.ts) as a new user meets it: no account, the built-in
 * sandbox, the demo company logged in by itself, the virtual printers; a scan over the WebSocket
 * bridge closes a demo shipment and its label comes out of the virtual ZPL printer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../../support/services';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain'))('first run of the station', () => {
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

  it('sets up the demo company on the built-in sandbox, active and logged in, with its secret only in the keychain', async () => {
    const accounts = await rpc.call('accounts.list', {});
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ environment: 'sandbox', active: true, demo: true, login: { state: 'logged-in' }, clientId: hs.station.sandbox.demo.clientId });
    expect(JSON.stringify(accounts)).not.toContain(hs.station.sandbox.demo.clientSecret);
    const status = await rpc.call('station.status', {});
    expect(status.service).toMatchObject({ environment: 'sandbox', baseUrl: hs.station.sandbox.url, reachable: true });
    expect(status.keychain.available).toBe(true);
  });

  it('a scan of a prepared demo shipment closes it and prints its label on the virtual ZPL printer', async () => {
    const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1001' });
    const outcome = await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId);
    expect(outcome).toMatchObject({ kind: 'printed', shipment: { carrier: 'NP', packageCount: 1 } });
    const printed = hs.station.printing.virtual.zpl.printed();
    expect(printed).toHaveLength(1);
    const barcode = outcome.kind === 'printed' ? outcome.shipment.barcodes[0] : '';
    expect(barcode).toBeTruthy();
    expect(printed[0]!.zpl).toContain(barcode);
    const counters = await rpc.call('scan.counters', {});
    expect(counters).toMatchObject({ scanned: 1, printed: 1, failed: 0 });
  });

  it('the same parcel scanned again asks before printing twice', async () => {
    const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1001' });
    const outcome = await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId);
    expect(outcome).toMatchObject({ kind: 'already-closed', closedElsewhere: false, labelsAvailable: true });
    expect(await rpc.call('scan.skip', { scanId })).toMatchObject({ kind: 'skipped' });
    expect(hs.station.printing.virtual.zpl.printed()).toHaveLength(1);
  });

  it('refuses a scan that is no code at all, with a message, and remembers nothing of it', async () => {
    const err = await rpc.call('scan.submit', { code: '   ' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StationCallError);
    expect((err as StationCallError).code).toBe('invalid_params');
  });

  it('keeps the language the worker picked, for the service messages too', async () => {
    expect(await rpc.call('settings.set', { language: 'cs' })).toMatchObject({ language: 'cs', sounds: true });
    expect((await rpc.call('settings.get', {})).language).toBe('cs');
    const err = await rpc.call('settings.set', { volume: 300 } as never).catch((e: unknown) => e);
    expect((err as StationCallError).code).toBe('invalid_params');
  });
});
