/**
 * The reprint of one package's label (packageLabel.ts cuts it out of the parcel's labels), from
 * every place a reprint starts: the already-closed question on the Station screen, the shipment's
 * detail and the print queue. Like every reprint it is a journal entry of its own (`reprint`),
 * refused while a label of the parcel is in the printer, and its reason is recorded with the
 * operator, naming the package (desk_actions.package_number, migration 25). The entry, its job,
 * its link and the reason are one commit, so a restart finds the package's job, never an entry
 * that would print every label of the parcel.
 *
 * One label per package: a copy of the same package's label still waiting for its printer is
 * replaced; the parcel's other labels, waiting or not, are left alone.
 */
import type { ReprintWhy } from '../../shared/contract/reprint';
import type { Shipment } from '../../shared/contract/shipments';
import type { WorkflowError } from '../../shared/contract/workflows';
import type { StoredJob } from '../store/printJobsRepo';
import { packageLabelJob } from './packageLabel';
import { recordReprint } from './reprintRecord';
import { labelsInPrinter, type WorkflowDeps, type WorkflowSession } from './workflowDeps';

export interface PackageReprintRequest {
  session: WorkflowSession;
  shipment: Shipment;
  packageNumber: number;
  why: ReprintWhy;
  /** The scan the worker answered (the already-closed question), when there is one. */
  scan?: { scanId: number; code: string };
}

export type PackageReprintResult = { kind: 'queued'; job: StoredJob } | { kind: 'refused'; error: WorkflowError };

export function createPackageReprint(deps: Pick<WorkflowDeps, 'queue' | 'repos' | 'routes' | 'clock'>) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();

  return async function reprintPackage(req: PackageReprintRequest): Promise<PackageReprintResult> {
    const { session, shipment: s, packageNumber } = req;
    const busy = labelsInPrinter(deps, session.accountId, s.deliveryId);
    if (busy) return { kind: 'refused', error: busy };
    const made = await packageLabelJob(
      { session, labels: deps.repos.labels, rules: deps.routes(), now },
      s,
      packageNumber,
    );
    if ('error' in made) return { kind: 'refused', error: made.error };
    const [job] = deps.queue.enqueueAll(
      [made.job],
      ([copy]) => {
        const at = now();
        const [entry] = journal.begin(
          [
            {
              accountId: session.accountId,
              source: 'reprint',
              scanId: req.scan?.scanId,
              code: req.scan?.code,
              deliveryId: s.deliveryId,
              want: 'print',
            },
          ],
          at,
        );
        journal.queued(entry!.id, [copy!.id], at);
        recordReprint(deps.repos.deskActions, req.why, at, {
          accountId: session.accountId,
          deliveryId: s.deliveryId,
          entryId: entry!.id,
          jobId: copy!.id,
          packageNumber,
        });
        return journal
          .jobIdsOfShipment(session.accountId, s.deliveryId)
          .filter((id) => id !== copy!.id && deps.queue.get(id).labelRef === copy!.labelRef);
      },
      ([copy], replaced) => {
        for (const old of replaced) journal.follow(old.id, [copy!.id]);
      },
    );
    return { kind: 'queued', job: job! };
  };
}
