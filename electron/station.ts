/**
 * The composition root of the station core: the one place that picks the seams' variants
 * (clock, service, printers, keychain) and connects the parts, each wired in its own folder
 * (`wire*.ts`: the store, the events, accounts, printing, the workflows with the scan lane and
 * batch, operators, camera, retention, status, metrics) and handed over as one object.
 * Electron's main.ts and the web host's CLI both call createStation; nothing here imports
 * `electron`, and nothing here holds SQL or a rule of the desk.
 */
import type { StorageFailure } from '../shared/storageFailure';
import { wireAudit } from './audit/wireAudit';
import type { Accounts } from './auth/accounts';
import type { DemoSandbox } from './auth/demoAccount';
import type { SecretStore } from './auth/keychain';
import { wireAccounts } from './auth/wireAccounts';
import { systemClock, type Clock } from './base/clock';
import { wireCamera } from './camera/wireCamera';
import type { StartEmbeddedSandbox } from './demo/embeddedSandbox';
import { wireSandbox } from './demo/wireSandbox';
import { wireMetrics } from './metrics/wireMetrics';
import { wireOperators } from './operators/wireOperators';
import type { DriverFactory, PrintingService } from './printing/printingService';
import { wirePrinting } from './printing/wirePrinting';
import { wireRetention } from './retention/wireRetention';
import { createRpcServer, mergeHandlers, type Logger, type RpcServer } from './rpc/rpcServer';
import type { StationSettingsStore } from './settings/stationSettings';
import { wireSettings } from './settings/wireSettings';
import { wireStatistics } from './statistics/wireStatistics';
import { wireEvents } from './status/wireEvents';
import { wireFaults } from './status/wireFaults';
import { wireStatus } from './status/wireStatus';
import { wireStore } from './store/wireStore';
import type { ShipmentDomain } from './sync/shipmentHandlers';
import { wireShipments } from './sync/wireShipments';
import type { WorkflowDeps, Workflows } from './workflows/index';
import { wireWorkflowDeps } from './workflows/wireWorkflowDeps';
import { watchLabels, wireWorkflows } from './workflows/wireWorkflows';

export interface StationOptions {
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  log: Logger;
  clock?: Clock;
  /**
   * The "built-in sandbox" environment: a sandbox already running (tests put two stations on one),
   * or, when absent, one the station starts itself, kept in `<dataDir>/sandbox.db`.
   */
  sandbox?: DemoSandbox;
  /**
   * The test controls (/_sandbox/) of the sandbox the station starts itself: 'secret' (default)
   * answers only this process, which holds a per-launch secret; 'open' lets any local program
   * use them, as `npm run sandbox` does (test harnesses that drive faults and the clock).
   */
  sandboxControls?: 'secret' | 'open';
  /** Starts the built-in sandbox when none is given (default: embeddedSandbox.ts). */
  startSandbox?: StartEmbeddedSandbox;
  /** Makes a printer's driver from its settings (default: printing/printerDrivers.ts). */
  printerDrivers?: DriverFactory;
  /** Where secrets live; default the OS keychain (@napi-rs/keyring), or memory when no keychain answers. */
  secrets?: SecretStore;
  /** Opens the OAuth login page in the system browser (Electron: shell.openExternal). The web host has none: the page opens it. */
  openExternal?: (url: string) => Promise<void> | void;
  /** How often the service is checked in the background. */
  healthIntervalMs?: number;
  /** How often it is checked while it cannot be reached (default 3 s). */
  outageCheckMs?: number;
  /** Service request time limit (default 20 s). */
  serviceTimeoutMs?: number;
  /** How long a scan waits for its labels to come out before it reports them queued (default 8 s). */
  printWaitMs?: number;
  /**
   * The data folder cannot be written any more (electron/status/storageFailure.ts): the station has
   * stopped scanning and refuses calls; the host ends the process so its supervisor starts a new
   * one. Without it the station stays in that state.
   */
  onStorageFailed?(f: StorageFailure): void;
  /** This core was started again after a storage failure (its supervisor says which): shown on the desk. */
  restartedAfter?: StorageFailure | null;
}

export interface Station {
  rpc: RpcServer;
  /** Printers, routing and the durable print queue. */
  printing: PrintingService;
  /** The shipment cache, its sync and the scanner lookup (workflows call recordDeliveries etc.). */
  shipments: ShipmentDomain;
  accounts: Accounts;
  workflows: Workflows;
  /** What every workflow is built from (domain modules added later take theirs from here too). */
  deps: WorkflowDeps;
  settings: StationSettingsStore;
  /** The built-in sandbox in use (the station's own, or the one it was given). */
  sandbox: DemoSandbox;
  close(): Promise<void>;
}

