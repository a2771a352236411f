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
import { createPrintingService, type PrintingService } from './printing/printingService';
import { createRpcServer, mergeHandlers, type Logger, type RpcServer } from './rpc/rpcServer';
import { createHealthCheck } from './serviceHealth';
import { createShipmentDomain, type ShipmentDomain } from './sync/shipmentHandlers';

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
  /** Printers, routing and the durable print queue (enqueue labels, set the close-and-print runner). */
  printing: PrintingService;
  /** The shipment cache, its sync and the scanner lookup (workflows call recordDeliveries etc.). */
  shipments: ShipmentDomain;
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

  // Events go out through rpc, created below once every domain's handlers exist.
  const printing = await createPrintingService({
    db,
    clock,
    dataDir: opts.dataDir,
    emit: (name: 'printing.jobChanged' | 'printing.printerState', payload: unknown) => rpc.emit(name, payload as never),
  });

  const shipments = createShipmentDomain({
    db,
    now: () => clock.now(),
    // TODO(station-auth-client): the active account and its API client once accounts exist.
    activeAccountId: () => null,
    sourceFor: () => null,
    emitProgress: (p) => rpc.emit('shipments.syncProgress', p),
    emitChanged: (accountId, deliveryIds) => rpc.emit('shipments.changed', { accountId, deliveryIds }),
    log: opts.log,
  });

  const checkHealth = createHealthCheck(service.baseUrl);
  let status: StationStatus = {
    version: opts.version,
    dataDir: opts.dataDir,
    host: opts.host,
    service: { ...service, reachable: false, checkedAt: null, error: null },
    printers: [],
  };

  async function refresh(): Promise<StationStatus> {
    const health = await checkHealth(clock.now());
    const next: StationStatus = {
      ...status,
      service: { ...status.service, ...health },
      printers: printing.printers().map((p) => ({ id: p.id, name: p.name, kind: p.connection.kind, state: p.status.state })),
    };
    // The service is back: scans queued as close-and-print jobs run now, in scan order.
    if (next.service.reachable && !status.service.reachable) printing.queue.kick();
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
    }, printing.handlers, shipments.handlers),
    opts.log,
  );

  await printing.start();
  await refresh();
  const stopTick = clock.setInterval(() => rpc.emit('station.tick', { now: clock.now().toISOString() }), 1000);
  const stopHealth = clock.setInterval(() => void refresh(), opts.healthIntervalMs ?? 30_000);
  const stopShipmentSync = shipments.startAutoSync((fn, ms) => clock.setInterval(fn, ms), 5 * 60_000);

  return {
    rpc,
    printing,
    shipments,
    async close() {
      stopTick();
      stopHealth();
      stopShipmentSync();
      await printing.close();
      await sandbox?.close();
      db.close();
    },
  };
}
