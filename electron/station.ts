/**
 * The composition root of the station core: the one place that picks the seams' variants
 * (clock, service, printers, keychain) and wires the domain modules to the RPC contract.
 * Electron's main.ts and the web host's CLI both call createStation; nothing here imports
 * `electron`.
 */
import { mkdirSync } from 'node:fs';
import type { StationStatus } from '../shared/contract/status';
import { startSandbox, type Sandbox } from '../sandbox/index';
import { systemClock, type Clock } from './clock';
import path from 'node:path';
import { openDatabase } from './store/database';
import { listCupsQueues } from './printing/systemPrinters';
import { createRpcServer, mergeHandlers, type Logger, type RpcServer } from './rpc/rpcServer';
import { createHealthCheck } from './serviceHealth';

export interface StationOptions {
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  log: Logger;
  clock?: Clock;
  /** The service to use; when absent the embedded sandbox is started (demo mode). */
  service?: { environment: 'test' | 'production'; baseUrl: string };
  /** How often the service is checked in the background. */
  healthIntervalMs?: number;
}

export interface Station {
  rpc: RpcServer;
  close(): Promise<void>;
}

export async function createStation(opts: StationOptions): Promise<Station> {
  const clock = opts.clock ?? systemClock;
  mkdirSync(opts.dataDir, { recursive: true });
  const db = openDatabase(path.join(opts.dataDir, 'station.db'));

  let sandbox: Sandbox | null = null;
  let service: { environment: StationStatus['service']['environment']; baseUrl: string };
  if (opts.service) {
    service = opts.service;
  } else {
    sandbox = await startSandbox({ port: 0 });
    service = { environment: 'sandbox', baseUrl: sandbox.url };
    opts.log.info('embedded sandbox started', { url: sandbox.url });
  }

  const checkHealth = createHealthCheck(service.baseUrl);
  let status: StationStatus = {
    version: opts.version,
    dataDir: opts.dataDir,
    host: opts.host,
    service: { ...service, reachable: false, checkedAt: null, error: null },
    printers: [],
  };

  async function refresh(): Promise<StationStatus> {
    const [health, queues] = await Promise.all([checkHealth(clock.now()), listCupsQueues()]);
    const next: StationStatus = {
      ...status,
      service: { ...status.service, ...health },
      printers: queues.map((q) => ({
        id: `cups:${q.name}`,
        name: q.name,
        kind: 'pdf-system' as const,
        state: q.enabled ? ('ready' as const) : ('offline' as const),
      })),
    };
    const changed = JSON.stringify({ ...next.service, checkedAt: null }) !== JSON.stringify({ ...status.service, checkedAt: null }) ||
      JSON.stringify(next.printers) !== JSON.stringify(status.printers);
    status = next;
    if (changed) rpc.emit('station.statusChanged', status);
    return status;
  }

  const rpc = createRpcServer(
    mergeHandlers({
      'station.status': () => status,
      'station.checkService': () => refresh(),
    }),
    opts.log,
  );

  await refresh();
  const stopTick = clock.setInterval(() => rpc.emit('station.tick', { now: clock.now().toISOString() }), 1000);
  const stopHealth = clock.setInterval(() => void refresh(), opts.healthIntervalMs ?? 30_000);

  return {
    rpc,
    async close() {
      stopTick();
      stopHealth();
      await sandbox?.close();
      db.close();
    },
  };
}
