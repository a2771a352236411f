/**
 * Receiving scans: a scan is committed with its scan-log row as a journal entry before it is
 * acknowledged with its number, so nothing acknowledged is lost. Scans that arrive in the same
 * turn of the event loop share one commit; a lone scan while the line is idle, naming a prepared
 * shipment in the cache, is committed `close_requested` at once.
 */
import { shipmentStates } from '../../../shared/contract/shipments';
import { normaliseScan } from '../../../shared/scan/normaliseScan';
import type { ReceivedScan } from '../../store/journalRepo';
import type { ScanOutcome } from '../schemas';
import type { WorkflowDeps } from '../workflowDeps';
import type { DeskSteps } from './deskSteps';
import type { ScanLane } from './lane';

/** A scan committed and acknowledged: its number, and its first outcome to come. */
export interface Received {
  scanId: number;
  done: Promise<ScanOutcome>;
}

/** Scans received per commit (one sync of the write-ahead log), and per turn of the event loop. */
const RECEIVE_SLICE = 25;

export function createScanReceiver(
  deps: WorkflowDeps,
  o: { lane: ScanLane; closeNotSent: Set<number>; changed(entryId: number): void; desk?: DeskSteps },
) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();
  /** Scans submitted in this turn, waiting for their common commit (receiveArrived). */
  const arriving: { scan: ReceivedScan; resolve: (r: Received) => void; reject: (err: unknown) => void }[] = [];

  /**
   * One scan as the scanner typed it: committed (scan log + journal) before it is acknowledged
   * with its number; its outcome comes later (`done`, also sent to onOutcome). `pageRef`: the
   * sending page's name for it, kept in the scan log so the page can ask after a lost answer.
   */
  function submit(raw: string, pageRef?: string): Promise<Received> {
    const session = deps.session();
    const n = normaliseScan(raw, deps.scannerAffixes?.()); // logged and named without the desk scanner's affixes
    const code = n.ok ? n.code : raw.trim();
    return new Promise<Received>((resolve, reject) => {
      if (!arriving.length) queueMicrotask(receiveArrived);
      arriving.push({
        scan: { accountId: session?.accountId ?? '', code, rawCode: code === raw ? null : raw, at: now(), pageRef },
        resolve,
        reject,
      });
    });
  }

  /**
   * Inside the commit that receives a lone scan while the line is idle: the prepared shipment it
   * names in the cache, whose close the line sends next (so the scan's commit is also the one the
   * close waits for); null when anything else may come first (a scan in line before it, weighing,
   * a lookup at the service, an outcome other than a close).
   */
  function closeAtOnce(s: ReceivedScan): number | null {
    const session = deps.session();
    if (!session || s.accountId !== session.accountId || o.desk?.weighs() || journal.nextScan() !== null) return null;
    const found = deps.lookupCached(s.code);
    if (found?.kind !== 'found' || found.shipment.state !== shipmentStates.prepared) return null;
    // A parcel on the problem shelf is asked about, never closed at once (runScan.ts).
    return deps.repos.shelf.ofParcel(s.accountId, found.shipment.deliveryId, s.code) ? null : found.shipment.deliveryId;
  }

  /**
   * Scans that arrive in the same turn of the event loop (one read of the page's socket: a fast
   * scanner, a page sending what it held) share one commit, so a burst of 1,000 is 40 disk syncs,
   * not 1,000 in one block of the loop; each is acknowledged only after its commit. A slice of
   * RECEIVE_SLICE at a time, the event loop running between slices.
   */
  function receiveArrived(): void {
    const group = arriving.splice(0, RECEIVE_SLICE);
    if (!group.length) return; // received already (by stop())
    if (arriving.length) setImmediate(receiveArrived);
    let got: ReturnType<typeof journal.receiveScans>;
    try {
      got = journal.receiveScans(
        group.map((g) => g.scan),
        group.length === 1 && !o.lane.stopped() && !o.lane.busy() ? closeAtOnce : undefined,
      );
    } catch (err) {
      for (const g of group) g.reject(err);
      return;
    }
    // Acknowledged once the commit is on the disk (its sync off the event loop: store/walSync.ts).
    const synced = deps.durable?.() ?? Promise.resolve();
    group.forEach((g, i) => {
      const { scanId, entry } = got[i]!;
      if (entry.step === 'close_requested') o.closeNotSent.add(entry.id);
      const received = { scanId, done: o.lane.outcomeOf(entry.id) };
      synced.then(() => g.resolve(received), g.reject);
    });
    // Runs outside any caller's stack (a microtask): what fails here is logged, never thrown away
    // with the process. The scans are committed; the line runs them.
    try {
      for (const { entry } of got) o.changed(entry.id);
    } catch (err) {
      deps.log.error('the line of scans could not tell the pages', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
    void o.lane.drain();
  }

  return {
    submit,
    /** Scans that arrived and wait for their commit are received now (the lane stops; the database is still open). */
    receiveAll(): void {
      while (arriving.length) receiveArrived();
    },
  };
}
