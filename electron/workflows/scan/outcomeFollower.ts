/**
 * Follows the recent scans' labels after their outcome was told: whenever a print job of one of
 * them changes (printed, handed to the print system, cancelled, moved, replaced by a reprint,
 * waiting for a new reason), its outcome is derived again (scanOutcomeNow.ts) and, when it is not
 * what was told, told again for the same scanId, marked `update`. Every page (a reload, a second
 * tab on the web host) hears the same record, so none keeps an outcome a later event made false.
 *
 * It hears the print queue's changes as they happen (the printing service's onJobChanged), never
 * polls; a burst of changes is gathered into one derivation per turn of the event loop.
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
  /** Tell the pages (the `scan.outcome` event). */
  tell(o: ScanOutcome): void;
  /** Runs a function on the next turn of the event loop (setImmediate). */
  later?: (f: () => void) => void;
}

export function createOutcomeFollower(d: OutcomeFollowerDeps) {
  /** The last told outcome of each recent scan whose labels may still change, oldest first. */
  const told = new Map<number, LabelsOutcome>();
  const changed = new Set<number>();
  const toCheck = new Set<number>();
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
    const jobIds = changed.size || toCheck.size ? d.jobIdsOfRecent() : new Map<number, number[]>();
    const jobsChanged = [...changed];
    changed.clear();
    for (const [scanId, o] of [...told]) {
      const ids = jobIds.get(scanId) ?? o.jobIds;
      if (!toCheck.has(scanId) && !jobsChanged.some((id) => ids.includes(id) || o.jobIds.includes(id))) continue;
      const jobs = ids.map(d.job).filter((j): j is JobView => j !== null);
      const next = scanOutcomeNow(o, labelsNow(jobs, d.queuedWhy));
      if (next === o) continue;
      told.set(scanId, next);
      d.tell({ ...next, update: true });
    }
    toCheck.clear();
  }

  return {
    /** A scan's outcome as the lane told it: followed when its labels may still change. */
    told(o: ScanOutcome): void {
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
    /** A print job changed (its state, reason or printer). */
    jobChanged(jobId: number): void {
      if (!told.size) return;
      changed.add(jobId);
      plan();
    },
  };
}

export type OutcomeFollower = ReturnType<typeof createOutcomeFollower>;
