/**
 * The composition root of the station core: the one place that picks the seams' variants
 * (clock, service, printers, keychain) and wires the domain modules to the RPC contract.
 * Electron's main.ts and the web host's CLI both call createStation; nothing here imports
 * `electron`.
 */
import os from 'node:os';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { StationStatus } from '../shared/contract/status';
import { RECENT_SCANS, type PendingScansChange } from '../shared/contract/workflows';
import { createAccountHandlers, type LoginUrlSink } from './auth/accountHandlers';
import { createActiveSession } from './auth/activeSession';
import { createAccounts, type Accounts } from './auth/accounts';
import { ensureDemoAccount, loginDemoAccount, type DemoSandbox } from './auth/demoAccount';
import { createSystemSecretStore, createMemorySecretStore, type SecretStore } from './auth/keychain';
import { systemClock, type Clock } from './base/clock';
import { lookupInCache, lookupScan } from './lookup/lookupScan';
import { createPrintingService, type PrintingService } from './printing/printingService';
import { onRasterFallback } from './printing/zplPrepare';
import { createRpcServer, mergeHandlers, type Logger, type RpcServer } from './rpc/rpcServer';
import { createEventBus } from './status/eventBus';
import { createListChangeFeed, createShipmentsChangedFeed, outcomeForPages, pendingForPages } from './status/pageFeeds';
import { startEmbeddedSandbox, type EmbeddedSandbox, type StartEmbeddedSandbox } from './demo/embeddedSandbox';
import { createStationLanguage } from './status/stationLanguage';
import { createStationStatus } from './status/stationStatus';
import type { DriverFactory } from './printing/printingService';
import { createStationSettings, type StationSettingsStore } from './settings/stationSettings';
import { createAccountsRepo } from './store/accountsRepo';
import { createCollectionPlacesRepo } from './store/collectionPlacesRepo';
import { startCheckpointer } from './store/checkpointer';
import { createAccountCacheRepo } from './store/accountCacheRepo';
import { openDatabase, sqliteBinding, WAL_SIZE_LIMIT_BYTES } from './store/database';
import { createEndOfDayRepo } from './store/endOfDayRepo';
import { createJournalRepo } from './store/journalRepo';
import { createBatchItemsRepo } from './store/batchItemsRepo';
import { createLabelsRepo } from './store/labelsRepo';
import { createSettingsRepo } from './store/settingsRepo';
import { createDeskActionsRepo } from './store/deskActionsRepo';
import { createAuditTrailRepo } from './store/auditTrailRepo';
import { createAuditHandlers } from './audit/auditHandlers';
import { createJobActionRecorder } from './audit/jobActions';
import { createDeskOperator } from './operators/deskOperator';
import { createOperators } from './operators/operators';
import { createOperatorsRepo } from './store/operatorsRepo';
import { createShipmentDomain, type ShipmentDomain } from './sync/shipmentHandlers';
import { shipmentSourceFromClient } from './sync/shipmentSourceFromClient';
import { createJobWaiter, createWorkflows, type WorkflowDeps, type Workflows } from './workflows/index';
import { createWorkflowHandlers } from './workflows/workflowHandlers';
import { createShipmentActions } from './workflows/shipmentActions';
import { createQueueReprint } from './workflows/queueReprint';
import { createNewShipment } from './workflows/newShipment';
import { createAddressBookRepo } from './store/addressBookRepo';
import { createDemoPickListHandlers } from './workflows/demoPickList';
import { createDeskCommands } from './workflows/deskCommands';
import { createProblemShelf } from './workflows/problemShelf';
import { createPackagesAtDesk } from './workflows/packagesAtDesk';
import { createShelfRepo } from './store/shelfRepo';
import { resetDemoData } from './auth/demoReset';
import { createProtocolPreviewHandlers } from './workflows/protocolPreview';
import { createStatisticsHandlers } from './statistics/statisticsHandlers';
import { createStatisticsRepo } from './store/statisticsRepo';
import { createDesk } from './scale/desk';
import { createRetention } from './retention/retention';
import type { StorageFailure } from '../shared/storageFailure';
import { createStorageGuard, storageRefusal } from './status/storageFailure';
import { createStationMetrics } from './metrics/stationMetrics';
import { createMetricsService } from './metrics/metricsService';
import { watchServiceRequests } from './metrics/serviceRequests';
import { createMetricsRepo } from './store/metricsRepo';
import { countDiskSyncs } from './store/diskSyncs';
import { createCameraHandlers } from './camera/cameraHandlers';
import { sweepPhotoFiles } from './camera/photoFiles';
import { createPhotosRepo } from './store/photosRepo';
import { createOutcomeFollower, type OutcomeFollower } from './workflows/scan/outcomeFollower';
import { waitingOutcomes } from './workflows/deskRecent';

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

