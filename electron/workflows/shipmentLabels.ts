/**
 * Closing shipments and printing their labels from the Shipments screen (./shipmentActions.ts):
 * every one goes through the one close-and-print state machine, routed as the worker chose.
 */
import type { LabelRoute, RoutingRules } from '../../shared/contract/printing';
import type {
  LabelFormat,
  PrintLabelsParams,
  ShipmentActionResult,
  ShipmentActionSummary,
} from '../../shared/contract/shipmentActions';
import { isClosedState, shipmentStates, type Shipment } from '../../shared/contract/shipments';
import type { ReprintWhy } from '../../shared/contract/reprint';
import { routeFor } from '../printing/routing';
import { StationError } from '../base/stationError';
import { load, resultOf, runEntries, session, type ActionContext } from './shipmentActionContext';
import { err, failed, notClosed, order, skipped, summarise, takesZpl } from './shipmentActionResults';
import { labelsInPrinter, type WorkflowSession } from './workflowDeps';

/** Spec "PATCH /api/v3/deliveries": closes per carrier + collection place, then prints per routing. */
export async function closeShipments(ctx: ActionContext, ids: number[]): Promise<ShipmentActionSummary> {
  const s = session(ctx);
  const { found, missing } = load(ctx, s, ids);
  const out = [...missing];
  const ready: Shipment[] = [];
  for (const sh of found) {
    if (sh.state === shipmentStates.prepared) ready.push(sh);
    else if (sh.state === shipmentStates.cancelled)
      out.push(
        skipped(
          sh.deliveryId,
          sh.state,
          err('cancelled', `Shipment ${sh.deliveryId} is cancelled and cannot be closed.`),
        ),
      );
    else
      out.push(
        skipped(
          sh.deliveryId,
          sh.state,
          err('already_closed', `Shipment ${sh.deliveryId} is already closed. Reprint its labels instead.`),
        ),
      );
  }
  out.push(
    ...(await runEntries(
      ctx,
      s,
      ready.map((shipment) => ({ shipment, route: null })),
      'close_and_print',
    )),
  );
  return summarise(order(ids, out));
}

/** Spec "GET /api/v3/deliveries/tickets" (printFormat, position) and ".../zpl": one carrier per request. */
export async function printShipmentLabels(ctx: ActionContext, p: PrintLabelsParams): Promise<ShipmentActionSummary> {
  const s = session(ctx);
  if (p.printerId) checkChosenPrinter(ctx, p.printerId, p.format);
  const { found, missing } = load(ctx, s, p.deliveryIds);
  const out = [...missing];
  const closed = found.filter((sh) => isClosedState(sh.state));
  for (const sh of found) if (!isClosedState(sh.state)) out.push(skipped(sh.deliveryId, sh.state, notClosed(sh)));

  const rules = ctx.deps.routes();
  const chosen: RoutingRules = { carriers: {}, defaultRoute: null, protocolPrinterId: rules.protocolPrinterId };
  const printable: { shipment: Shipment; route: LabelRoute }[] = [];
  for (const sh of closed) {
    const carrier = sh.agent ?? '';
    const route = chosen.carriers[carrier] ?? chosenRoute(ctx, rules, carrier, p.format, p.position ?? 1, p.printerId);
    if (!route) {
      out.push(
        failed(
          sh.deliveryId,
          sh.state,
          err(
            'no_printer',
            `No printer on this station takes ${p.format === 'zpl' ? 'ZPL' : 'PDF'} labels. Add one under Settings → Printers.`,
          ),
        ),
      );
      continue;
    }
    chosen.carriers[carrier] = route;
    printable.push({ shipment: sh, route });
  }
  out.push(...(await runEntries(ctx, s, printable, 'print')));
  return summarise(order(p.deliveryIds, out));
}

