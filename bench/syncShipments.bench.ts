/**
 * Sync of 10,000 shipments from the sandbox (over HTTP on 127.0.0.1, through the real API client)
 * into an empty cache: wall time and requests made. Then the same sync again with nothing changed
 * (every page answered 304 to its stored ETag), and once more after 100 shipments were closed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../sandbox/index';
import { createServiceClient } from '../electron/api/index';
import { openDatabase } from '../electron/store/database';
import { createShipmentsRepo } from '../electron/store/shipmentsRepo';
import { createSyncStateRepo } from '../electron/store/syncStateRepo';
import { syncShipments } from '../electron/sync/syncShipments';
import { shipmentSourceFromClient } from '../electron/sync/shipmentSourceFromClient';
import { closeShipments, insertShipments, sandboxToken } from '../test/support/sandboxShipments';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 10_000);
const quiet = { info() {}, warn() {}, error() {} };

export async function run(): Promise<Record<string, number>> {
  const sb = await startSandbox({ port: 0, seed: 'none' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-sync-'));
  const db = openDatabase(path.join(dir, 'station.db'));
  try {
    const token = await sandboxToken(sb);
    const ids = await insertShipments(sb, token, SHIPMENTS, 'BENCH-', 500);
    const client = createServiceClient({
      baseUrl: sb.url,
      tokens: { accessToken: async () => token, renewAfterRejection: async () => token },
      language: () => 'en',
      log: quiet,
    });
    const deps = {
      accountId: 'bench',
      source: shipmentSourceFromClient(client),
      shipments: createShipmentsRepo(db),
      syncState: createSyncStateRepo(db),
      now: () => new Date(),
    };
    const timed = async () => {
      const t0 = performance.now();
      const r = await syncShipments(deps);
      if (r.phase !== 'done') throw new Error(`sync failed: ${r.error?.message}`);
      return { ms: performance.now() - t0, r };
    };
    const first = await timed();
    const unchanged = await timed();
    await closeShipments(sb, token, ids.slice(0, 100));
    const afterClose = await timed();
    return {
      shipments: SHIPMENTS,
      cached: deps.shipments.count('bench'),
      emptyCacheMs: Math.round(first.ms),
      emptyCacheRequests: first.r.requests,
      shipmentsPerSecond: Math.round(SHIPMENTS / (first.ms / 1000)),
      unchangedMs: Math.round(unchanged.ms),
      unchangedRequests: unchanged.r.requests,
      unchangedNotModified: unchanged.r.notModified,
      after100ClosedMs: Math.round(afterClose.ms),
      after100ClosedRequests: afterClose.r.requests,
      after100ClosedStored: afterClose.r.stored,
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    await sb.close();
  }
}