export async function createStation(opts: StationOptions): Promise<Station> {
  const { dataDir, log } = opts;
  const clock = opts.clock ?? systemClock;
  // The first storage error anywhere stops scanning and tells the desk (the status), then the host.
  const faults = wireFaults({ dataDir, log });
  const store = wireStore({ dataDir, log });
  // The event bus exists before any part that emits; the RPC server connects to it last.
  const events = wireEvents();
  /** What every part is wired with. */
  const base = { dataDir, log, clock, store, faults, events, emit: events.emit };
  const sandbox = await wireSandbox(opts);
  const preferences = wireSettings(base);
  const { settings, deskOperator, language } = preferences;
  const companies = await wireAccounts({ ...opts, ...base, sandbox: sandbox.sandbox, language });
  const { activeAccountId, session } = companies;
  const audit = wireAudit({ ...base, who: deskOperator.who, activeAccountId });
  // The scan lane's view of the print jobs, told every job change by the printing service.
  const labels = watchLabels(() => printing.service);
  const printing = await wirePrinting({ ...opts, ...base, language, audit, onJobChanged: labels.jobChanged });
  const scannerAffixes = () => settings.get().scanner;
  const changed = events.shipmentsChanged.changed;
  const shipments = wireShipments({ ...base, session, activeAccountId, changed, scannerAffixes });
  const deps = wireWorkflowDeps({
    ...base,
    session,
    shipments: shipments.domain,
    settings,
    desk: deskOperator,
    deskActions: audit.deskActions,
    printing: printing.service,
    jobs: labels.waiter,
    serviceTrouble: () => void status.status.refreshLogged(),
  });
  const operators = wireOperators({ ...base, desk: deskOperator, deskActions: audit.deskActions, settings });
  const camera = wireCamera({ ...base, deps, printing: printing.service });
  // Runs start after wireWorkflows below (retention.start, retention.set): `work` is there by then.
  const retention = wireRetention({
    ...base,
    photos: camera.retained,
    scans: { inWork: () => work.workflows.scanToClose.inWork() },
  });
  const work = wireWorkflows({
    ...base,
    deps,
    labels,
    printing: printing.service,
    shipments: shipments.domain,
    language,
    isSupervisor: operators.isSupervisor,
    sandboxCompany: companies.sandboxCompany,
    printWaitMs: opts.printWaitMs,
  });
  const status = wireStatus({
    ...opts,
    ...base,
    keychain: companies.keychain,
    service: companies.serviceOf,
    printers: printing.forStatus,
    onServiceBack: () => printing.service.queue.kick(),
    session,
    onUsable: (accountId) => work.accountUsable(accountId),
    onPrinterChanged: labels.printerChanged,
  });
  const metrics = wireMetrics({
    ...opts,
    ...base,
    status: status.status,
    printing: printing.service,
    deps,
    secrets: companies.secrets,
  });

  const server = createRpcServer(
    // The desk's rules first: no desk code and no scan without a required sign-in; the idle time.
    operators.guard(
      mergeHandlers(
        status.handlers,
        preferences.handlers,
        printing.service.handlers,
        shipments.domain.handlers,
        ...work.handlers,
        ...companies.handlers({
          refill: (accountId) => shipments.domain.syncNow(accountId),
          recheckBatch: () => work.workflows.batchClose.recheck(),
        }),
        audit.handlers,
        retention.handlers,
        wireStatistics(base).handlers,
        operators.handlers,
        metrics.handlers,
        camera.handlers,
      ),
    ),
    log,
    { ...faults.rpc, afterCommits: store.afterCommits },
  );
  events.connect(server.emit);

  await companies.start(status.status);
  // Recovery before anything drains: the queue turns jobs cut off mid-send into `uncertain`, then
  // the journal resumes every unfinished entry from its last committed step.
  await printing.service.start();
  work.start();
  await status.status.refresh();
  const stopJournalTick = work.ticking();
  const stopTick = status.ticking();
  const stopIdle = operators.watchIdle();
  const stopRetention = retention.start();
  const stopServiceChecks = status.watchService();
  const stopShipmentSync = shipments.autoSync();
  await metrics.start();
  // The first fill of the cache: started by the status's first check, once the account is usable.

  return {
    rpc: server,
    printing: printing.service,
    shipments: shipments.domain,
    accounts: companies.accounts,
    workflows: work.workflows,
    deps,
    settings,
    sandbox: sandbox.sandbox,
    async close() {
      status.beginClose();
      await metrics.close();
      stopJournalTick();
      stopTick();
      stopIdle();
      stopRetention();
      stopServiceChecks();
      stopShipmentSync();
      events.stop();
      companies.cancelLogin();
      // Bounded waits for the scan and the label in flight, so neither is left half done.
      await work.close();
      await retention.stop();
      // A sync in progress stops between its slices, before the database closes.
      await shipments.domain.stop();
      await printing.close();
      await sandbox.close();
      // The database last: the checkpoint worker's final checkpoint, then the connection.
      await store.close();
    },
  };
}
