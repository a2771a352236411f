/**
 * A sheet the station made itself (the demo pick list, the command sheet) sent to the office printer
 * the routing names for collection protocols: A4 paper is there, not in the label printer.
 */
import { StationError } from '../base/stationError';
import type { WorkflowDeps } from './workflowDeps';

export function printOnOfficePrinter(
  deps: Pick<WorkflowDeps, 'routes' | 'queue'>,
  sheet: { pdf: Buffer; labelRef: string; title: string },
): { jobId: number } {
  const printerId = deps.routes().protocolPrinterId;
  if (!printerId)
    throw new StationError(
      'no_office_printer',
      'No office printer is set. Choose one for collection protocols under Settings → Printing → Routing.',
    );
  const job = deps.queue.enqueue({
    kind: 'print',
    printerId,
    format: 'pdf',
    payload: sheet.pdf,
    labelRef: sheet.labelRef,
    title: sheet.title,
  });
  return { jobId: job.id };
}
