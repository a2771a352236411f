/**
 * The composition root of the station core: the one place that picks the seams' variants
 * (clock, service, printers, keychain) and wires the domain modules to the RPC contract.
 * Electron's main.ts and the web host's CLI both call createStation; nothing here imports
 * `electron`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { StationStatus } from '../shared/contract/status';
import { startSandbox, type Sandbox } from '../sandbox/index';
import { createAccountHandlers, type LoginUrlSink } from './auth/accountHandlers';
import { createActiveSession } from './auth/activeSession';
import { createAccounts, type Accounts } from './auth/accounts';
import { ensureDemoAccount, type DemoSandbox } from './auth/demoAccount';
import { createKeytarSecretStore, createMemorySecretStore, type SecretStore } from './auth/keychain';
import { systemClock, type Clock } from './clock';
import { lookupScan } from './lookup/lookupScan';
import { createPrintingService, type PrintingService } from './printing/printingService';
import { onRasterFallback } from './printing/zplPrepare';
import { createRpcServer, mergeHandlers, type Logger, type RpcServer } from './rpc/rpcServer';
import { createHealthCheck } from './serviceHealth';
import { createStationSettings, type StationSettingsStore } from './settings/stationSettings';
import { createAccountsRepo } from './store/accountsRepo';
import { createCollectionPlacesRepo } from './store/collectionPlacesRepo';
import { openDatabase } from './store/database';
import { sqliteBinding } from './store/sqlite';
import { createEndOfDayRepo } from './store/endOfDayRepo';
import { createJournalRepo } from './store/journalRepo';
import { createBatchItemsRepo } from './store/batchItemsRepo';
import { createLabelsRepo } from './store/labelsRepo';
import { createSettingsRepo } from './store/settingsRepo';
import { createShipmentDomain, type ShipmentDomain } from './sync/shipmentHandlers';
import { shipmentSourceFromClient } from './sync/shipmentSourceFromClient';
import { createJobWaiter, createWorkflows, type WorkflowDeps, type Workflows } from './workflows/index';
import { createWorkflowHandlers } from './workflows/workflowHandlers';
import { createShipmentActions } from './workflows/shipmentActions';
import { createNewShipment } from './workflows/newShipment';
import { createAddressBookRepo } from './store/addressBookRepo';
import { createDemoPickListHandlers } from './workflows/demoPickList';
import { createProtocolPreviewHandlers } from './workflows/protocolPreview';

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
  /** Where secrets live; default the OS keychain (keytar), or memory when no keychain answers. */
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
}

/** The system locale's language, for service messages while the worker has not picked one. */
function systemLanguage(): 'en' | 'cs' {
  const lang = process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || Intl.DateTimeFormat().resolvedOptions().locale;
  return /^cs/i.test(lang ?? '') ? 'cs' : 'en';
}

/** The keychain when it answers; otherwise memory, said plainly in the status (logins last until exit). */
async function pickSecretStore(log: Logger): Promise<{ secrets: SecretStore; keychain: StationStatus['keychain'] }> {
  const keychain = createKeytarSecretStore();
  try {
    await keychain.get('station:probe');
    return { secrets: keychain, keychain: { available: true, message: null } };
  } catch (err) {
    log.warn('the system keychain is not available; secrets are kept in memory only', { error: (err as Error).message });
    return {
      secrets: createMemorySecretStore(),
      keychain: { available: false, message: 'The system keychain is not available: logins are kept only until the station stops.' },
    };
  }
}

export interface Station {
  rpc: RpcServer;
  /** Printers, routing and the durable print queue (enqueue labels, set the close-and-print runner). */
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
  mkdirSync(opts.dataDir, { recursive: true });
  const db = openDatabase(path.join(opts.dataDir, 'station.db'));

