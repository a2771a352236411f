/**
 * The shipments domain behind the RPC contract (shared/contract/shipments.ts): list and detail
 * from the cache, sync now with progress events, the scanner lookup, and the scan log. Always for
 * the active account; with none, a clear `no_account` error.
 */
import type { SyncProgress } from '../../shared/contract/shipments';
import type { Delivery } from '../api/index';
import type { Handlers, Logger } from '../rpc/rpcServer';
import { createCollectionPlacesRepo } from '../store/collectionPlacesRepo';
import { syncCollectionPlaces } from './syncCollectionPlaces';
import type { Db } from '../store/database';
import { createScanLogRepo } from '../store/scanLogRepo';
import { createShipmentsRepo } from '../store/shipmentsRepo';
import { createSyncStateRepo } from '../store/syncStateRepo';
import { StationError } from '../base/stationError';
import { lookupScan } from '../lookup/lookupScan';
import type { ScannerAffixes } from '../../shared/scan/normaliseScan';
import type { ShipmentSource } from './shipmentSource';
import { syncShipments } from './syncShipments';
import { recordCancelled, recordDeliveries, refreshShipments, type CacheUpdateDeps } from './updateCache';

export interface ShipmentDomainDeps {
  db: Db;
  now: () => Date;
  /** The active account (company), or null when none is set up. */
  activeAccountId: () => string | null;
  /**
   * The service for an account, or null when it cannot be used (logged out). Typically
   * `async (id) => shipmentSourceFromClient(createServiceClient({ tokens: await accounts.tokens(id), ... }))`.
   */
  sourceFor: (accountId: string) => ShipmentSource | null | Promise<ShipmentSource | null>;
  emitProgress: (p: SyncProgress) => void;
  emitChanged: (accountId: string, deliveryIds: number[]) => void;
  scannerAffixes?: () => ScannerAffixes;
  log?: Logger;
}

type ShipmentHandlers = Pick<
  Handlers,
  'shipments.query' | 'shipments.get' | 'shipments.sync' | 'shipments.lookup' | 'collectionPlaces.list' | 'scans.recent'
>;

export function createShipmentDomain(deps: ShipmentDomainDeps) {
  const shipments = createShipmentsRepo(deps.db);
  const syncState = createSyncStateRepo(deps.db);
  const scanLog = createScanLogRepo(deps.db);
  const places = createCollectionPlacesRepo(deps.db);
  const running = new Map<string, Promise<SyncProgress>>();
  /** Aborted when the station closes: walks stop before their next write (see stop()). */
  const closing = new AbortController();
  const cacheDeps: CacheUpdateDeps = { shipments, now: deps.now, onChanged: deps.emitChanged };

  function account(): string {
    const id = deps.activeAccountId();
    if (!id) throw new StationError('no_account', 'No account is set up. Add one under Accounts and log in.');
    return id;
  }

  async function sourceOrNull(accountId: string): Promise<ShipmentSource | null> {
    try {
      return await deps.sourceFor(accountId);
    } catch {
      return null;
    }
  }

  async function runSync(accountId: string): Promise<SyncProgress> {
    const source = await sourceOrNull(accountId);
    if (!source) {
      const p: SyncProgress = {
        accountId,
        phase: 'failed',
        pages: 0,
        requests: 0,
        notModified: 0,
        stored: 0,
        cursor: syncState.cursor(accountId).cursor,
        error: { code: 'logged_out', message: 'The station is not logged in to the service. Log in again to sync.' },
      };
      deps.emitProgress(p);
      return p;
    }
    const result = await syncShipments({
      accountId,
      source,
      shipments,
      syncState,
      now: deps.now,
      onProgress: deps.emitProgress,
      onChanged: deps.emitChanged,
      signal: closing.signal,
    });
    if (closing.signal.aborted) return result;
    // Places change rarely; a failure here keeps the cached list and does not fail the sync.
    const placesResult = await syncCollectionPlaces({ accountId, source, places, now: deps.now });
    if (!placesResult.ok)
      deps.log?.warn('collection places not refreshed', { accountId, code: placesResult.error.code });
    return result;
  }

  /** Runs a sync of the account, or joins the one already running (one walk per account at a time). */
  function syncNow(accountId: string): Promise<SyncProgress> {
    if (closing.signal.aborted) {
      // The database is closing or closed: nothing is read or written any more.
      return Promise.resolve({
        accountId,
        phase: 'failed',
        pages: 0,
        requests: 0,
        notModified: 0,
        stored: 0,
        cursor: 0,
        error: { code: 'sync_stopped', message: 'The station closed during the sync; it goes on at the next start.' },
      });
    }
    const current = running.get(accountId);
    if (current) return current;
    const run = runSync(accountId).finally(() => running.delete(accountId));
    running.set(accountId, run);
    return run;
  }

  const handlers: ShipmentHandlers = {
    'shipments.query': (q) => shipments.query(account(), q),
    'shipments.get': ({ deliveryId }) => shipments.get(account(), deliveryId),
    'shipments.sync': () => syncNow(account()),
    'shipments.lookup': ({ code }) => lookup(account(), code),
    'collectionPlaces.list': () => places.list(account()),
    'scans.recent': ({ limit, beforeId }) => scanLog.recent(account(), limit, beforeId),
  };

  /** The scanner lookup for the scan workflow (`refresh` re-reads a cached hit from the service). */
  async function lookup(accountId: string, code: string, opts: { refresh?: boolean } = {}) {
    return lookupScan(
      {
        accountId,
        shipments,
        source: await sourceOrNull(accountId),
        now: deps.now,
        affixes: deps.scannerAffixes?.(),
        onChanged: deps.emitChanged,
      },
      code,
      opts,
    );
  }

  /**
   * Syncs the active account every `intervalMs` in the background (skipped while one runs or
   * when no account is active). Returns the stop function.
   */
  /** `onError`: a sync that failed on the station's own error (its store); never an unhandled rejection. */
  function startAutoSync(
    setIntervalFn: (fn: () => void, ms: number) => () => void,
    intervalMs: number,
    onError: (err: unknown) => void,
  ): () => void {
    return setIntervalFn(() => {
      try {
        const id = deps.activeAccountId();
        if (id) syncNow(id).catch(onError);
      } catch (err) {
        onError(err);
      }
    }, intervalMs);
  }

  return {
    handlers,
    syncNow,
    /**
     * The station closes: running walks stop before their next request or slice, and this waits
     * for them (bounded), so none writes after the database is closed.
     */
    async stop(boundMs = 5000): Promise<void> {
      closing.abort();
      let t: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running.values()]), new Promise((r) => (t = setTimeout(r, boundMs)))]);
      clearTimeout(t);
    },
    startAutoSync,
    lookup,
    repos: { shipments, scanLog, syncState, places },
    /** For the close/edit/insert workflows: store what the service answered. */
    recordDeliveries: (accountId: string, deliveries: readonly Delivery[], etag?: string | null) =>
      recordDeliveries(cacheDeps, accountId, deliveries, etag),
    /** For the cancel workflow. */
    recordCancelled: (accountId: string, deliveryIds: number[]) => recordCancelled(cacheDeps, accountId, deliveryIds),
    /** After an uncertain outcome: ask the service and store. */
    refreshShipments: async (accountId: string, deliveryIds: number[]) => {
      const source = await sourceOrNull(accountId);
      if (!source) throw new StationError('logged_out', 'The station is not logged in to the service. Log in again.');
      return refreshShipments({ ...cacheDeps, source }, accountId, deliveryIds);
    },
  };
}

export type ShipmentDomain = ReturnType<typeof createShipmentDomain>;
