/**
 * A reprint's reason, recorded with the operator and desk (desk_actions `reprint`): one row per
 * shipment whose labels were queued again, naming its journal entry and the (first) print job, so
 * the audit trail shows why a parcel printed twice and the statistics count reprints by reason.
 */
import type { ReprintWhy } from '../../shared/contract/reprint';
import type { DeskActionsRepo } from '../store/deskActionsRepo';

export function recordReprint(
  deskActions: DeskActionsRepo,
  why: ReprintWhy,
  at: Date,
  of: {
    accountId?: string | null;
    deliveryId?: number | null;
    entryId?: number | null;
    jobId?: number | null;
    /** One package's label alone (1-based); absent, every label of the parcel. */
    packageNumber?: number | null;
  },
): void {
  deskActions.record({
    action: 'reprint',
    at,
    ...of,
    reasonCode: why.code,
    // The worker's words only where the reason asks for them: a listed reason says it all.
    note: why.code === 'other' ? (why.note ?? null) : null,
  });
}