  const settingsRepo = createSettingsRepo(db);
  // Events go out through the RPC server, created once every domain's handlers exist; anything
  // emitted before then has no listener yet and is dropped (nothing may use rpc before it exists).
  let rpc: RpcServer | null = null;
  const emit: RpcServer['emit'] = (name, payload) => rpc?.emit(name, payload);
  let ownSandbox: Sandbox | null = null;
  let sandbox: DemoSandbox;
  if (opts.sandbox) {
    sandbox = opts.sandbox;
  } else {
    const adminSecret = opts.sandboxControls === 'open' ? undefined : randomBytes(32).toString('base64url');
    ownSandbox = await startSandbox({
      port: 0,
      dataFile: path.join(opts.dataDir, 'sandbox.db'),
      seed: 'demo',
      adminSecret,
      // The same driver binary as station.db (the Electron build under Electron).
      sqliteBinding: sqliteBinding(),
    });
    sandbox = { url: ownSandbox.url, demo: ownSandbox.demo, adminSecret };
    opts.log.info('embedded sandbox started', { url: ownSandbox.url });
  }

  const picked = opts.secrets ? { secrets: opts.secrets, keychain: { available: true, message: null } } : await pickSecretStore(opts.log);
  const settings = createStationSettings(settingsRepo, clock, (s) => emit('settings.changed', s));
  // The worker's choice; else the language the page shows (its own system's); else this process's.
  let pageLanguage: 'en' | 'cs' | null = null;
  const language = () => settings.get().language ?? pageLanguage ?? systemLanguage();

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

