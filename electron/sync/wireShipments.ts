/**
 * The shipment cache, its sync and the scanner lookup, wired by the composition root
 * (electron/station.ts): the service of the active session while it is logged in, the cache's
 * changes to the pages, and the sync every five minutes in the background.
 */
import type { ScannerAffixes } from '../../shared/scan/normaliseScan';
import type { ActiveSessionHolder } from '../auth/activeSession';
import type { Clock } from '../base/clock';
import type { Logger } from '../rpc/rpcServer';
import type { Emit } from '../status/eventBus';
import type { StationStore } from '../store/wireStore';
import type { StationFaults } from '../status/wireFaults';
import { createShipmentDomain } from './shipmentHandlers';
import { shipmentSourceFromClient } from './shipmentSourceFromClient';

const AUTO_SYNC_MS = 5 * 60_000;

export function wireShipments(o: {
  store: StationStore;
  clock: Clock;
  session: ActiveSessionHolder;
  activeAccountId: () => string | null;
  emit: Emit;
  /** The pages' feed of changed shipments (gathered in bursts). */
  changed: (accountId: string, deliveryIds: number[]) => void;
  scannerAffixes: () => ScannerAffixes;
  faults: StationFaults;
  log: Logger;
}) {
  const domain = createShipmentDomain({
    db: o.store.db,
    now: () => o.clock.now(),
    activeAccountId: o.activeAccountId,
    sourceFor: async (accountId) => {
      const s = await o.session.sessionOf(accountId);
      return s.tokens.state().state === 'logged-in' ? shipmentSourceFromClient(s.client) : null;
    },
    emitProgress: (p) => o.emit('shipments.syncProgress', p),
    emitChanged: o.changed,
    scannerAffixes: o.scannerAffixes,
    log: o.log,
  });
  return {
    domain,
    /** The background sync; returns what stops it. */
    autoSync: () =>
      domain.startAutoSync(
        (fn, ms) => o.clock.setInterval(fn, ms),
        AUTO_SYNC_MS,
        (err) => o.faults.fault('the shipment sync failed', err),
      ),
  };
}
