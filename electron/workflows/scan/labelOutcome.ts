/**
 * What a scan's labels did once they are queued: printed, handed to the print system, waiting for
 * their printer (with its reason), or still on their way when the wait ends. A scan answered
 * before its labels came out has its scan-log row brought up to date when they do, so the day's
 * counters are true; a reprint from the print queue that replaces its label is followed.
 */
import type { Shipment } from '../../../shared/contract/shipments';
import type { StoredJob } from '../../store/printJobsRepo';
import type { DeskSteps } from './deskSteps';
import type { ScanOutcome, WorkflowError } from '../schemas';
import type { WorkflowDeps } from '../workflowDeps';
import { shipmentInfo } from './outcomes';

export function createLabelOutcome(deps: WorkflowDeps, o: { printWaitMs: number; desk?: DeskSteps }) {
  const journal = deps.repos.journal;

  /**
   * After the wait: null when every label not yet finished is at its printer (sending or sent: it
   * is printing), else why they are not (they wait in the print queue behind others), so the screen
   * says "printing" only when they are.
   */
  function onTheirWay(jobIds: number[]): WorkflowError | null {
    const behind = jobIds.some((id) => {
      try {
        return deps.queue.get(id).state === 'queued';
      } catch {
        return false;
      }
    });
    return behind
      ? { code: 'waiting_in_queue', message: 'Its labels wait in the print queue behind others and print in turn.' }
      : null;
  }

  /** The printers the labels are at, when not the desk's usual label printer: the screen names them. */
  function printersOf(jobIds: number[]): { printers?: string[] } {
    const usual = deps.routes().defaultRoute?.printerId ?? null;
    const at = new Set<string>();
    for (const id of jobIds) {
      try {
        const printerId = deps.queue.get(id).printerId;
        if (printerId && printerId !== usual) at.add(printerId);
      } catch {
        // A job gone from the queue names no printer.
      }
    }
    return at.size ? { printers: [...at] } : {};
  }

  return async function report(
    scanId: number,
    code: string,
    s: Shipment,
    jobs: StoredJob[],
    reprint: boolean,
    entryId: number | null = null,
  ): Promise<ScanOutcome> {
    const weighed = entryId !== null ? o.desk?.weighedOf(entryId, s) : null;
    const info = weighed ? { ...shipmentInfo(s), weighed } : shipmentInfo(s);
    const jobIds = jobs.map((j) => j.id);
    const settled = await deps.jobs.wait(jobIds, o.printWaitMs);
    if (settled.kind === 'done')
      return { scanId, code, kind: 'printed', shipment: info, jobIds, reprint, ...printersOf(jobIds) };
    // Handed to the print system, which does not say a label came out: told as such, not counted printed.
    if (settled.kind === 'spooled')
      return { scanId, code, kind: 'spooled', shipment: info, jobIds, reprint, ...printersOf(jobIds) };
    // The labels come out later (the printer was down, or slow): the scan log says so then, so the day's counters are true.
    const follow = (ids: number[]): void =>
      deps.jobs.whenAllDone(
        ids,
        (how) =>
          deps.repos.scanLog.update(scanId, {
            outcome: how === 'spooled' ? 'spooled' : reprint ? 'reprinted' : 'printed',
          }),
        // Cancelled in the queue: it no longer waits, so the day's "Waiting" drops it.
        () => deps.repos.scanLog.update(scanId, { outcome: 'print_cancelled' }),
        // Reprinted from the print queue: the copy is the scan's label now (linked in the journal).
        () => {
          if (entryId === null) return;
          const live = journal.jobIdsOf(entryId).filter((id) => deps.queue.get(id).state !== 'cancelled');
          if (live.length) follow(live);
        },
      );
    setImmediate(() => follow(jobIds));
    if (settled.kind === 'waiting' || settled.kind === 'failed') {
      // Waiting for its printer (offline, out of labels): said at once, with the printer's reason.
      const j = settled.job;
      const reason: WorkflowError =
        settled.kind === 'waiting'
          ? settled.reason
          : {
              code: j.reasonCode ?? 'printer_error',
              message:
                j.reason ?? `The printer ${j.printerId ?? ''} did not print the label. It waits in the print queue.`,
            };
      return { scanId, code, kind: 'printer_down', shipment: info, jobIds, reason, ...printersOf(jobIds) };
    }
    return {
      scanId,
      code,
      kind: 'queued',
      shipment: info,
      jobIds,
      reprint,
      reason: onTheirWay(jobIds),
      ...printersOf(jobIds),
    };
  };
}

export type ReportLabels = ReturnType<typeof createLabelOutcome>;
