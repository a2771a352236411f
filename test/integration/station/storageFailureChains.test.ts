/**
 * Every promise chain of the core handles its rejection (item 11's trigger was
 * `SqliteError: disk I/O error` from a `.finally` nobody awaited). The station core runs in this
 * process (createStation, no host to exit to) on a FUSE data folder whose writes fail on demand
 * (test/support/lossyfs.py); while the disk fails, scans arrive, the scan lane, the journal's tick,
 * the printer probe and the print lanes run on it for a few seconds. What is checked: not one
 * unhandled rejection or uncaught exception in the process, the station in the storage-failed
 * state (the status says so), and a scan refused with `storage_failed`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { mountLossyFs, type LossyMount } from '../../support/lossyFs';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

const fuseOk = needs('fuse');

describe.skipIf(!fuseOk)('the core on a failing disk, in this process', { timeout: 90_000 }, () => {
  const top = mkdtempSync(path.join(tmpdir(), 'station-storage-chains-'));
  let disk: LossyMount | null = null;
  let hs: HostedStation | null = null;
  const escaped: unknown[] = [];
  const record = (err: unknown) => void escaped.push(err);
  afterAll(async () => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
    await hs?.close().catch(() => undefined);
    disk?.failWrites(null);
    await disk?.unmount();
    rmSync(top, { recursive: true, force: true });
  });

  it('no rejection escapes; the station is in the storage-failed state and refuses scans', async () => {
    const backing = path.join(top, 'backing');
    const dataDir = path.join(top, 'data');
    mkdirSync(backing);
    mkdirSync(dataDir);
    disk = await mountLossyFs(backing, dataDir, { failFlag: path.join(top, 'fail') });
    hs = await startHostedStation({ dataDir, secrets: createMemorySecretStore(), printWaitMs: 3000 });
    const rpc = hs.station.rpc;
    const first = await rpc.dispatch('scan.submit', { code: 'ORD-1001' });
    expect(first.ok).toBe(true);

    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    disk.failWrites('EIO');
    // Scans in one burst (the lane's shared commit) and one by one, while the background work runs.
    const answers = await Promise.all(
      ['ORD-1002', 'ORD-1003', 'ORD-1004'].map((code) => rpc.dispatch('scan.submit', { code })),
    );
    await new Promise((r) => setTimeout(r, 4000));
    const later = await rpc.dispatch('scan.submit', { code: 'ORD-1005' });

    expect(escaped.map((e) => (e instanceof Error ? e.stack : String(e)))).toEqual([]);
    for (const a of [...answers, later]) expect(a).toMatchObject({ ok: false, error: { code: 'storage_failed' } });
    const status = await rpc.dispatch('station.status', {});
    expect(status).toMatchObject({ ok: true, value: { storage: { failed: { kind: 'io' } } } });
  });
});
