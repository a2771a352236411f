/**
 * A scan's outcome as the scan log keeps it: one scan-log outcome per kind the worker sees, the
 * message kept with it, and the shipment as the Station screen shows it.
 */
import type { ScanOutcome as LogOutcome, Shipment } from '../../../shared/contract/shipments';
import { toSummary } from '../../store/shipmentsRepo';
import type { ClosedShipmentInfo, ScanOutcome } from '../schemas';
import type { WorkflowDeps } from '../workflowDeps';

const logOutcome: Record<ScanOutcome['kind'], LogOutcome> = {
  printed: 'printed',
  spooled: 'spooled',
  queued: 'queued',
  printer_down: 'queued',
  print_cancelled: 'print_cancelled',
  already_closed: 'already_closed',
  // The scan is still open while the worker is asked; held: nothing was done with the parcel.
  weight_check: 'pending',
  held: 'skipped',
  on_shelf: 'skipped',
  cancelled: 'cancelled',
  not_found: 'not_found',
  ambiguous: 'ambiguous',
  carrier_rejected: 'rejected',
  service_unreachable: 'queued',
  skipped: 'skipped',
  login_required: 'error',
  error: 'error',
};

function messageOf(o: ScanOutcome): string | null {
  switch (o.kind) {
    case 'not_found':
    case 'login_required':
    case 'carrier_rejected':
      return [o.message, ...(o.kind === 'carrier_rejected' ? o.messages : [])].join(' | ');
    case 'service_unreachable':
    case 'printer_down':
      return o.reason.message;
    case 'queued':
      return o.reason?.message ?? null;
    case 'error':
      return o.error.message;
    default:
      return null;
  }
}

export function shipmentInfo(s: Shipment): ClosedShipmentInfo {
  return {
    deliveryId: s.deliveryId,
    carrier: s.agent ?? '',
    recipientName: toSummary(s).recipientName,
    packageCount: s.packages.length,
    deliveryNumber: s.deliveryNumber,
    barcodes: s.packages.map((p) => p.barcode).filter((b): b is string => !!b),
  };
}

/** Records an outcome in the scan log, then tells whoever listens (`scan.outcome`). */
export function createOutcomeLog(deps: Pick<WorkflowDeps, 'repos'>, onOutcome?: (o: ScanOutcome) => void) {
  return function finish(o: ScanOutcome): ScanOutcome {
    const deliveryId = 'shipment' in o ? o.shipment.deliveryId : 'deliveryId' in o ? o.deliveryId : undefined;
    const outcome = o.kind === 'printed' && o.reprint ? 'reprinted' : logOutcome[o.kind];
    deps.repos.scanLog.update(o.scanId, {
      outcome,
      message: messageOf(o),
      ...(deliveryId !== undefined ? { deliveryId } : {}),
    });
    onOutcome?.(o);
    return o;
  };
}

export type FinishOutcome = ReturnType<typeof createOutcomeLog>;
