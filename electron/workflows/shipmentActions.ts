/**
 * What the Shipments and Tracking screens do to the shipments a worker selected (contract
 * shared/contract/shipmentActions.ts). Every action checks the cached state first
 * (the service refuses closed or cancelled shipments for close/cancel and unclosed ones for
 * labels/traces: spec "States and transitions" rules 1-2), asks the service only for what can
 * work, and answers per shipment: done, failed (with the service's messages) or skipped (why).
 */
import type { PrinterView } from '../../shared/contract/printing';
import type { PrintLabelsParams } from '../../shared/contract/shipmentActions';
import type { ReprintWhy } from '../../shared/contract/reprint';
import type { Handlers } from '../rpc/rpcServer';
import { createCloseAndPrint } from './closeAndPrint';
import { createPackageReprint } from './packageReprint';
import type { ActionContext } from './shipmentActionContext';
import { cancelShipments } from './shipmentCancel';
import { closeShipments, printShipmentLabels, reprintShipments } from './shipmentLabels';
import { traceShipments } from './shipmentTraces';
import type { WorkflowDeps } from './workflowDeps';

export interface ShipmentActionsDeps {
  deps: WorkflowDeps;
  /** Printers set up on the station, with their kinds (printLabels picks one that takes the format). */
  printers(): PrinterView[];
  /** Marks shipments cancelled in the cache (the shipments domain's recordCancelled: DELETE answers no data). */
  recordCancelled(accountId: string, deliveryIds: number[]): void;
  /** How long an action waits for its labels to leave the printer before it reports them queued (default 10 s). */
  printWaitMs?: number;
}

type ShipmentActionHandlers = Pick<
  Handlers,
  'shipments.close' | 'shipments.printLabels' | 'shipments.reprint' | 'shipments.cancel' | 'tracking.traces'
>;

export function createShipmentActions(o: ShipmentActionsDeps) {
  const { deps } = o;
  const ctx: ActionContext = {
    deps,
    o,
    printWaitMs: o.printWaitMs ?? 10_000,
    engine: createCloseAndPrint(deps),
    reprintPackage: createPackageReprint(deps),
    now: () => deps.clock.now(),
  };
  const close = (ids: number[]) => closeShipments(ctx, ids);
  const printLabels = (p: PrintLabelsParams) => printShipmentLabels(ctx, p);
  const reprint = (ids: number[], why: ReprintWhy, packageNumber?: number) =>
    reprintShipments(ctx, ids, why, packageNumber);
  const cancel = (ids: number[]) => cancelShipments(ctx, ids);
  const traces = (ids: number[]) => traceShipments(ctx, ids);

  const handlers: ShipmentActionHandlers = {
    'shipments.close': ({ deliveryIds }) => close(deliveryIds),
    'shipments.printLabels': (p) => printLabels(p),
    'shipments.reprint': ({ deliveryIds, why, packageNumber }) => reprint(deliveryIds, why, packageNumber),
    'shipments.cancel': ({ deliveryIds }) => cancel(deliveryIds),
    'tracking.traces': ({ deliveryIds }) => traces(deliveryIds),
  };
  return { handlers, close, printLabels, reprint, cancel, traces };
}

export type ShipmentActions = ReturnType<typeof createShipmentActions>;
