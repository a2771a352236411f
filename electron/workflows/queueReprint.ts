/**
 * The print queue's "reprint" and "print again": the same labels on the same printer, recorded in
 * the journal like every other print of a parcel (docs/ARCHITECTURE.md, "the journal"): one `reprint` entry per
 * shipment of the job, queued with the copy in the commit that inserts it. The rules of the other
 * reprints hold: refused while a label of the shipment is in the printer (`labels_in_printer`),
 * one label per parcel (a job of the same shipments still waiting for its printer is replaced),
 * and the scan (or any entry) whose job the copy replaces follows the copy, so it counts as
 * printed once the copy is out.
 *
 * The copy keeps the job's printer and document rather than asking the routing again: the worker
 * chose this job on this printer, and a job does not keep the route it came by (an A4 sheet's
 * position, a single PDF).
 */
import type { ReprintWhy } from '../../shared/contract/reprint';
import { isStationErrorCode } from '../../shared/errors/codes';
import { StationError } from '../base/stationError';
import { publicJob } from '../printing/printingService';
import type { Handlers } from '../rpc/rpcServer';
import type { StoredJob } from '../store/printJobsRepo';
import { createPackageReprint } from './packageReprint';
import { recordReprint } from './reprintRecord';
import { labelsInPrinter, type WorkflowDeps } from './workflowDeps';

export function createQueueReprint(deps: Pick<WorkflowDeps, 'queue' | 'repos' | 'session' | 'clock' | 'routes'>) {
  const journal = deps.repos.journal;
  const reprintPackage = createPackageReprint(deps);

  /**
   * One package's label of the job's parcel (a lost label of package 2/3), cut from the parcel's
   * labels (./packageReprint.ts): a job of one parcel only, whose carrier prints ZPL.
   */
  async function reprintOnePackage(jobId: number, why: ReprintWhy, packageNumber: number): Promise<StoredJob> {
    const job = deps.queue.get(jobId);
    const session = deps.session();
    if (!session)
      throw new StationError('login_required', 'The station is not logged in to the service. Log in, then reprint.');
    const [deliveryId, ...others] = job.deliveryIds;
    if (deliveryId === undefined || others.length)
      throw new StationError(
        'package_label_not_separate',
        `Print job ${jobId} is not the labels of one parcel: reprint it whole.`,
        { jobId },
      );
    const shipment = deps.repos.shipments.get(session.accountId, deliveryId);
    if (!shipment)
      throw new StationError('not_in_cache', `The station does not know shipment ${deliveryId}.`, { deliveryId });
    const r = await reprintPackage({ session, shipment, packageNumber, why });
    if (r.kind === 'refused')
      throw new StationError(isStationErrorCode(r.error.code) ? r.error.code : 'reprint_refused', r.error.message, {
        ...r.error.details,
        jobId,
        deliveryId,
      });
    return r.job;
  }

  /** The copy of `jobId`, with the worker's reason recorded in the commit that queues it. */
  function reprint(jobId: number, why: ReprintWhy): StoredJob {
    const job = deps.queue.get(jobId);
    const accountId = journal.entriesOfJob(jobId)[0]?.accountId || deps.session()?.accountId || '';
    for (const deliveryId of job.deliveryIds) {
      const busy = labelsInPrinter(deps, accountId, deliveryId);
      if (busy) throw new StationError('labels_in_printer', busy.message, { jobId, deliveryId });
    }
    return deps.queue.reprint(jobId, {
      within(copy) {
        const now = deps.clock.now();
        if (!copy.deliveryIds.length) {
          // Not a parcel's labels (a test page, a protocol): still the worker's reprint, with its reason.
          recordReprint(deps.repos.deskActions, why, now, { accountId: accountId || null, jobId: copy.id });
          return [];
        }
        const entries = journal.begin(
          copy.deliveryIds.map((deliveryId) => ({
            accountId,
            source: 'reprint' as const,
            deliveryId,
            want: 'print' as const,
          })),
          now,
        );
        for (const e of entries) {
          journal.queued(e.id, [copy.id], now);
          recordReprint(deps.repos.deskActions, why, now, {
            accountId,
            deliveryId: e.deliveryId,
            entryId: e.id,
            jobId: copy.id,
          });
        }
        // One label per parcel: jobs holding only these shipments are replaced when they still wait.
        const covered = new Set(copy.deliveryIds);
        return copy.deliveryIds
          .flatMap((d) => journal.jobIdsOfShipment(accountId, d))
          .filter((id) => id !== copy.id && deps.queue.get(id).deliveryIds.every((d) => covered.has(d)));
      },
      replaced(copy, jobIds) {
        for (const id of jobIds) journal.follow(id, [copy.id]);
      },
    });
  }

  const handlers: Pick<Handlers, 'printing.queue.reprint'> = {
    // The whole job's copy stays synchronous (queued in the call); one package's label may be fetched first.
    'printing.queue.reprint': ({ jobId, why, packageNumber }) =>
      packageNumber === undefined
        ? publicJob(reprint(jobId, why))
        : reprintOnePackage(jobId, why, packageNumber).then(publicJob),
  };
  return { reprint, handlers };
}
