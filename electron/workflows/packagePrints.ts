/**
 * When each package's label of a parcel came out: its first print, then every reprint with the
 * worker's reason, so a reprint's time never hides the first one (the proof of packing shows them
 * side by side). Read from what is already kept: the parcel's print jobs (journal links), each
 * naming one package's label or all of them (printJobsRepo `packageOfLabelRef`), the time each
 * finished at its printer, and the reprint reasons of the desk's actions (their job and package).
 */
import type { JobState } from '../../shared/contract/printing';
import type { DeskActionRow } from '../store/deskActionsRepo';
import { packageOfLabelRef, type StoredJob } from '../store/printJobsRepo';
import type { WorkflowDeps } from './workflowDeps';

interface PackageReprintTime {
  at: string;
  /** The worker's reason (reprintReasons), null when none was recorded for the job. */
  reasonCode: string | null;
  note: string | null;
}

export interface PackagePrints {
  /** 1-based, in the shipment's order. */
  number: number;
  of: number;
  /** When its label first came out; null: not yet printed. */
  firstPrintedAt: string | null;
  /** Every later print of its label, oldest first. */
  reprints: PackageReprintTime[];
}

/** A label out of the station: confirmed by the printer, or handed to the print system (which does not say more). */
const OUT: JobState[] = ['done', 'spooled'];

/** The packages a job printed the labels of: one package's label, or every label of the parcel. */
function covers(job: StoredJob, n: number): boolean {
  const pkg = packageOfLabelRef(job.labelRef);
  return pkg === null || pkg.number === n;
}

export function packagePrintsOf(
  deps: Pick<WorkflowDeps, 'queue' | 'repos'>,
  accountId: string,
  deliveryId: number,
  packageCount: number,
): PackagePrints[] {
  const jobs = [...new Set(deps.repos.journal.jobIdsOfShipment(accountId, deliveryId))]
    .map((id) => deps.queue.get(id))
    .filter((j) => OUT.includes(j.state) && j.finishedAt !== null)
    .sort((a, b) => a.finishedAt!.localeCompare(b.finishedAt!) || a.id - b.id);
  const reasonOf = new Map<number, DeskActionRow>();
  for (const a of deps.repos.deskActions.ofDelivery(accountId, deliveryId))
    if (a.action === 'reprint' && a.jobId !== null) reasonOf.set(a.jobId, a);
  return Array.from({ length: packageCount }, (_, i) => {
    const [first, ...later] = jobs.filter((j) => covers(j, i + 1));
    return {
      number: i + 1,
      of: packageCount,
      firstPrintedAt: first?.finishedAt ?? null,
      reprints: later.map((j) => ({
        at: j.finishedAt!,
        reasonCode: reasonOf.get(j.id)?.reasonCode ?? null,
        note: reasonOf.get(j.id)?.note ?? null,
      })),
    };
  });
}
