/**
 * The composed station (electron/station.ts) as a new user meets it: no account, the built-in
 * sandbox, the demo company logged in by itself, the virtual printers; a scan over the WebSocket
 * bridge closes a demo shipment and its label comes out of the virtual ZPL printer.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSystemSecretStore,
  createMemorySecretStore,
  secretNames,
  type SecretStore,
} from '../../../electron/auth/keychain';
import { createStation } from '../../../electron/station';
import { memoryLogger } from '../../support/memoryLogger';
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
    expect(accounts[0]).toMatchObject({
      environment: 'sandbox',
      active: true,
      demo: true,
      login: { state: 'logged-in' },
      clientId: hs.station.sandbox.demo.clientId,
    });
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
    expect(outcome).toMatchObject({ kind: 'already_closed', closedElsewhere: false, labelsAvailable: true });
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
    const err = await rpc.call('settings.set', { volume: 300 }).catch((e: unknown) => e);
    expect((err as StationCallError).code).toBe('invalid_params');
  });

  it('keeps the secrets in the keychain only: not in the data folder, the log, or any RPC answer or event', async () => {
    const [demo] = await rpc.call('accounts.list', {});
    const keychain = createSystemSecretStore();
    const refreshToken = await keychain.get(secretNames.refreshToken(demo!.id));
    const clientSecret = await keychain.get(secretNames.clientSecret(demo!.id));
    expect(refreshToken).toMatch(/^[a-z0-9]{40}$/);
    expect(clientSecret).toBe(hs.station.sandbox.demo.clientSecret);
    // Files the station wrote (its database with WAL, logs, printed files); the embedded sandbox's own store is the service's side.
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const f = path.join(dir, n);
        return statSync(f).isDirectory() ? files(f) : [f];
      });
    const stationFiles = files(hs.dataDir).filter((f) => !path.basename(f).startsWith('sandbox.db'));
    expect(stationFiles.some((f) => path.basename(f) === 'station.db')).toBe(true);
    for (const f of stationFiles) {
      const bytes = readFileSync(f).toString('latin1');
      expect(bytes.includes(refreshToken!), f).toBe(false);
      expect(bytes.includes(clientSecret!), f).toBe(false);
    }
    const log = hs.log.lines.join('\n');
    expect(log).not.toContain(refreshToken);
    expect(log).not.toContain(clientSecret);
    const seen = JSON.stringify([
      await rpc.call('accounts.list', {}),
      await rpc.call('station.status', {}),
      rpc.events('accounts.changed'),
    ]);
    expect(seen).not.toContain(refreshToken);
    expect(seen).not.toContain(clientSecret);
  });
});

describe('a station started again on the same data folder', () => {
  it('keeps the demo company, logs it in again even when the secrets did not survive, and remembers what it closed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'station-restart-'));
    const log = memoryLogger();
    const open = (s: SecretStore) =>
      createStation({ dataDir, host: 'web', version: '0.0.0-test', log, secrets: s, printWaitMs: 5000 });

    const first = await open(createMemorySecretStore());
    const [demo] = first.accounts.list();
    const closed = await first.workflows.scanToClose.scan('ORD-1002');
    expect(closed.kind).toBe('printed');
    await first.close();

    // A memory-only keychain: nothing of the first run's secrets is left.
    const second = await open(createMemorySecretStore());
    try {
      expect(second.accounts.list().map((a) => a.id)).toEqual([demo!.id]);
      expect((await second.accounts.loginState(demo!.id)).state).toBe('logged-in');
      const again = await second.workflows.scanToClose.scan('ORD-1002');
      // This station printed it before the restart: its print jobs and stored labels survived.
      expect(again).toMatchObject({ kind: 'already_closed', closedElsewhere: false, labelsAvailable: true });
    } finally {
      await second.close();
    }
  });
});
