/**
 * Fleet metrics (metrics), wired by the composition root (electron/station.ts): fed by the event
 * bus and the service's requests, read from the status, the queue and the journal at each scrape;
 * the opt-in endpoint (Settings → Metrics) serves them to Prometheus.
 */
import type { SecretStore } from '../auth/keychain';
import type { Clock } from '../base/clock';
import type { PrintingService } from '../printing/printingService';
import type { Logger } from '../rpc/rpcServer';
import type { StationStatusService } from '../status/stationStatus';
import type { StationEvents } from '../status/wireEvents';
import { createMetricsRepo } from '../store/metricsRepo';
import type { StationStore } from '../store/wireStore';
import type { WorkflowDeps } from '../workflows/workflowDeps';
import { createMetricsService } from './metricsService';
import { watchServiceRequests } from './serviceRequests';
import { createStationMetrics } from './stationMetrics';

export function wireMetrics(o: {
  version: string;
  host: 'electron' | 'web';
  dataDir: string;
  store: StationStore;
  status: StationStatusService;
  printing: PrintingService;
  deps: WorkflowDeps;
  events: StationEvents;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
}) {
  const { status, printing, deps } = o;
  const metrics = createStationMetrics({
    version: o.version,
    host: o.host,
    dataDir: o.dataDir,
    clock: o.clock,
    repo: createMetricsRepo(o.store.db),
    desk: () => deps.desk.who().desk,
    service: () => status.current().service,
    printers: () => status.current().printers,
    scannedAt: (scanId) => deps.repos.scanLog.get(scanId)?.scannedAt ?? null,
    job: (id) => {
      try {
        const j = printing.queue.get(id);
        return { printerId: j.printerId, waitsForRetry: j.state === 'failed' && j.nextRetryAt !== null };
      } catch {
        return null;
      }
    },
    walSyncs: o.store.walSyncs,
  });
  o.events.connect((name, payload) => {
    metrics.onEvent(name, payload);
    if (name === 'operators.changed') metrics.deskChanged();
  });
  const stopServiceRequests = watchServiceRequests(
    () => {
      try {
        return new URL(status.current().service.baseUrl).host;
      } catch {
        return '';
      }
    },
    (r) => metrics.serviceRequest(r),
  );
  const service = createMetricsService({
    repo: o.store.settings,
    secrets: o.secrets,
    metrics,
    log: o.log,
    now: () => o.clock.now(),
  });
  return {
    handlers: service.handlers,
    start: () => service.start(),
    async close(): Promise<void> {
      await service.close();
      stopServiceRequests();
    },
  };
}