/**
 * What a page may still ask once the data cannot be written: what its top bar and the banner
 * saying why are drawn from (reads; one that fails on the disk is refused like the rest).
 */
const ANSWERED_WHILE_STORAGE_FAILED: ReadonlySet<string> = new Set([
  'station.status',
  'settings.get',
  'settings.pageLanguage',
  'accounts.list',
  'printing.printers.list',
  'printing.routes.get',
]);

/** The keychain when it answers; otherwise memory, said plainly in the status (logins last until exit). */
async function pickSecretStore(log: Logger): Promise<{ secrets: SecretStore; keychain: StationStatus['keychain'] }> {
  const keychain = createSystemSecretStore();
  try {
    await keychain.get('station:probe');
    return { secrets: keychain, keychain: { available: true, message: null } };
  } catch (err) {
    log.warn('the system keychain is not available; secrets are kept in memory only', {
      error: (err as Error).message,
    });
    return {
      secrets: createMemorySecretStore(),
      keychain: {
        available: false,
        message: 'The system keychain is not available: logins are kept only until the station stops.',
      },
    };
  }
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
  const clock = opts.clock ?? systemClock;
  // The first storage error anywhere stops scanning and tells the desk (status below), then the host.
  let onStorageFailed = (_f: StorageFailure): void => undefined;
  const storage = createStorageGuard({ dataDir: opts.dataDir, log: opts.log, onFailed: (f) => onStorageFailed(f) });
  /** Work nobody awaits failed: a storage failure is the station's state, anything else a logged error. */
  const fault = (what: string, err: unknown): void => {
    if (!storage.check(err)) opts.log.error(what, { error: err instanceof Error ? err.message : String(err) });
  };
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const dbFile = path.join(opts.dataDir, 'station.db');
  const db = openDatabase(dbFile);
  // Fleet metrics (metrics): commits that wait for the disk, counted before any repository takes the connection.
  const diskSyncs = countDiskSyncs(db);
  // WAL checkpoints on a worker thread, not inside the core's commits (store/checkpointer.ts).
  // STATION_WAL_CHECKPOINTER=0 leaves them to SQLite's automatic checkpoint on this thread.
  const checkpointer =
    process.env.STATION_WAL_CHECKPOINTER === '0'
      ? null
      : startCheckpointer(db, { file: dbFile, nativeBinding: sqliteBinding(), log: opts.log });

  const settingsRepo = createSettingsRepo(db);
  // The event bus exists before any module that emits; the RPC server connects to it below.
  const events = createEventBus();
  const emit = events.emit;
  // Lists the pages follow, gathered in bursts (electron/status/pageFeeds.ts).
  const shipmentsChanged = createShipmentsChangedFeed((e) => emit('shipments.changed', e));
  const pendingFeed = createListChangeFeed<PendingScansChange['put'][number], number>({
    key: (p) => p.scanId,
    send: (c) => emit('scan.pending', pendingForPages(c)),
  });
  let ownSandbox: EmbeddedSandbox | null = null;
  let sandbox: DemoSandbox;
  if (opts.sandbox) {
    sandbox = opts.sandbox;
  } else {
    ownSandbox = await (opts.startSandbox ?? startEmbeddedSandbox)({
      dataDir: opts.dataDir,
      controls: opts.sandboxControls ?? 'secret',
      log: opts.log,
    });
    sandbox = ownSandbox.sandbox;
  }

  const picked = opts.secrets
    ? { secrets: opts.secrets, keychain: { available: true, message: null } }
    : await pickSecretStore(opts.log);
  const settings = createStationSettings(settingsRepo, clock, (s) => {
    emit('settings.changed', s);
    // The desk's name may have changed: the top bars show it.
    emit('operators.changed', deskOperator.who());
  });
  // The desk's name: the one Settings gives it, else the computer's.
  const deskOperator = createDeskOperator(() => settings.get().desk.name ?? os.hostname());
  deskOperator.onChange((w) => emit('operators.changed', w));
  const languages = createStationLanguage(() => settings.get().language);
  const language = languages.current;

  let urlSink: LoginUrlSink = () => undefined;
  const accounts = createAccounts({
    repo: createAccountsRepo(db),
    secrets: picked.secrets,
    clock,
    log: opts.log,
    environments: { sandbox: () => sandbox.url, test: null, production: null },
    openBrowser: async (url) => {
      urlSink(url);
      await opts.openExternal?.(url);
    },
    language,
  });
  const activeSession = createActiveSession({ accounts, language, log: opts.log, timeoutMs: opts.serviceTimeoutMs });
  let demoAccountId: string | null = null;

  // The recent scans' outcomes, told again when their labels change (built once the workflows' deps exist).
  let outcomeFollower: OutcomeFollower | null = null;
  const jobWaiter = createJobWaiter(
    (id) => {
      try {
        return printing.queue.get(id);
      } catch {
        return undefined;
      }
    },
    (job) => printing.queuedWaits(job),
  );
  // A label the resolution converter cannot rewrite goes out as one graphic: said in the station's log.
  const stopRasterLog = onRasterFallback((info) =>
    opts.log.warn('ZPL label sent as a graphic: the converter does not know its commands', info),
  );
  // What a person did (desk actions) and the parcels' trails: the print queue's cancel and "send
  // again now" are recorded with who did them, so both exist before the printing service.
  const deskActions = createDeskActionsRepo(db, deskOperator.who);
  const auditTrail = createAuditTrailRepo(db);
  const printing = await createPrintingService({
    recordJobAction: createJobActionRecorder({ deskActions, trail: auditTrail }),
    db,
    clock,
    dataDir: opts.dataDir,
    createDriver: opts.printerDrivers,
    language,
    emit: (name: 'printing.jobs' | 'printing.printerState', payload: unknown) => emit(name, payload as never),
    // The waiter hears every change at once; the pages get them gathered (`printing.jobs`).
    onJobChanged: (job) => {
      jobWaiter.jobChanged(job);
      outcomeFollower?.jobChanged(job.id);
    },
    // A lane stopped by the station's own error (its store cannot be read or written): logged, never an unhandled rejection.
    onLaneError: (printerId, err) => {
      if (!storage.check(err))
        opts.log.error('a print lane stopped on an error of the station', {
          printerId,
          error: err instanceof Error ? err.message : String(err),
        });
    },
    onProbeError: (err) => fault('the printer states could not be refreshed', err),
  });

  const shipments = createShipmentDomain({
    db,
    now: () => clock.now(),
    activeAccountId: () => accounts.active()?.id ?? null,
    sourceFor: async (accountId) => {
      const s = await activeSession.sessionOf(accountId);
      return s.tokens.state().state === 'logged-in' ? shipmentSourceFromClient(s.client) : null;
    },
    emitProgress: (p) => emit('shipments.syncProgress', p),
    emitChanged: shipmentsChanged.changed,
    scannerAffixes: () => settings.get().scanner,
    log: opts.log,
  });

  const deps: WorkflowDeps = {
    session: () => {
      const s = activeSession.session();
      return s ? { accountId: s.accountId, client: s.client } : null;
    },
    lookup: (code, o) => {
      const s = activeSession.session();
      return s
        ? shipments.lookup(s.accountId, code, o)
        : lookupScan(
            { accountId: '', shipments: shipments.repos.shipments, source: null, now: () => clock.now() },
            code,
            o,
          );
    },
    lookupCached: (code) => {
      const s = activeSession.session();
      return s
        ? lookupInCache(
            { accountId: s.accountId, shipments: shipments.repos.shipments, affixes: settings.get().scanner },
            code,
          )
        : null;
    },
    desk: deskOperator,
    repos: {
      shipments: shipments.repos.shipments,
      labels: createLabelsRepo(db),
      scanLog: shipments.repos.scanLog,
      journal: createJournalRepo(db, shipments.repos.scanLog, deskOperator.who),
      batchItems: createBatchItemsRepo(db),
      deskActions,
      shelf: createShelfRepo(db, deskActions),
      places: createCollectionPlacesRepo(db),
      endOfDay: createEndOfDayRepo(db),
    },
    recordDeliveries: (accountId, list) => void shipments.recordDeliveries(accountId, list),
    queue: printing.queue,
    routes: () => printing.routes(),
    jobs: jobWaiter,
    clock,
    log: opts.log,
    fault,
    serviceTrouble: () => void status.refreshLogged(),
    scannerAffixes: () => settings.get().scanner,
    shelfChanged: () => shelfChanged(),
  };
  const operatorsRepo = createOperatorsRepo(db);
  const operators = createOperators({
    repo: operatorsRepo,
    desk: deskOperator,
    deskActions: deps.repos.deskActions,
    clock,
    deskSettings: () => settings.get().desk,
    scannerAffixes: () => settings.get().scanner,
    emitList: (l) => emit('operators.listChanged', l),
  });
  // Retention (keep): old label bytes and history leave in slices in the background (electron/retention).
  const photosRepo = createPhotosRepo(db);
  const retention = createRetention({
    db,
    settings: settingsRepo,
    clock,
    dataDir: opts.dataDir,
    log: opts.log,
    // The run waits for the checkpointer whenever the log passed its bound (store/database.ts).
    wal: checkpointer
      ? { walBytes: checkpointer.walBytes, drain: checkpointer.drain, limitBytes: WAL_SIZE_LIMIT_BYTES }
      : undefined,
    // Camera (camera): photos follow the labels' window; their files go after their rows.
    photos: {
      sweep: (beforeDay) => sweepPhotoFiles(opts.dataDir, beforeDay, (file) => photosRepo.named(file)),
      usage: () => photosRepo.usage(),
    },
  });
  // The scale and the label check: the scan lane's steps before and after the close.
  const desk = createDesk({ db, settings: settingsRepo, deps, emit, log: opts.log });
  outcomeFollower = createOutcomeFollower({
    job: (id) => {
      try {
        return printing.queue.get(id);
      } catch {
        return null;
      }
    },
    jobIdsOfRecent: () => {
      const accountId = deps.session()?.accountId;
      if (!accountId) return new Map();
      return new Map(deps.repos.journal.latestScans(accountId, RECENT_SCANS).map((e) => [e.scanId, e.jobIds]));
    },
    queuedWhy: (job) => jobWaiter.waitReason(job),
    usualPrinter: () => printing.routes().defaultRoute?.printerId ?? null,
    tell: (o) => emit('scan.outcome', outcomeForPages(o)),
  });
  const followOutcome = outcomeFollower.told;
  const workflows = createWorkflows(deps, {
    scan: {
      desk: desk.steps,
      printWaitMs: opts.printWaitMs,
      onOutcome: (o) => {
        followOutcome(o);
        emit('scan.outcome', outcomeForPages(o));
      },
      onPending: pendingFeed.change,
    },
    batch: { desk: desk.batch, onItems: (items) => emit('batch.items', items), language },
  });
  // The problem shelf: parcels held instead of closed, beside the scan lane that must not close them.
  const problemShelf = createProblemShelf({
    deps,
    lane: workflows.scanToClose,
    isSupervisor: (id) => operatorsRepo.get(id)?.supervisor === true,
    changed: (count) => emit('shelf.changed', { count }),
  });
  function shelfChanged(): void {
    const s = deps.session();
    emit('shelf.changed', { count: s ? deps.repos.shelf.count(s.accountId) : 0 });
  }
  const accountRpc = createAccountHandlers(
    {
      accounts,
      session: activeSession,
      demoAccountId: () => demoAccountId,
      loginDemo: (id) => loginDemoAccount(accounts, id, sandbox),
      emitChanged: (l) => emit('accounts.changed', l),
      log: opts.log,
    },
    (sink) => (urlSink = sink),
  );

  /** The service of the active account (the built-in sandbox when there is none). */
  const serviceOf = (): { environment: StationStatus['service']['environment']; baseUrl: string } => {
    const a = accounts.active();
    if (!a) return { environment: 'sandbox', baseUrl: sandbox.url };
    try {
      return { environment: a.environment, baseUrl: accounts.baseUrlOf(a) };
    } catch {
      return { environment: a.environment, baseUrl: a.baseUrl ?? '' };
    }
  };
  let closing = false;
  const status = createStationStatus({
    version: opts.version,
    dataDir: opts.dataDir,
    host: opts.host,
    keychain: picked.keychain,
    clock,
    log: opts.log,
    emit,
    service: serviceOf,
    printers: () =>
      printing.printers().map((p) => ({
        id: p.id,
        name: p.name,
        kind: p.connection.kind,
        state: p.status.state,
        reasonCode: p.status.state === 'ready' ? null : p.status.reasonCode,
        reason: p.status.state === 'ready' ? null : p.status.reason,
      })),
    // The service is back: the queue's waiting labels go now (they need the printer, not the login).
    onServiceBack: () => printing.queue.kick(),
    loggedIn: () => activeSession.session() !== null,
    accountId: () => activeSession.current()?.accountId ?? null,
    // The active account can be used (again, or another company's): scans waiting in the journal
    // run now in scan order, the batch's and the others' entries with them, and the cache fills.
    onUsable: (usable, accountId) => {
      if (usable !== 'usable') return;
      // The recent scans whose labels still wait (from before a restart of the core): followed.
      outcomeFollower?.adopt(waitingOutcomes(deps));
      workflows.journal.wake();
      printing.queue.kick();
      if (accountId) shipments.syncNow(accountId).catch((err: unknown) => fault('the shipment sync failed', err));
    },
    closing: () => closing,
    restartedAfter: opts.restartedAfter ?? null,
    fault,
  });
  onStorageFailed = (f) => {
    status.storageFailed(f);
    opts.onStorageFailed?.(f);
  };
  // The top bar's printer pill reads the status: it must change with the printer, not at the next health check.
  events.connect((name, payload) => {
    if (name !== 'printing.printerState') return;
    status.printersChanged();
    // A scan waiting for its labels hears at once that their printer went offline.
    jobWaiter.printerChanged((payload as { printerId: string }).printerId);
    // A scan already told: what its labels wait for may have changed with it.
    outcomeFollower?.printerChanged();
  });

  // Fleet metrics (metrics): fed by the event bus and read from the status, the queue and the
  // journal at each scrape; the opt-in endpoint (Settings → Metrics) serves them to Prometheus.
  const metrics = createStationMetrics({
    version: opts.version,
    host: opts.host,
    dataDir: opts.dataDir,
    clock,
    repo: createMetricsRepo(db),
    desk: () => deskOperator.who().desk,
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
    diskSyncs,
  });
  events.connect((name, payload) => {
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
  const metricsService = createMetricsService({
    repo: settingsRepo,
    secrets: picked.secrets,
    metrics,
    log: opts.log,
    now: () => clock.now(),
  });

  const server = createRpcServer(
    // The desk's rules first: no desk code and no scan without a required sign-in; the idle time.
    operators.guard(
      mergeHandlers(
        {
          'station.status': () => status.current(),
          'station.checkService': () => status.refresh(),
          'settings.get': () => settings.get(),
          'settings.set': (patch) => settings.set(patch),
          'settings.pageLanguage': (p) => ({ language: languages.pageShows(p.language) }),
        },
        printing.handlers,
        shipments.handlers,
        createWorkflowHandlers(deps, workflows),
        accountRpc.handlers,
        createShipmentActions({
          deps,
          printers: () => printing.printers(),
          recordCancelled: (a, ids) => void shipments.recordCancelled(a, ids),
          printWaitMs: opts.printWaitMs,
        }).handlers,
        createNewShipment({ deps, addressBook: createAddressBookRepo(db), printWaitMs: opts.printWaitMs }).handlers,
        createProtocolPreviewHandlers(deps),
        createQueueReprint(deps).handlers,
        createDeskCommands({ deps, language }).handlers,
        problemShelf.handlers,
        createPackagesAtDesk({ deps, lane: workflows.scanToClose, scale: desk.packages }).handlers,
        createAuditHandlers({ trail: auditTrail, activeAccountId: () => accounts.active()?.id ?? null }),
        desk.handlers,
        retention.handlers,
        createStatisticsHandlers(createStatisticsRepo(db)),
        {
          'demo.reset': async () => {
            await resetDemoData({
              accountCache: createAccountCacheRepo(db),
              accounts,
              sandbox,
              demoAccountId,
              log: opts.log,
            });
            await activeSession.refresh();
            await accountRpc.emit();
            // The cache was emptied: filled again before the answer, so Shipments lists every demo
            // shipment at once, and the batch's marks follow the shipments' new states.
            if (demoAccountId) await shipments.syncNow(demoAccountId);
            await workflows.batchClose.recheck();
            return { reset: true as const };
          },
        },
        createDemoPickListHandlers({
          deps,
          sandboxAccount: () => {
            const a = accounts.active();
            return a?.environment === 'sandbox' ? { companyName: a.name } : null;
          },
          language,
        }),
        operators.handlers,
        metricsService.handlers,
        // Camera (camera): proof-of-packing photos and their PDF (electron/camera/).
        createCameraHandlers({
          db,
          deps,
          photos: photosRepo,
          dataDir: opts.dataDir,
          settings: settingsRepo,
          preview: (jobId) => Promise.resolve(printing.handlers['printing.preview']!({ jobId })),
        }),
      ),
    ),
    opts.log,
    {
      // Once the data cannot be written, a scan is refused with why, never acknowledged.
      refuse: (method) => {
        const f = storage.failed();
        return f && !ANSWERED_WHILE_STORAGE_FAILED.has(method) ? storageRefusal(f) : null;
      },
      fault: (err) => (storage.check(err) ? storageRefusal(storage.failed()!) : null),
    },
  );
  events.connect(server.emit);

  demoAccountId = await ensureDemoAccount({ accounts, settings: settingsRepo, sandbox, log: opts.log });
  await activeSession.refresh();
  // Another account became active: the service to watch changes. What waits for the account
  // follows the session's usable state (status.onUsable), which a login of the same company
  // changes too, with neither its id nor its address changing.
  activeSession.onChange(() => {
    status.sessionChanged();
    void status.refreshLogged();
  });
  accounts.onLoginState(() => status.sessionChanged());

  // Recovery before anything drains: the queue turns jobs cut off mid-send into `uncertain`, then
  // the journal resumes every unfinished entry from its last committed step.
  await printing.start();
  // The scale opens in the background: a device that is slow to answer never holds up the start.
  desk.start().catch((err: unknown) => fault('the scale could not be started', err));
  workflows.journal.start();
  await status.refresh();
  const stopJournalTick = clock.setInterval(() => workflows.journal.tick(), 1000);
  const stopTick = clock.setInterval(() => emit('station.tick', { now: clock.now().toISOString() }), 1000);
  const stopIdle = clock.setInterval(() => operators.checkIdle(), 1000);
  const stopRetention = retention.start();
  const stopHealth = clock.setInterval(() => void status.refreshLogged(), opts.healthIntervalMs ?? 30_000);
  // While the service is down, it is asked every few seconds: waiting scans run as soon as it answers.
  const stopOutageCheck = clock.setInterval(() => {
    if (!status.current().service.reachable) void status.refreshLogged();
  }, opts.outageCheckMs ?? 3000);
  const stopShipmentSync = shipments.startAutoSync(
    (fn, ms) => clock.setInterval(fn, ms),
    5 * 60_000,
    (err) => fault('the shipment sync failed', err),
  );

  await metricsService.start();

  // The first fill of the cache: started by the status's first check, once the account is usable.

  return {
    rpc: server,
    printing,
    shipments,
    accounts,
    workflows,
    deps,
    settings,
    sandbox,
    async close() {
      closing = true;
      await metricsService.close();
      stopServiceRequests();
      stopJournalTick();
      stopTick();
      stopIdle();
      stopRetention();
      stopHealth();
      stopOutageCheck();
      stopShipmentSync();
      shipmentsChanged.stop();
      pendingFeed.stop();
      accountRpc.cancelLogin();
      // Bounded waits for the scan and the label in flight, so neither is left half done.
      // The scale first: a scan waiting for it is let go (it keeps its place in the journal).
      await desk.close();
      await workflows.journal.stop();
      await retention.stop();
      // A sync in progress stops between its slices, before the database closes.
      await shipments.stop();
      stopRasterLog();
      await printing.close();
      // The worker's final checkpoint before the core's connection, the last one, closes (a write
      // after it stays in the WAL until db.close() checkpoints it).
      await checkpointer?.stop();
      await ownSandbox?.close();
      db.close();
    },
  };
}
