/**
 * The one set of dependencies every workflow is built from (workflowDeps.ts), wired by the
 * composition root (electron/station.ts): the active session, the lookup bound to it, the
 * workflows' repositories, the print queue and its waiter, and what the pages follow.
 */
import type { ActiveSessionHolder } from '../auth/activeSession';
import type { Clock } from '../base/clock';
import { lookupInCache, lookupScan } from '../lookup/lookupScan';
import type { DeskOperator } from '../operators/deskOperator';
import type { PrintingService } from '../printing/printingService';
import type { Logger } from '../rpc/rpcServer';
import type { StationSettingsStore } from '../settings/stationSettings';
import type { Emit } from '../status/eventBus';
import { createBatchItemsRepo } from '../store/batchItemsRepo';
import { createCollectionPlacesRepo } from '../store/collectionPlacesRepo';
import type { DeskActionsRepo } from '../store/deskActionsRepo';
import { createEndOfDayRepo } from '../store/endOfDayRepo';
import { createJournalRepo } from '../store/journalRepo';
import { createLabelsRepo } from '../store/labelsRepo';
import { createShelfRepo } from '../store/shelfRepo';
import type { StationStore } from '../store/wireStore';
import type { StationFaults } from '../status/wireFaults';
import type { ShipmentDomain } from '../sync/shipmentHandlers';
import type { JobWaiter } from './jobWaiter';
import type { WorkflowDeps } from './workflowDeps';

export function wireWorkflowDeps(o: {
  store: StationStore;
  session: ActiveSessionHolder;
  shipments: ShipmentDomain;
  settings: StationSettingsStore;
  desk: DeskOperator;
  deskActions: DeskActionsRepo;
  printing: PrintingService;
  jobs: JobWaiter;
  clock: Clock;
  emit: Emit;
  log: Logger;
  faults: StationFaults;
  serviceTrouble: () => void;
}): WorkflowDeps {
  const { shipments, settings } = o;
  const deps: WorkflowDeps = {
    session: () => {
      const s = o.session.session();
      return s ? { accountId: s.accountId, client: s.client } : null;
    },
    lookup: (code, opts) => {
      const s = o.session.session();
      return s
        ? shipments.lookup(s.accountId, code, opts)
        : lookupScan(
            { accountId: '', shipments: shipments.repos.shipments, source: null, now: () => o.clock.now() },
            code,
            opts,
          );
    },
    lookupCached: (code) => {
      const s = o.session.session();
      return s
        ? lookupInCache(
            { accountId: s.accountId, shipments: shipments.repos.shipments, affixes: settings.get().scanner },
            code,
          )
        : null;
    },
    desk: o.desk,
    repos: {
      shipments: shipments.repos.shipments,
      labels: createLabelsRepo(o.store.db),
      scanLog: shipments.repos.scanLog,
      journal: createJournalRepo(o.store.db, shipments.repos.scanLog, o.desk.who),
      batchItems: createBatchItemsRepo(o.store.db),
      deskActions: o.deskActions,
      shelf: createShelfRepo(o.store.db, o.deskActions),
      places: createCollectionPlacesRepo(o.store.db),
      endOfDay: createEndOfDayRepo(o.store.db),
    },
    recordDeliveries: (accountId, list) => void shipments.recordDeliveries(accountId, list),
    queue: o.printing.queue,
    routes: () => o.printing.routes(),
    jobs: o.jobs,
    clock: o.clock,
    log: o.log,
    fault: o.faults.fault,
    serviceTrouble: o.serviceTrouble,
    scannerAffixes: () => settings.get().scanner,
    durable: o.store.durable,
    // Parcels left the problem shelf: the pages follow its count.
    shelfChanged: () => {
      const s = deps.session();
      o.emit('shelf.changed', { count: s ? deps.repos.shelf.count(s.accountId) : 0 });
    },
  };
  return deps;
}