/** The printer the worker picked must be set up here and take the format asked for. */
function checkChosenPrinter(ctx: ActionContext, printerId: string, format: LabelFormat): void {
  const printer = ctx.o.printers().find((x) => x.id === printerId);
  if (!printer)
    throw new StationError('printer_not_found', `No printer "${printerId}" is set up on this station.`, {
      printerId,
    });
  if (takesZpl(printer) !== (format === 'zpl')) {
    throw new StationError(
      'printer_format_mismatch',
      `The printer ${printer.name} cannot print ${format === 'zpl' ? 'ZPL' : 'PDF'} labels. Pick another printer or format.`,
      { printer: printer.name, format: format === 'zpl' ? 'ZPL' : 'PDF' },
    );
  }
}

/** The route a carrier's labels take for a format the worker chose (the routed printer when it fits). */
function chosenRoute(
  ctx: ActionContext,
  rules: RoutingRules,
  carrier: string,
  format: LabelFormat,
  position: number,
  printerId: string | undefined,
): LabelRoute | null {
  const routed = routeFor(rules, carrier);
  const printers = ctx.o.printers();
  const fits = (id: string | null | undefined, zpl: boolean) =>
    !!id && printers.some((p) => p.id === id && takesZpl(p) === zpl);
  if (format === 'zpl') {
    const id =
      printerId ??
      (routed?.format === 'zpl' && fits(routed.printerId, true) ? routed.printerId : printers.find(takesZpl)?.id);
    if (!id) return null;
    return {
      format: 'zpl',
      printerId: id,
      ...(routed?.format === 'zpl' && routed.size ? { size: routed.size } : {}),
    };
  }
  const wanted = format === 'pdf-roll' ? 'pdf-single' : 'pdf-a4';
  const id =
    printerId ??
    (routed?.format === wanted && fits(routed.printerId, false)
      ? routed.printerId
      : fits(rules.protocolPrinterId, false)
        ? rules.protocolPrinterId
        : printers.find((p) => !takesZpl(p))?.id);
  if (!id) return null;
  return format === 'pdf-roll'
    ? { format: 'pdf-single', printerId: id }
    : { format: 'pdf-a4', printerId: id, position };
}

/**
 * The labels stored when the shipment was closed, as routed now; fetched again when none fit.
 * With `packageNumber` (one shipment selected), that package's label alone (./packageReprint.ts).
 */
export async function reprintShipments(
  ctx: ActionContext,
  ids: number[],
  why: ReprintWhy,
  packageNumber?: number,
): Promise<ShipmentActionSummary> {
  const s = session(ctx);
  const { found, missing } = load(ctx, s, ids);
  const out = [...missing];
  if (packageNumber !== undefined) {
    for (const sh of found) out.push(await reprintOnePackage(ctx, s, sh, packageNumber, why));
    return summarise(order(ids, out));
  }
  const closed: Shipment[] = [];
  for (const sh of found) {
    const busy = isClosedState(sh.state) ? labelsInPrinter(ctx.deps, s.accountId, sh.deliveryId) : null;
    if (busy) out.push(skipped(sh.deliveryId, sh.state, { ...busy, messages: [] }));
    else if (isClosedState(sh.state)) closed.push(sh);
    else out.push(skipped(sh.deliveryId, sh.state, notClosed(sh)));
  }
  out.push(
    ...(await runEntries(
      ctx,
      s,
      closed.map((shipment) => ({ shipment, route: null })),
      'print',
      why,
    )),
  );
  return summarise(order(ids, out));
}

async function reprintOnePackage(
  ctx: ActionContext,
  s: WorkflowSession,
  sh: Shipment,
  packageNumber: number,
  why: ReprintWhy,
): Promise<ShipmentActionResult> {
  if (!isClosedState(sh.state)) return skipped(sh.deliveryId, sh.state, notClosed(sh));
  const r = await ctx.reprintPackage({ session: s, shipment: sh, packageNumber, why });
  if (r.kind === 'refused') return skipped(sh.deliveryId, sh.state, { ...r.error, messages: [] });
  return resultOf(ctx, s, sh, { kind: 'queued', shipment: sh, jobs: [r.job] });
}
