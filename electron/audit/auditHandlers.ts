/** The audit trail's contract methods (shared/contract/audit.ts): one parcel's trail, a range as CSV. */
import type { Handlers } from '../rpc/rpcServer';
import type { AuditTrailRepo } from '../store/auditTrailRepo';
import { localDateTime, trailCsv } from './trailCsv';

export function createAuditHandlers(deps: {
  trail: AuditTrailRepo;
  /** The account the Shipments screen shows; none: an empty trail. */
  activeAccountId(): string | null;
}): Pick<Handlers, 'shipments.trail' | 'shipments.trailCsv'> {
  return {
    'shipments.trail': ({ deliveryId }) => {
      const accountId = deps.activeAccountId();
      return accountId ? deps.trail.ofDelivery(accountId, deliveryId) : [];
    },
    'shipments.trailCsv': ({ from, to, timeZone }) => {
      const accountId = deps.activeAccountId();
      const f = new Date(from);
      const t = new Date(to);
      const steps = accountId ? deps.trail.between(accountId, f, t) : [];
      // Named by the local days it covers: the last is the day before the end (an exclusive midnight).
      const day = (d: Date) => localDateTime(d.toISOString(), timeZone).slice(0, 10);
      return {
        csv: trailCsv(steps, timeZone),
        rows: steps.length,
        fileName: `audit-trail_${day(f)}_${day(new Date(t.getTime() - 1))}.csv`,
      };
    },
  };
}
