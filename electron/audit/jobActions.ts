/**
 * The print queue's "cancel", "send again now", "move" and "it printed" as desk actions (JobAction),
 * stamped with the desk and the operator signed in: one row per parcel whose labels the job holds,
 * naming the journal entry it prints for, so the parcel's audit trail shows who did it; a job of no
 * parcel (a test label, a protocol) gets one row with the job alone.
 */
import type { JobAction } from '../../shared/contract/operators';
import type { DeskActionsRepo } from '../store/deskActionsRepo';
import type { AuditTrailRepo } from '../store/auditTrailRepo';
import type { StoredJob } from '../store/printJobsRepo';

export function createJobActionRecorder(deps: { deskActions: DeskActionsRepo; trail: AuditTrailRepo }) {
  return (action: JobAction, job: StoredJob): void => {
    // The instant of the job's own history row: the action and the job's change are one moment.
    const at = new Date(job.updatedAt);
    const owners = deps.trail.ownersOfJob(job.id);
    if (!owners.length) {
      deps.deskActions.record({ action, at, jobId: job.id });
      return;
    }
    for (const o of owners)
      deps.deskActions.record({
        action,
        at,
        jobId: job.id,
        accountId: o.accountId,
        deliveryId: o.deliveryId,
        entryId: o.entryId,
      });
  };
}
