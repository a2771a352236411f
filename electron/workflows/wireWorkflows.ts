/**
 * What a worker does, wired by the composition root (electron/station.ts): the scan lane with the
 * desk's scale and label check, the outcomes it follows as their labels change, batch mode, the
 * problem shelf, and the other workflows' RPC handlers (Shipments actions, New shipment, end of
 * day, reprints from the queue, desk commands, the demo pick list).
 */
import { RECENT_SCANS } from '../../shared/contract/workflows';
import type { JobView } from '../../shared/contract/printing';
import type { Clock } from '../base/clock';
import type { PrintingService } from '../printing/printingService';
import type { Handlers, Logger } from '../rpc/rpcServer';
import { createDesk } from '../scale/desk';
import type { Emit } from '../status/eventBus';
import { outcomeForPages } from '../status/pageFeeds';
import type { StationEvents } from '../status/wireEvents';
import type { StationFaults } from '../status/wireFaults';
import { createAddressBookRepo } from '../store/addressBookRepo';
import type { StationStore } from '../store/wireStore';
import type { ShipmentDomain } from '../sync/shipmentHandlers';
import { createDemoPickListHandlers } from './demoPickList';
import { createDeskCommands } from './deskCommands';
import { waitingOutcomes } from './deskRecent';
import { createJobWaiter, createWorkflows, type WorkflowDeps } from './index';
import { createNewShipment } from './newShipment';
import { createProblemShelf } from './problemShelf';
import { createProtocolPreviewHandlers } from './protocolPreview';
import { createQueueReprint } from './queueReprint';
import { createPackagesAtDesk } from './packagesAtDesk';
import { createOutcomeFollower, type OutcomeFollower } from './scan/outcomeFollower';
import { createShipmentActions } from './shipmentActions';
import { createWorkflowHandlers } from './workflowHandlers';

/**
 * The scan lane's view of the print jobs, made before the printing service, which tells it every
 * job change at once: the waiter a scan waits on, and the recent scans' outcomes told again when
 * their labels or their printer change (followed once the lane exists).
 */
export function watchLabels(printing: () => PrintingService) {
  let follower: OutcomeFollower | null = null;
  const waiter = createJobWaiter(
    (id) => {
      try {
        return printing().queue.get(id);
      } catch {
        return undefined;
      }
    },
    (job) => printing().queuedWaits(job),
  );
  return {
    waiter,
    follow(f: OutcomeFollower): void {
      follower = f;
    },
    jobChanged(job: JobView): void {
      waiter.jobChanged(job);
      follower?.jobChanged(job.id);
    },
    /** A printer's state changed: a scan waiting for its labels hears at once, one already told looks again. */
    printerChanged(printerId: string): void {
      waiter.printerChanged(printerId);
      follower?.printerChanged();
    },
    /** The recent scans whose labels still wait (from before a restart of the core): followed. */
    adoptWaiting(deps: WorkflowDeps): void {
      follower?.adopt(waitingOutcomes(deps));
    },
  };
}

type LabelWatch = ReturnType<typeof watchLabels>;

export interface WorkflowsWiring {
  deps: WorkflowDeps;
  labels: LabelWatch;
  printing: PrintingService;
  shipments: ShipmentDomain;
  store: StationStore;
  events: StationEvents;
  language: () => 'en' | 'cs';
  isSupervisor(operatorId: number): boolean;
  /** The active company when it is on the built-in sandbox (the demo pick list). */
  sandboxCompany(): { companyName: string } | null;
  printWaitMs?: number;
  faults: StationFaults;
  clock: Clock;
  log: Logger;
}

/** The recent scans' outcomes, told again for the same scanId when their labels change. */
function followOutcomes(o: WorkflowsWiring, emit: Emit): OutcomeFollower {
  const { deps, printing } = o;
  return createOutcomeFollower({
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
    queuedWhy: (job) => o.labels.waiter.waitReason(job),
    usualPrinter: () => printing.routes().defaultRoute?.printerId ?? null,
    tell: (out) => emit('scan.outcome', outcomeForPages(out)),
  });
}

export function wireWorkflows(o: WorkflowsWiring) {
  const { deps, printing, shipments, language } = o;
  const emit = o.events.emit;
  // The scale and the label check: the scan lane's steps before and after the close.
  const desk = createDesk({ db: o.store.db, settings: o.store.settings, deps, emit, log: o.log });
  const follower = followOutcomes(o, emit);
  o.labels.follow(follower);
  const workflows = createWorkflows(deps, {
    scan: {
      desk: desk.steps,
      printWaitMs: o.printWaitMs,
      onOutcome: (out) => {
        follower.told(out);
        emit('scan.outcome', outcomeForPages(out));
      },
      onPending: o.events.pending.change,
    },
    batch: { desk: desk.batch, onItems: (items) => emit('batch.items', items), language },
  });
  // The problem shelf: parcels held instead of closed, beside the scan lane that must not close them.
  const shelf = createProblemShelf({
    deps,
    lane: workflows.scanToClose,
    isSupervisor: o.isSupervisor,
    changed: (count) => emit('shelf.changed', { count }),
  });
  // Each workflow's methods, merged by the RPC server (a method handled twice throws at start-up).
  const handlers: Partial<Handlers>[] = [
    createWorkflowHandlers(deps, workflows),
    createShipmentActions({
      deps,
      printers: () => printing.printers(),
      recordCancelled: (a, ids) => void shipments.recordCancelled(a, ids),
      printWaitMs: o.printWaitMs,
    }).handlers,
    createNewShipment({ deps, addressBook: createAddressBookRepo(o.store.db), printWaitMs: o.printWaitMs }).handlers,
    createProtocolPreviewHandlers(deps),
    createQueueReprint(deps).handlers,
    createDeskCommands({ deps, language }).handlers,
    shelf.handlers,
    // Packages added, split, removed or weighed at the desk, then closed through the scan lane.
    createPackagesAtDesk({ deps, lane: workflows.scanToClose, scale: desk.packages }).handlers,
    desk.handlers,
    createDemoPickListHandlers({ deps, sandboxAccount: o.sandboxCompany, language }),
    // What a page connected again after a loss did not hear: the last record of each recent scan.
    { 'scan.told': () => follower.latestTold().map(outcomeForPages) },
  ];

  return {
    workflows,
    handlers,
    /**
     * The active account can be used (again, or another company's): scans waiting in the journal
     * run now in scan order, the batch's and the others' entries with them, and the cache fills.
     */
    accountUsable(accountId: string | null): void {
      o.labels.adoptWaiting(deps);
      workflows.journal.wake();
      printing.queue.kick();
      if (accountId)
        shipments.syncNow(accountId).catch((err: unknown) => o.faults.fault('the shipment sync failed', err));
    },
    /** After the print queue's recovery: the scale opens in the background, the journal resumes. */
    start(): void {
      // A device that is slow to answer never holds up the start.
      desk.start().catch((err: unknown) => o.faults.fault('the scale could not be started', err));
      workflows.journal.start();
    },
    /** Due retries, every second; returns what stops it. */
    ticking: () => o.clock.setInterval(() => workflows.journal.tick(), 1000),
    /** Bounded waits for the scan and the label in flight, so neither is left half done. */
    async close(): Promise<void> {
      // The scale first: a scan waiting for it is let go (it keeps its place in the journal).
      await desk.close();
      await workflows.journal.stop();
    },
  };
}
