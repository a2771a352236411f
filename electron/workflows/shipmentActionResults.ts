/**
 * The per-shipment answers of the Shipments and Tracking screens' actions (./shipmentActions.ts):
 * done, failed (with the service's messages) or skipped (why), in the order the worker selected.
 */
import type { PrinterView } from '../../shared/contract/printing';
import type { ActionError, ShipmentActionResult, ShipmentActionSummary } from '../../shared/contract/shipmentActions';
import { shipmentStates, type Shipment } from '../../shared/contract/shipments';
import type { Trouble } from './serviceTrouble';

export const errorOf = (t: Trouble): ActionError => ({
  code: t.error.code,
  message: t.error.message,
  messages: t.kind === 'answered' ? t.messages : [],
});
export const err = (code: string, message: string, messages: string[] = []): ActionError => ({
  code,
  message,
  messages,
});

export const takesZpl = (p: PrinterView) =>
  ['zpl-tcp', 'zpl-usb', 'zpl-spooler', 'virtual-zpl'].includes(p.connection.kind);

export function summarise(results: ShipmentActionResult[]): ShipmentActionSummary {
  const count = (o: ShipmentActionResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return { results, done: count('done'), failed: count('failed'), skipped: count('skipped') };
}

/** Results in the order the worker selected the shipments. */
export function order(ids: number[], results: ShipmentActionResult[]): ShipmentActionResult[] {
  const pos = new Map<number, number>();
  ids.forEach((id, i) => (pos.has(id) ? undefined : pos.set(id, i)));
  return [...results].sort((a, b) => (pos.get(a.deliveryId) ?? 0) - (pos.get(b.deliveryId) ?? 0));
}

/** Why a shipment in this state cannot have labels or traces (spec "States and transitions" rule 2). */
export function notClosed(s: Shipment): ActionError {
  return s.state === shipmentStates.cancelled
    ? err('cancelled', `Shipment ${s.deliveryId} is cancelled: it has no labels or traces.`)
    : err(
        'not_closed',
        `Shipment ${s.deliveryId} is not closed yet: labels and traces exist only for closed shipments. Close it first.`,
      );
}

export function skipped(deliveryId: number, state: number | null, error: ActionError): ShipmentActionResult {
  return { deliveryId, outcome: 'skipped', print: 'none', jobIds: [], state, error };
}
export function failed(deliveryId: number, state: number | null, error: ActionError): ShipmentActionResult {
  return { deliveryId, outcome: 'failed', print: 'none', jobIds: [], state, error };
}
