/**
 * The Station screen's recent scans and last labels, read from the journal, the scan log and the
 * print queue: a page that loads (a reload, a second window on the web host)
 * shows what the page before it showed, and a label cancelled in the queue is neither "waiting"
 * nor among the last labels. The page keeps them by the `scan.outcome` events after that.
 */
import { RECENT_LABELS, RECENT_SCANS, type DeskRecent, type RecentScan } from '../../shared/contract/workflows';
import type { JobView } from '../../shared/contract/printing';
import type { WorkflowError } from './schemas';
import { labelsNow, scanOutcomeNow, type LabelsOutcome } from './scan/scanOutcomeNow';
import { shipmentInfo } from './scan/outcomes';
import type { LatestScan } from '../store/journalRepo';
import { toSummary } from '../store/shipmentsRepo';
import type { WorkflowDeps } from './workflowDeps';

type Kind = RecentScan['kind'];

/** The scan log's final outcomes as the screen names them. */
const finalKind: Partial<Record<LatestScan['logOutcome'], Kind>> = {
  printed: 'printed',
  closed: 'printed',
  reprinted: 'printed',
  spooled: 'spooled',
  print_cancelled: 'print_cancelled',
  already_closed: 'already_closed',
  skipped: 'skipped',
  cancelled: 'cancelled',
  not_found: 'not_found',
  ambiguous: 'ambiguous',
  rejected: 'carrier_rejected',
  error: 'error',
};

/** A scan whose labels are queued: what its jobs say now (the scan log says "queued" until they finish). */
function queuedKind(all: JobView[], queuedWhy: (j: JobView) => WorkflowError | null): { kind: Kind; waits: boolean } {
  const now = labelsNow(all, queuedWhy);
  return now ? { kind: now.kind, waits: now.waits } : { kind: 'queued', waits: false };
}

export function deskRecent(deps: Pick<WorkflowDeps, 'session' | 'repos' | 'queue' | 'jobs'>): DeskRecent {
  // Why a queued job is not at its printer yet: the same reason the lane and its later records give.
  const queuedWhy = (j: JobView): WorkflowError | null => deps.jobs.waitReason(j);
  const accountId = deps.session()?.accountId;
  if (!accountId) return { scans: [], labels: [] };
  const shipment = (deliveryId: number | null) =>
    deliveryId === null ? null : deps.repos.shipments.get(accountId, deliveryId);
  const job = (id: number): JobView | null => {
    try {
      return deps.queue.get(id);
    } catch {
      return null;
    }
  };
  const scans: RecentScan[] = [];
  for (const e of deps.repos.journal.latestScans(accountId, RECENT_SCANS)) {
    // Held (at the weight check, put on the problem shelf) or found on the shelf: the scan log says
    // skipped; the journal's reason tells them apart.
    let kind =
      e.reasonCode === 'weight_held' || e.reasonCode === 'parcel_held'
        ? 'held'
        : e.reasonCode === 'on_shelf'
          ? 'on_shelf'
          : finalKind[e.logOutcome];
    let waits = false;
    if (!kind) {
      if (e.step === 'queued')
        ({ kind, waits } = queuedKind(
          e.jobIds.map(job).filter((j): j is JobView => j !== null),
          queuedWhy,
        ));
      else if (e.step !== 'ended' && e.reasonCode) kind = 'service_unreachable';
      // In work right now: the line of scans shows it, and its outcome comes as an event.
      else continue;
    }
    const s = shipment(e.deliveryId);
    scans.push({
      scanId: e.scanId,
      code: e.code,
      kind,
      reprint: e.logOutcome === 'reprinted',
      waits,
      carrier: s?.agent ?? null,
      recipientName: s ? toSummary(s).recipientName : null,
      jobIds: e.jobIds,
    });
  }
  const labels = deps.repos.journal
    .latestLabels(accountId, RECENT_LABELS)
    .map((l) => ({ jobId: l.jobId, carrier: shipment(l.deliveryId)?.agent ?? '' }));
  return { scans, labels };
}

/**
 * The recent scans whose labels still wait (queued, or for their printer), as records of their
 * outcome now: what a new core (after a restart) follows further (outcomeFollower.adopt).
 */
export function waitingOutcomes(
  deps: Pick<WorkflowDeps, 'session' | 'repos' | 'queue' | 'jobs' | 'routes'>,
): LabelsOutcome[] {
  const accountId = deps.session()?.accountId;
  if (!accountId) return [];
  const usual = deps.routes().defaultRoute?.printerId ?? null;
  const out: LabelsOutcome[] = [];
  for (const e of deps.repos.journal.latestScans(accountId, RECENT_SCANS)) {
    if (e.step !== 'queued' || finalKind[e.logOutcome] || e.deliveryId === null) continue;
    const s = deps.repos.shipments.get(accountId, e.deliveryId);
    const jobs = e.jobIds.flatMap((id) => {
      try {
        return [deps.queue.get(id)];
      } catch {
        return [];
      }
    });
    const now = labelsNow(jobs, (j) => deps.jobs.waitReason(j), usual);
    if (!s || !now?.waits) continue;
    const base: LabelsOutcome = {
      scanId: e.scanId,
      code: e.code,
      kind: 'queued',
      shipment: shipmentInfo(s),
      jobIds: e.jobIds,
      reprint: e.logOutcome === 'reprinted',
      reason: null,
    };
    out.push(scanOutcomeNow(base, now));
  }
  return out;
}
