/**
 * A service outage as the desk meets it (durable-journal issue, point 7): the top bar's service
 * indicator turns red as soon as a scan cannot reach the service (not at the next 30 s health
 * check), the scan waits in the journal, and when the service answers again the station notices
 * within seconds and the scan closes and prints by itself. Real parts: the composed station, a
 * real sandbox over HTTP that is stopped and started again on the same port and data file.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createStation, type Station } from '../../../electron/station';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { memoryLogger } from '../../support/memoryLogger';
import { waitFor } from '../printing/printingTestKit';

const dir = mkdtempSync(path.join(os.tmpdir(), 'station-outage-'));
let sb: Sandbox | null = null;
let station: Station | null = null;

afterAll(async () => {
  await station?.close();
  await sb?.close();
});

describe('service outage', () => {
  it('turns the indicator red at once, keeps the scan, and prints it by itself when the service is back', async () => {
    const dataFile = path.join(dir, 'sandbox.db');
    sb = await startSandbox({ seed: 'demo', dataFile });
    const port = sb.port;
    // Health checks every 10 minutes: only the station's own reactions can explain what follows.
    station = await createStation({
      dataDir: path.join(dir, 'station'),
      host: 'web',
      version: 'test',
      log: memoryLogger(),
      sandbox: sb,
      secrets: createMemorySecretStore(),
      printWaitMs: 2000,
      healthIntervalMs: 600_000,
    });
    // What the top bar shows: the last `station.statusChanged` event (or the status it read at start).
    let reachable: boolean | null = null;
    station.rpc.onEvent((name, payload) => {
      if (name === 'station.statusChanged')
        reachable = (payload as { service: { reachable: boolean } }).service.reachable;
    });
    const initial = await station.rpc.dispatch('station.status', {});
    expect(initial).toMatchObject({ ok: true, value: { service: { reachable: true } } });
    reachable = true;
    const status = () => ({ service: { reachable } });
    // The shipment is in the cache (the first sync), so the scan gets as far as the close.
    await waitFor(
      () =>
        station!.shipments.repos.shipments.query(station!.accounts.active()!.id, { text: 'ORD-1004', limit: 5 }).total >
        0,
      10_000,
    );

    await sb.close();
    sb = null;
    const outcome = await station.workflows.scanToClose.scan('ORD-1004');
    expect(outcome.kind).toBe('service_unreachable');
    await waitFor(() => status().service.reachable === false, 3000);
    expect(station.workflows.scanToClose.pending().map((p) => p.code)).toEqual(['ORD-1004']);

    sb = await startSandbox({ port, dataFile });
    const printed = station.printing.virtual.zpl;
    await waitFor(() => printed.printed().length > 0, 15_000);
    expect(status().service.reachable).toBe(true);
    expect(station.workflows.scanToClose.pending()).toEqual([]);
  });
});
