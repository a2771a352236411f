/**
 * What a closed scan's labels are now, from its print jobs as the queue has them: the one
 * derivation the lane's later records of a scan (outcomeFollower.ts), the recent list a page loads
 * (`scan.recent`, deskRecent.ts) and so the Station screen all follow, so no page keeps an outcome
 * that a later cancel, reprint, move or the printer coming back has made false.
 *
 * A job that gave way to a reprint (`replacedByReprint`) is not the scan's label any more: its copy,
 * linked to the scan's journal entry (journal.jobIdsOf), is.
 */
import { replacedByReprint, waitsForPrinter, type JobView } from '../../../shared/contract/printing';
import type { ScanOutcome, WorkflowError } from '../schemas';

/** The outcomes of a scan that closed its shipment and queued its labels. */
export type LabelsOutcome = Extract<
  ScanOutcome,
  { kind: 'printed' | 'spooled' | 'queued' | 'printer_down' | 'print_cancelled' }
>;
export type LabelsKind = LabelsOutcome['kind'];

export interface LabelsNow {
  kind: LabelsKind;
  /** Not at the printer: behind others in the queue, or for the printer itself. */
  waits: boolean;
  /** Why they wait (queued: behind others; printer_down: the printer's reason); null when they do not. */
  reason: WorkflowError | null;
  /** The printers its labels are at when that is not the desk's usual label printer (a carrier's route, a move). */
  printers: string[];
}

const LABELS_KINDS: readonly string[] = ['printed', 'spooled', 'queued', 'printer_down', 'print_cancelled'];
export const isLabelsOutcome = (o: ScanOutcome): o is LabelsOutcome => LABELS_KINDS.includes(o.kind);

/** The printer's own reason of a job that waits for it (or failed at it). */
function printerReason(j: JobView): WorkflowError {
  return {
    code: j.reasonCode ?? 'printer_error',
    message: j.reason ?? `The printer ${j.printerId ?? ''} did not print the label. It waits in the print queue.`,
  };
}

/**
 * The labels' state now. `queuedWhy`: why a queued job is not at its printer yet (the printing
 * service's queuedWaits: its printer is down or another job waits at its head), null when it is
 * simply next. `usualPrinter`: the desk's label printer (the default route), which the screen does
 * not name. Null when none of the jobs is known (all gone from the queue).
 */
export function labelsNow(
  all: readonly JobView[],
  queuedWhy: (j: JobView) => WorkflowError | null = () => null,
  usualPrinter: string | null = null,
): LabelsNow | null {
  if (!all.length) return null;
  const copies = all.filter((j) => !replacedByReprint(j));
  const jobs = copies.length ? copies : all;
  const printers = [...new Set(jobs.map((j) => j.printerId).filter((p): p is string => !!p && p !== usualPrinter))];
  return { ...stateOf(jobs, queuedWhy), printers };
}

function stateOf(
  jobs: readonly JobView[],
  queuedWhy: (j: JobView) => WorkflowError | null,
): Omit<LabelsNow, 'printers'> {
  // Green only when every label came out (done); the print system's "finished" is said as such.
  if (jobs.every((j) => j.state === 'done' || j.state === 'spooled'))
    return { kind: jobs.some((j) => j.state === 'spooled') ? 'spooled' : 'printed', waits: false, reason: null };
  // Cancelled in the print queue (not replaced by a copy): it will not print by itself.
  if (jobs.some((j) => j.state === 'cancelled')) return { kind: 'print_cancelled', waits: false, reason: null };
  const down = jobs.find(
    (j) => waitsForPrinter(j) || j.state === 'failed' || j.state === 'uncertain' || j.state === 'unconfirmed',
  );
  if (down) return { kind: 'printer_down', waits: true, reason: printerReason(down) };
  const queued = jobs.filter((j) => j.state === 'queued');
  for (const j of queued) {
    const why = queuedWhy(j);
    // Its printer is off: the job waits for it as one that failed there does.
    if (why && why.code !== 'waiting_in_queue') return { kind: 'printer_down', waits: true, reason: why };
  }
  if (queued.length)
    return {
      kind: 'queued',
      waits: true,
      reason: {
        code: 'waiting_in_queue',
        message: 'Its labels wait in the print queue behind others and print in turn.',
      },
    };
  return { kind: 'queued', waits: false, reason: null };
}

const samePrinters = (a: readonly string[] | undefined, b: readonly string[]) =>
  (a ?? []).length === b.length && b.every((p) => a!.includes(p));

/**
 * A scan's told outcome brought to what its labels are now (the same object when nothing changed):
 * their state, why they wait, and the printers they are at (a job moved to another printer is
 * named there, with that printer's reason).
 */
export function scanOutcomeNow(told: LabelsOutcome, now: LabelsNow | null): LabelsOutcome {
  if (!now) return told;
  const { scanId, code, shipment } = told;
  const reprint = 'reprint' in told && told.reprint === true;
  const sameReason = (told as { reason?: WorkflowError | null }).reason?.code === now.reason?.code;
  const toldPrinters = 'printers' in told ? told.printers : undefined;
  const printersSame = now.kind === 'print_cancelled' || samePrinters(toldPrinters, now.printers);
  if (told.kind === now.kind && sameReason && printersSame) return told;
  // The scan's jobs as they are: a reprint's copy replaced the told one.
  const jobIds = told.jobIds;
  const printers = now.printers.length ? { printers: now.printers } : {};
  switch (now.kind) {
    case 'print_cancelled':
      return { scanId, code, kind: now.kind, shipment, jobIds, reprint };
    case 'printed':
    case 'spooled':
      return { scanId, code, kind: now.kind, shipment, jobIds, reprint, ...printers };
    case 'queued':
      return { scanId, code, kind: 'queued', shipment, jobIds, reprint, reason: now.reason, ...printers };
    case 'printer_down':
      return { scanId, code, kind: 'printer_down', shipment, jobIds, reason: now.reason!, ...printers };
  }
}
