/**
 * Follows the recent scans' labels after their outcome was told: whenever a print job of one of
 * them changes (printed, handed to the print system, cancelled, moved, replaced by a reprint,
 * waiting for a new reason), its outcome is derived again (scanOutcomeNow.ts) and, when it is not
 * what was told, told again for the same scanId, marked `update`. Every page (a reload, a second
 * tab on the web host) hears the same record, so none keeps an outcome a later event made false.
 *
 * It hears the print queue's changes as they happen (the printing service's onJobChanged) and the
 * printers' (a printer going off or coming back changes why a queued label waits, though no job of
 * the scan changed), never polls; a burst of changes is gathered into one derivation per turn of the
 * event loop. A scan that waits keeps being followed across a restart of the core: the new core
 * adopts the recent scans whose labels still wait (`adopt`), as the journal and the queue have them.
 */
import { RECENT_SCANS } from '../../../shared/contract/workflows';
import type { JobView } from '../../../shared/contract/printing';
import type { ScanOutcome, WorkflowError } from '../schemas';
import { isLabelsOutcome, labelsNow, scanOutcomeNow, type LabelsOutcome } from './scanOutcomeNow';

export interface OutcomeFollowerDeps {
  /** A job as the queue has it now; null when it is gone. */
  job(id: number): JobView | null;
  /** The recent scans' jobs as the journal links them (a reprint's copy included), by scanId. */
  jobIdsOfRecent(): Map<number, number[]>;
  /** Why a queued job is not at its printer yet (printingService.queuedWaits). */
  queuedWhy(job: JobView): WorkflowError | null;
  /** The desk's usual label printer (the default route): the outcome names only the others. */
  usualPrinter(): string | null;
  /** Tell the pages (the `scan.outcome` event). */
  tell(o: ScanOutcome): void;
  /** Runs a function on the next turn of the event loop (setImmediate). */
  later?: (f: () => void) => void;
}

/** Labels that are not out yet and not cancelled: what they wait for may change without a job of theirs changing. */
const waits = (o: LabelsOutcome) => o.kind === 'queued' || o.kind === 'printer_down';

export function createOutcomeFollower(d: OutcomeFollowerDeps) {
  /** The last told outcome of each recent scan whose labels may still change, oldest first. */
  const told = new Map<number, LabelsOutcome>();
  /**
   * The last told record of each recent scan, whatever its kind, oldest first: what a page whose
   * socket was lost may have missed (an outcome, or a later record of one), asked for when it is
   * connected again (`scan.told`). Events are not kept for a page that is not there.
   */
  const latest = new Map<number, ScanOutcome>();
  const remember = (o: ScanOutcome) => {
    latest.delete(o.scanId);
    latest.set(o.scanId, o);
    while (latest.size > RECENT_SCANS) latest.delete(latest.keys().next().value!);
  };
  const changed = new Set<number>();
  const toCheck = new Set<number>();
  /** A printer's state or a job's changed: every told scan whose labels wait looks again. */
  let waitingLook = false;
  let planned = false;
  const later = d.later ?? ((f) => void setImmediate(f));

  function plan(): void {
    if (planned) return;
    planned = true;
    later(() => {
      planned = false;
      try {
        check();
      } catch {
        // The store could not be read (the station is closing): the next change tries again.
      }
    });
  }

  function check(): void {
    const jobIds = changed.size || toCheck.size || waitingLook ? d.jobIdsOfRecent() : new Map<number, number[]>();
    const jobsChanged = [...changed];
    const waiting = waitingLook;
    changed.clear();
    waitingLook = false;
    const usual = d.usualPrinter();
    for (const [scanId, o] of [...told]) {
      const ids = jobIds.get(scanId) ?? o.jobIds;
      const look =
        toCheck.has(scanId) ||
        (waiting && waits(o)) ||
        jobsChanged.some((id) => ids.includes(id) || o.jobIds.includes(id));
      if (!look) continue;
      const jobs = ids.map(d.job).filter((j): j is JobView => j !== null);
      const next = scanOutcomeNow(o, labelsNow(jobs, d.queuedWhy, usual));
      if (next === o) continue;
      told.set(scanId, next);
      remember({ ...next, update: true });
      d.tell({ ...next, update: true });
    }
    toCheck.clear();
  }

  return {
    /** A scan's outcome as the lane told it: followed when its labels may still change. */
    told(o: ScanOutcome): void {
      remember(o);
      if (!isLabelsOutcome(o)) {
        told.delete(o.scanId);
        return;
      }
      told.delete(o.scanId);
      told.set(o.scanId, o);
      while (told.size > RECENT_SCANS) told.delete(told.keys().next().value!);
      // A job that changed between the lane's wait and now: derived once more at once.
      toCheck.add(o.scanId);
      plan();
    },
    /**
     * A print job changed (its state, reason or printer): its scan looks again, and so do the scans
     * whose labels wait (a lane's head that now waits for its printer holds the jobs behind it).
     */
    jobChanged(jobId: number): void {
      if (!told.size) return;
      changed.add(jobId);
      waitingLook = true;
      plan();
    },
    /** A printer's state changed (off, out of labels, back): the scans whose labels wait look again. */
    printerChanged(): void {
      if (!told.size) return;
      waitingLook = true;
      plan();
    },
    /** The last record told of each recent scan (oldest first), for a page connected again. */
    latestTold(): ScanOutcome[] {
      return [...latest.values()];
    },
    /**
     * The recent scans whose labels still wait, as a new core finds them in the journal and the
     * queue (after a restart): followed from now on like the ones this core told. Their records
     * are what the pages load (`scan.recent`), so nothing is told until they change.
     */
    adopt(outcomes: readonly LabelsOutcome[]): void {
      const merged = [...told.values(), ...outcomes.filter((o) => !told.has(o.scanId))].sort(
        (a, b) => a.scanId - b.scanId,
      );
      told.clear();
      for (const o of merged.slice(-RECENT_SCANS)) told.set(o.scanId, o);
    },
  };
}

export type OutcomeFollower = ReturnType<typeof createOutcomeFollower>;
