/** The audit trail's contract methods (shared/contract/audit.ts): one parcel's trail, a range as CSV. */
import { nextTurn } from '../base/slices';
import type { Handlers } from '../rpc/rpcServer';
import type { TrailStep } from '../../shared/contract/audit';
import type { AuditTrailRepo } from '../store/auditTrailRepo';
import { localDateTime, trailCsv } from './trailCsv';

const DAY_MS = 86_400_000;

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
    'shipments.trailCsv': async ({ from, to, timeZone, language }) => {
      const accountId = deps.activeAccountId();
      const f = new Date(from);
      const t = new Date(to);
      // A day at a time, the event loop running between days: a month of a busy desk is read while scans go on.
      const steps: TrailStep[] = [];
      for (let day = f; accountId && day < t; day = new Date(day.getTime() + DAY_MS)) {
        const end = new Date(Math.min(day.getTime() + DAY_MS, t.getTime()));
        steps.push(...deps.trail.between(accountId, day, end));
        await nextTurn();
      }
      // Named by the local days it covers: the last is the day before the end (an exclusive midnight).
      const day = (d: Date) => localDateTime(d.toISOString(), timeZone).slice(0, 10);
      return {
        csv: trailCsv(steps, timeZone, language),
        rows: steps.length,
        fileName: `audit-trail_${day(f)}_${day(new Date(t.getTime() - 1))}.csv`,
      };
    },
  };
}
