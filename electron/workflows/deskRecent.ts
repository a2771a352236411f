/**
 * The Station screen's recent scans and last labels, read from the journal, the scan log and the
 * print queue: a page that loads (a reload, a second window on the web host)
 * shows what the page before it showed, and a label cancelled in the queue is neither "waiting"
 * nor among the last labels. The page keeps them by the `scan.outcome` events after that.
 */
import { RECENT_LABELS, RECENT_SCANS, type DeskRecent, type RecentScan } from '../../shared/contract/workflows';
import { replacedByReprint, waitsForPrinter, type JobView } from '../../shared/contract/printing';
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
function queuedKind(all: JobView[]): { kind: Kind; waits: boolean } {
  const copies = all.filter((j) => !replacedByReprint(j));
  const jobs = copies.length ? copies : all;
  if (jobs.length && jobs.every((j) => j.state === 'done' || j.state === 'spooled'))
    return { kind: jobs.some((j) => j.state === 'spooled') ? 'spooled' : 'printed', waits: false };
  if (jobs.some((j) => j.state === 'cancelled' && !replacedByReprint(j)))
    return { kind: 'print_cancelled', waits: false };
  if (
    jobs.some((j) => waitsForPrinter(j) || j.state === 'failed' || j.state === 'uncertain' || j.state === 'unconfirmed')
  )
    return { kind: 'printer_down', waits: true };
  return { kind: 'queued', waits: jobs.some((j) => j.state === 'queued') };
}

export function deskRecent(deps: Pick<WorkflowDeps, 'session' | 'repos' | 'queue'>): DeskRecent {
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
    // Held at the weight check: the scan log says skipped; the journal's reason tells them apart.
    let kind = e.reasonCode === 'weight_held' ? 'held' : finalKind[e.logOutcome];
    let waits = false;
    if (!kind) {
      if (e.step === 'queued')
        ({ kind, waits } = queuedKind(e.jobIds.map(job).filter((j): j is JobView => j !== null)));
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
