/**
 * The station's status (the Status screen and the top bar): version, data folder, host, the
 * service of the active account and whether it answers (serviceHealth.ts), the printers and the
 * keychain. Kept current by `refresh` (the health interval, the outage check, a login) and by
 * `printersChanged` (a printer's state); every change goes out as `station.statusChanged`.
 *
 * It also says whether the active account can be used (`session.usable`): the service answers
 * and the active company holds a working login. Everything that waits for the account (the scan
 * lane's waiting scans, the journal's other entries, the sync) listens to that state through
 * `onUsable`, never to a change of account id or address: the same company logging in again
 * after a logout or a revoked token changes neither, yet its waiting scans must run.
 */
import type { PrinterSummary, SessionUsable, StationStatus } from '../../shared/contract/status';
import type { StorageFailure } from '../../shared/storageFailure';
import type { Clock } from '../base/clock';
import type { Emit } from './eventBus';
import type { Logger } from '../rpc/rpcServer';
import { createHealthCheck } from './serviceHealth';

type Service = { environment: StationStatus['service']['environment']; baseUrl: string };

export interface StationStatusOptions {
  version: string;
  dataDir: string;
  host: StationStatus['host'];
  keychain: StationStatus['keychain'];
  clock: Clock;
  log: Logger;
  emit: Emit;
  /** The service of the active account (the built-in sandbox when there is none). */
  service(): Service;
  printers(): PrinterSummary[];
  /** The service answers again after an outage (the print queue's waiting labels go now). */
  onServiceBack(): void;
  /** The active account holds a working login (its token manager says logged-in). */
  loggedIn(): boolean;
  /**
   * The session's usable state changed, or the account it is about changed (`accountId`): what
   * waits for the account runs again when it is `usable`.
   */
  onUsable(usable: SessionUsable, accountId: string | null): void;
  /** The active account's id (a switch to another logged-in company is a new usable session). */
  accountId(): string | null;
  /** A health check that still answers while the station closes finds the database closed. */
  closing(): boolean;
  /** This core was started again after a storage failure (shown until the next one). */
  restartedAfter?: StorageFailure | null;
  /** A background refresh failed: the station decides what the error means (a storage failure stops it). */
  fault?(what: string, err: unknown): void;
}

export interface StationStatusService {
  current(): StationStatus;
  /** Checks the service now and reports what changed. */
  refresh(): Promise<StationStatus>;
  /** `refresh` whose failure is only logged (intervals, events). */
  refreshLogged(): Promise<unknown>;
  /** A printer's state changed: the top bar's printer pill must follow it, not wait for the next check. */
  printersChanged(): void;
  /** The data folder cannot be written: said to every page at once (electron/status/storageFailure.ts). */
  storageFailed(f: StorageFailure): void;
  /** The login of the active account changed (logged in, out, rejected) or another one became active. */
  sessionChanged(): void;
}

export function createStationStatus(o: StationStatusOptions): StationStatusService {
  let service = o.service();
  let checkHealth = createHealthCheck(service.baseUrl);
  let status: StationStatus = {
    version: o.version,
    dataDir: o.dataDir,
    host: o.host,
    service: { ...service, reachable: false, checkedAt: null, error: null, errorCode: null, errorDetails: null },
    session: { usable: 'unreachable' },
    printers: [],
    keychain: o.keychain,
    storage: { failed: null, restartedAfter: o.restartedAfter ?? null },
  };

  async function refresh(): Promise<StationStatus> {
    const now = o.service();
    if (now.baseUrl !== service.baseUrl || now.environment !== service.environment) {
      service = now;
      checkHealth = createHealthCheck(service.baseUrl);
    }
    const health = await checkHealth(o.clock.now());
    if (o.closing()) return status;
    const next: StationStatus = { ...status, service: { ...service, ...health }, printers: o.printers() };
    if (next.service.reachable && !status.service.reachable) o.onServiceBack();
    const changed =
      JSON.stringify({ ...next.service, checkedAt: null }) !== JSON.stringify({ ...status.service, checkedAt: null }) ||
      JSON.stringify(next.printers) !== JSON.stringify(status.printers);
    status = next;
    // The usable state is said with the status it follows from (one event, never a stale pair).
    if (!followSession() && changed) o.emit('station.statusChanged', status);
    return status;
  }

  let sessionOf: { usable: SessionUsable; accountId: string | null } = { usable: 'unreachable', accountId: null };
  /** Recomputes the usable state; sends the status and tells the waiters when it changed. */
  function followSession(): boolean {
    const usable: SessionUsable = !status.service.reachable ? 'unreachable' : o.loggedIn() ? 'usable' : 'login_needed';
    const accountId = o.accountId();
    if (usable === sessionOf.usable && accountId === sessionOf.accountId) return false;
    const before = sessionOf.usable;
    sessionOf = { usable, accountId };
    if (usable !== before) status = { ...status, session: { usable } };
    o.emit('station.statusChanged', status);
    o.onUsable(usable, accountId);
    return true;
  }

  return {
    current: () => status,
    refresh,
    refreshLogged: () =>
      refresh().catch((err: unknown) =>
        o.fault ? o.fault('status refresh failed', err) : o.log.warn('status refresh failed', { error: String(err) }),
      ),
    printersChanged() {
      const printers = o.printers();
      if (JSON.stringify(printers) === JSON.stringify(status.printers)) return;
      status = { ...status, printers };
      o.emit('station.statusChanged', status);
    },
    sessionChanged() {
      if (!o.closing()) followSession();
    },
    storageFailed(f) {
      status = { ...status, storage: { ...status.storage, failed: f } };
      o.emit('station.statusChanged', status);
    },
  };
}
