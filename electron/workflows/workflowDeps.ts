/**
 * What the workflows are built from. The composition root creates one set (electron/workflows/wireWorkflowDeps.ts)
 * and hands it to each workflow factory; tests build the same set from real parts.
 */
import type { ShelfRepo } from '../store/shelfRepo';
import type { DeskActionsRepo } from '../store/deskActionsRepo';
import type { DeskOperator } from '../operators/deskOperator';
import type { Delivery, ServiceClient } from '../api/index';
import type { Clock } from '../base/clock';
import type { PrintQueue } from '../queue/printQueue';
import type { Logger } from '../rpc/rpcServer';
import type { CollectionPlacesRepo } from '../store/collectionPlacesRepo';
import type { BatchItemsRepo } from '../store/batchItemsRepo';
import type { EndOfDayRepo } from '../store/endOfDayRepo';
import type { JournalRepo } from '../store/journalRepo';
import type { LabelsRepo } from '../store/labelsRepo';
import type { ScanLogRepo } from '../store/scanLogRepo';
import type { ShipmentsRepo } from '../store/shipmentsRepo';
import type { LookupResult } from '../../shared/contract/shipments';
import type { RoutingRules } from '../../shared/contract/printing';
import type { ScannerAffixes } from '../../shared/scan/normaliseScan';
import type { StationErrorCode } from '../../shared/errors/codes';
import type { JobWaiter } from './jobWaiter';

/** The active account and its service client; null when no account is set up or it is logged out. */
export interface WorkflowSession {
  accountId: string;
  client: ServiceClient;
}

export interface WorkflowDeps {
  /** The active account's session, or null (then scans answer `login_required`). */
  session(): WorkflowSession | null;
  /**
   * Resolves a scanned code for the active account: the cache first, then the service
   * (electron/lookup/lookupScan.ts bound to the account; `refresh` re-reads a cached hit).
   */
  lookup(code: string, opts?: { refresh?: boolean }): Promise<LookupResult>;
  /**
   * The same answer from the cache alone, without waiting (lookupInCache): null when the cache has
   * no match or no account is active. The scan line resolves a lone scan with it in the commit
   * that receives the scan.
   */
  lookupCached(code: string): LookupResult | null;
  repos: {
    shipments: ShipmentsRepo;
    labels: LabelsRepo;
    scanLog: ScanLogRepo;
    places: CollectionPlacesRepo;
    endOfDay: EndOfDayRepo;
    /** The close-and-print journal (electron/workflows/closeAndPrint.ts moves its entries). */
    journal: JournalRepo;
    /** The batch list, kept on the disk. */
    batchItems: BatchItemsRepo;
    /** What a person did (reprints with reasons, cancellations), with the operator and desk. */
    deskActions: DeskActionsRepo;
    /** The problem shelf: parcels held instead of closed (electron/workflows/problemShelf.ts). */
    shelf: ShelfRepo;
  };
  /** Who works at the desk now (electron/operators/deskOperator.ts). */
  desk: DeskOperator;
  /** Stores delivery records the service returned (electron/sync/updateCache.ts recordDeliveries, bound). */
  recordDeliveries(accountId: string, deliveries: readonly Delivery[]): void;
  queue: PrintQueue;
  /** Current routing rules (printing settings). */
  routes(): RoutingRules;
  /** Tells when print jobs finish; fed by the queue's job-changed events. */
  jobs: JobWaiter;
  clock: Clock;
  log: Logger;
  /**
   * Work nobody awaits (the scan lane, resumed journal entries) failed on the station's own error:
   * a storage failure stops the station (electron/status/storageFailure.ts), anything else is logged.
   * Never an unhandled rejection. Without it, the error is logged.
   */
  fault?(what: string, err: unknown): void;
  /** A workflow could not reach the service: the station checks it now, so the top bar turns red at once. */
  serviceTrouble?(): void;
  /** Parcels left the problem shelf (closed): the pages follow it (`shelf.changed`). */
  shelfChanged?(): void;
  /** The desk scanner's prefix/suffix (settings): a scan is logged and named without them. */
  scannerAffixes?(): ScannerAffixes;
  /**
   * Resolves once every commit so far is on the disk (store/walSync.ts): awaited before what acts
   * on one where nothing else waits (a scan's acknowledgement). Without it, commits are taken as durable.
   */
  durable?(): Promise<void>;
}

/**
 * A job of the shipment the printer holds right now (`sending`, or `sent`: in its buffer, to be
 * confirmed), as the worker's error; null when none. A reprint then would print the label twice
 * once the printer goes on (never offer a label for reprint while it is in the printer).
 */
export function labelsInPrinter(
  deps: Pick<WorkflowDeps, 'queue' | 'repos'>,
  accountId: string,
  deliveryId: number,
): { code: StationErrorCode; message: string } | null {
  for (const id of deps.repos.journal.jobIdsOfShipment(accountId, deliveryId)) {
    const state = deps.queue.get(id).state;
    if (state === 'sending' || state === 'sent') {
      return {
        code: 'labels_in_printer',
        message: `The labels of shipment ${deliveryId} are in the printer right now (print job ${id}): wait until they come out before printing them again.`,
      };
    }
  }
  return null;
}

/** Reports work nobody awaits that failed (WorkflowDeps.fault, or the log). */
export function reportFault(deps: Pick<WorkflowDeps, 'fault' | 'log'>, what: string, err: unknown): void {
  if (deps.fault) deps.fault(what, err);
  else deps.log.error(what, { error: err instanceof Error ? err.message : String(err) });
}
