/**
 * What the Shipments and Tracking screens do to shipments the worker picked:
 * close (grouped by carrier + collection place, spec "PATCH /api/v3/deliveries"), print labels in a
 * chosen format (spec "GET /api/v3/deliveries/tickets" and ".../zpl"), reprint the stored labels,
 * cancel (spec "DELETE /api/v3/deliveries") and read the traces (spec ".../traces").
 *
 * Every action answers per shipment what happened and why: a refusal is a value with a code and
 * the service's own messages, never a failed call for the whole selection.
 */
import { z } from 'zod';
import { printerId } from './printing';
import { packageNumber, reprintWhy } from './reprint';

/** The shipments picked on a screen; the service's limits are met by the core (it splits). */
export const selectedDeliveryIds = z
  .array(z.number().int().positive())
  .min(1, 'select at least one shipment')
  .max(1000);

export const actionError = z.object({
  code: z.string(),
  message: z.string(),
  /** The service's own messages (per shipment when it named one), e.g. the carrier's refusal. */
  messages: z.array(z.string()),
});
export type ActionError = z.infer<typeof actionError>;

/**
 * How far the labels got: out of the printer, handed to the computer's print system (which does
 * not say they printed: CUPS, the Windows spooler), waiting in the queue, stuck at a printer
 * (waiting for it: offline, out of labels), or none made.
 */
export const actionPrint = z.enum(['printed', 'spooled', 'queued', 'printer_down', 'none']);
export type ActionPrint = z.infer<typeof actionPrint>;

export const shipmentActionResult = z.object({
  deliveryId: z.number().int(),
  /** done: the action happened; failed: it was tried and refused/failed; skipped: not tried (wrong state, not in the cache). */
  outcome: z.enum(['done', 'failed', 'skipped']),
  print: actionPrint,
  jobIds: z.array(z.number().int()),
  /** The shipment's state after the action (spec "States and transitions"), when known. */
  state: z.number().int().nullable(),
  error: actionError.nullable(),
});
export type ShipmentActionResult = z.infer<typeof shipmentActionResult>;

export const shipmentActionSummary = z.object({
  results: z.array(shipmentActionResult),
  done: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type ShipmentActionSummary = z.infer<typeof shipmentActionSummary>;

/** Label formats the worker can ask for: ZPL, PDF roll (`printFormat=single`), PDF A4 (`default` + start position). */
export const labelFormat = z.enum(['zpl', 'pdf-roll', 'pdf-a4']);
export type LabelFormat = z.infer<typeof labelFormat>;

export const printLabelsParams = z
  .object({
    deliveryIds: selectedDeliveryIds,
    format: labelFormat,
    /** Start position of the first label on the A4 sheet, 1 2 / 3 4 (spec "Limits": 1-4; A4 only). */
    position: z.number().int().min(1).max(4).optional(),
    /** The printer to use; default: the carrier's routed printer when it takes the format, else the office printer for PDF. */
    printerId: printerId.optional(),
  })
  .strict()
  .refine((p) => p.position === undefined || p.format === 'pdf-a4', {
    message: 'a start position applies to PDF A4 only',
    path: ['position'],
  });
export type PrintLabelsParams = z.input<typeof printLabelsParams>;

export const traceEntry = z.object({ date: z.string(), text: z.string() });

export const shipmentTraces = z.object({
  deliveryId: z.number().int(),
  deliveryNumber: z.string().nullable(),
  agent: z.string().nullable(),
  /** The cached state, refreshed from the service with the traces when it could be. */
  state: z.number().int().nullable(),
  /** When the service last asked the carrier (null before its first check). */
  lastChecked: z.string().nullable(),
  /** Newest last, as the service lists them. */
  traces: z.array(traceEntry),
  error: actionError.nullable(),
});
export type ShipmentTraces = z.infer<typeof shipmentTraces>;

const ids = z.object({ deliveryIds: selectedDeliveryIds }).strict();

export const shipmentActionMethods = {
  /** Closes the prepared ones (one request per carrier + collection place) and prints their labels as routed. */
  'shipments.close': { work: true, params: ids, result: shipmentActionSummary },
  /** Fetches labels of closed shipments in the chosen format (one carrier per request) and prints them. */
  'shipments.printLabels': { work: true, params: printLabelsParams, result: shipmentActionSummary },
  /**
   * Prints the labels stored when the shipment was closed (fetched again when none fit the route);
   * with `packageNumber`, that package's label alone, of the one shipment selected.
   */
  'shipments.reprint': {
    work: true,
    params: z
      .object({ deliveryIds: selectedDeliveryIds, why: reprintWhy, packageNumber: packageNumber.optional() })
      .strict()
      .refine((p) => p.packageNumber === undefined || p.deliveryIds.length === 1, {
        message: 'One package is reprinted of one shipment at a time.',
        path: ['packageNumber'],
      }),
    result: shipmentActionSummary,
  },
  /** Cancels prepared shipments at the service and in the cache. */
  'shipments.cancel': { work: true, params: ids, result: shipmentActionSummary },
  /** The service's traces of the shipments, asked now. */
  'tracking.traces': { params: ids, result: z.array(shipmentTraces) },
};