  let printersChanged = (): void => undefined;
  const jobWaiter = createJobWaiter((id) => {
    try {
      return printing.queue.get(id);
    } catch {
      return undefined;
    }
  });
  // A label the resolution converter cannot rewrite goes out as one graphic: said in the station's log.
  const stopRasterLog = onRasterFallback((info) => opts.log.warn('ZPL label sent as a graphic: the converter does not know its commands', info));
  const printing = await createPrintingService({
    db,
    clock,
    dataDir: opts.dataDir,
    emit: (name: 'printing.jobChanged' | 'printing.printerState', payload: unknown) => {
      if (name === 'printing.jobChanged') jobWaiter.jobChanged(payload as never);
      emit(name, payload as never);
      // The top bar's printer pill reads the status: it must change with the printer, not at the next health check.
      if (name === 'printing.printerState') printersChanged();
    },
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
    emitChanged: (accountId, deliveryIds) => emit('shipments.changed', { accountId, deliveryIds }),
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
      return s ? shipments.lookup(s.accountId, code, o) : lookupScan({ accountId: '', shipments: shipments.repos.shipments, source: null, now: () => clock.now() }, code, o);
    },
    repos: {
      shipments: shipments.repos.shipments,
      labels: createLabelsRepo(db),
      scanLog: shipments.repos.scanLog,
      journal: createJournalRepo(db, shipments.repos.scanLog),
      batchItems: createBatchItemsRepo(db),
      places: createCollectionPlacesRepo(db),
      endOfDay: createEndOfDayRepo(db),
    },
    recordDeliveries: (accountId, list) => void shipments.recordDeliveries(accountId, list),
    queue: printing.queue,
    routes: () => printing.routes(),
    jobs: jobWaiter,
    clock,
    log: opts.log,
    serviceTrouble: () => void refreshLogged(),
  };
  const workflows = createWorkflows(deps, {
    scan: {
      printWaitMs: opts.printWaitMs,
      onOutcome: (o) => emit('scan.outcome', o),
      onPending: (p) => emit('scan.pending', p),
    },
    batch: { onItems: (items) => emit('batch.items', items) },
  });
  const accountRpc = createAccountHandlers(
    { accounts, session: activeSession, demoAccountId: () => demoAccountId, emitChanged: (l) => emit('accounts.changed', l), log: opts.log },
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
  let service = serviceOf();
  let checkHealth = createHealthCheck(service.baseUrl);
  let status: StationStatus = {
    version: opts.version,
    dataDir: opts.dataDir,
    host: opts.host,
    service: { ...service, reachable: false, checkedAt: null, error: null, errorCode: null, errorDetails: null },
    printers: [],
    keychain: picked.keychain,
  };

  const printerSummaries = () => printing.printers().map((p) => ({ id: p.id, name: p.name, kind: p.connection.kind, state: p.status.state }));
  printersChanged = () => {
    const printers = printerSummaries();
    if (JSON.stringify(printers) === JSON.stringify(status.printers)) return;
    status = { ...status, printers };
    emit('station.statusChanged', status);
  };

  let closing = false;
  async function refresh(): Promise<StationStatus> {
    const now = serviceOf();
    if (now.baseUrl !== service.baseUrl || now.environment !== service.environment) {
      service = now;
      checkHealth = createHealthCheck(service.baseUrl);
    }
    const health = await checkHealth(clock.now());
    // A check that answers while the station closes finds the database closed: nothing to report.
    if (closing) return status;
    const next: StationStatus = {
      ...status,
      service: { ...service, ...health },
      printers: printerSummaries(),
    };
    // The service is back: scans queued as close-and-print jobs run now, in scan order.
    if (next.service.reachable && !status.service.reachable) {
      workflows.journal.wake();
      printing.queue.kick();
    }
    const changed = JSON.stringify({ ...next.service, checkedAt: null }) !== JSON.stringify({ ...status.service, checkedAt: null }) ||
      JSON.stringify(next.printers) !== JSON.stringify(status.printers);
    status = next;
    if (changed) emit('station.statusChanged', status);
    return status;
  }

  const refreshLogged = () => refresh().catch((err: unknown) => opts.log.warn('status refresh failed', { error: String(err) }));

  const server = createRpcServer(
    mergeHandlers({
      'station.status': () => status,
      'station.checkService': () => refresh(),
      'settings.get': () => settings.get(),
      'settings.set': (patch) => settings.set(patch),
      'settings.pageLanguage': (p) => {
        pageLanguage = p.language;
        return { language: language() };
      },
    }, printing.handlers, shipments.handlers, createWorkflowHandlers(deps, workflows), accountRpc.handlers,
    createShipmentActions({ deps, printers: () => printing.printers(), recordCancelled: (a, ids) => void shipments.recordCancelled(a, ids), printWaitMs: opts.printWaitMs }).handlers,
    createNewShipment({ deps, addressBook: createAddressBookRepo(db), printWaitMs: opts.printWaitMs }).handlers,
    createProtocolPreviewHandlers(deps),
    createDemoPickListHandlers({
      deps,
      sandboxAccount: () => {
        const a = accounts.active();
        return a?.environment === 'sandbox' ? { companyName: a.name } : null;
      },
      language,
    })),
    opts.log,
  );
  rpc = server;

  demoAccountId = await ensureDemoAccount({ accounts, settings: settingsRepo, sandbox, log: opts.log });
  await activeSession.refresh();
  // Another account became active (or logged in): the service to watch and the cache to fill change.
  activeSession.onChange(() => {
    void refreshLogged();
    // A login: scans that waited for it run now, in scan order.
    workflows.journal.wake();
    const id = accounts.active()?.id;
    if (id) void shipments.syncNow(id);
  });

  // Recovery before anything drains: the queue turns jobs cut off mid-send into `uncertain`, then
  // the journal resumes every unfinished entry from its last committed step.
  await printing.start();
  workflows.journal.start();
  await refresh();
  const stopJournalTick = clock.setInterval(() => workflows.journal.tick(), 1000);
  const stopTick = clock.setInterval(() => emit('station.tick', { now: clock.now().toISOString() }), 1000);
  const stopHealth = clock.setInterval(() => void refreshLogged(), opts.healthIntervalMs ?? 30_000);
  // While the service is down, it is asked every few seconds: waiting scans run as soon as it answers.
  const stopOutageCheck = clock.setInterval(() => {
    if (!status.service.reachable) void refreshLogged();
  }, opts.outageCheckMs ?? 3000);
  const stopShipmentSync = shipments.startAutoSync((fn, ms) => clock.setInterval(fn, ms), 5 * 60_000);

  const first = accounts.active()?.id;
  if (first) void shipments.syncNow(first);

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
      stopJournalTick();
      stopTick();
      stopHealth();
      stopOutageCheck();
      stopShipmentSync();
      accountRpc.cancelLogin();
      // Bounded waits for the scan and the label in flight, so neither is left half done.
      await workflows.journal.stop();
      stopRasterLog();
      await printing.close();
      await ownSandbox?.close();
      db.close();
    },
  };
}
