/**
 * The station's status, wired by the composition root (electron/station.ts): the service of the
 * active account and whether it answers, the printers, the session's usable state (what waits for
 * the account runs when it becomes usable), a storage failure said to the desk and the host, and
 * the checks and the tick every page follows.
 */
import type { PrinterSummary, StationStatus } from '../../shared/contract/status';
import type { StorageFailure } from '../../shared/storageFailure';
import type { ActiveSessionHolder } from '../auth/activeSession';
import type { Clock } from '../base/clock';
import type { Handlers, Logger } from '../rpc/rpcServer';
import { createStationStatus, type StationStatusOptions } from './stationStatus';
import type { StationEvents } from './wireEvents';
import type { StationFaults } from './wireFaults';

export interface StatusWiring {
  version: string;
  dataDir: string;
  host: StationStatus['host'];
  keychain: StationStatus['keychain'];
  restartedAfter?: StorageFailure | null;
  /** The host's end of a storage failure (it ends the process so its supervisor starts a new one). */
  onStorageFailed?(f: StorageFailure): void;
  /** How often the service is checked in the background (default 30 s). */
  healthIntervalMs?: number;
  /** How often it is checked while it cannot be reached (default 3 s). */
  outageCheckMs?: number;
  service: StationStatusOptions['service'];
  printers(): PrinterSummary[];
  /** The service is back: the queue's waiting labels go now (they need the printer, not the login). */
  onServiceBack(): void;
  session: ActiveSessionHolder;
  /** The active account can be used (again, or another company's). */
  onUsable(accountId: string | null): void;
  /** A printer's state changed: what waits for its labels looks again. */
  onPrinterChanged(printerId: string): void;
  events: StationEvents;
  faults: StationFaults;
  clock: Clock;
  log: Logger;
}

export function wireStatus(o: StatusWiring) {
  const { clock } = o;
  let closing = false;
  const status = createStationStatus({
    version: o.version,
    dataDir: o.dataDir,
    host: o.host,
    keychain: o.keychain,
    clock,
    log: o.log,
    emit: o.events.emit,
    service: o.service,
    printers: o.printers,
    onServiceBack: o.onServiceBack,
    loggedIn: () => o.session.session() !== null,
    accountId: () => o.session.current()?.accountId ?? null,
    onUsable: (usable, accountId) => {
      if (usable === 'usable') o.onUsable(accountId);
    },
    closing: () => closing,
    restartedAfter: o.restartedAfter ?? null,
    fault: o.faults.fault,
  });
  o.faults.whenStorageFailed((f) => {
    status.storageFailed(f);
    o.onStorageFailed?.(f);
  });
  // The top bar's printer pill reads the status: it must change with the printer, not at the next health check.
  o.events.connect((name, payload) => {
    if (name !== 'printing.printerState') return;
    status.printersChanged();
    o.onPrinterChanged((payload as { printerId: string }).printerId);
  });
  const handlers: Pick<Handlers, 'station.status' | 'station.checkService'> = {
    'station.status': () => status.current(),
    'station.checkService': () => status.refresh(),
  };

  return {
    status,
    handlers,
    /** The tick every page's clock follows, every second; returns what stops it. */
    ticking: () => clock.setInterval(() => o.events.emit('station.tick', { now: clock.now().toISOString() }), 1000),
    /**
     * The service checked in the background, and every few seconds while it is down: waiting scans
     * run as soon as it answers. Returns what stops both.
     */
    watchService(): () => void {
      const stopHealth = clock.setInterval(() => void status.refreshLogged(), o.healthIntervalMs ?? 30_000);
      const stopOutageCheck = clock.setInterval(() => {
        if (!status.current().service.reachable) void status.refreshLogged();
      }, o.outageCheckMs ?? 3000);
      return () => {
        stopHealth();
        stopOutageCheck();
      };
    },
    /** A health check that still answers while the station closes finds the database closed. */
    beginClose(): void {
      closing = true;
    },
  };
}
