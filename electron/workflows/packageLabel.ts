/**
 * One package's label of a multi-package parcel (a lost label of package 2/3). The service cannot
 * be asked for one package: GET /api/v3/deliveries/zpl and /tickets take shipment ids only (spec
 * "GET /api/v3/deliveries/zpl (ZPL labels)", "GET /api/v3/deliveries/tickets (PDF labels)"). A
 * ZPL answer holds one label per package (spec "Label, trace, protocol and place records", ZPL
 * item: `zplCodes`, "one label per package of the shipment"), so the station cuts that package's
 * label out of the shipment's labels, stored at close (or fetched and stored now). A PDF answer is
 * one document for every package of the shipments asked for (the same records: one `contents` per
 * PDF), which the station does not cut: one package's label is refused there.
 */
import type { Shipment } from '../../shared/contract/shipments';
import type { WorkflowError } from '../../shared/contract/workflows';
import { routeFor } from '../printing/routing';
import { packageLabelRef, type NewPrintJob } from '../store/printJobsRepo';
import { fetchLabelJobs } from './labelJobs';

/** What fetching a shipment's labels needs (the session, the labels kept, the routing rules, the clock). */
type LabelCtx = Parameters<typeof fetchLabelJobs>[0];

export type PackageLabelChoice =
  | { ok: true; zpl: string }
  | { ok: false; error: { code: 'package_not_in_parcel' | 'package_label_not_separate'; message: string } };

/**
 * The label of package `n` (1-based) among a shipment's ZPL labels. The label that carries the
 * package's own barcode when exactly one does (the order of the answer then does not matter);
 * else the label in the package's place, the service giving one label per package in order.
 * Labels not one per package cannot be told apart: refused.
 */
export function choosePackageLabel(
  zplCodes: readonly string[],
  packages: readonly { barcode?: string | null }[],
  n: number,
): PackageLabelChoice {
  if (n < 1 || n > packages.length)
    return {
      ok: false,
      error: {
        code: 'package_not_in_parcel',
        message: `The parcel has ${packages.length} packages; there is no package ${n}.`,
      },
    };
  if (zplCodes.length !== packages.length)
    return {
      ok: false,
      error: {
        code: 'package_label_not_separate',
        message: `The parcel has ${packages.length} packages but ${zplCodes.length} labels: one package's label cannot be told apart.`,
      },
    };
  const barcode = packages[n - 1]!.barcode;
  const carrying = barcode ? zplCodes.filter((z) => z.includes(barcode)) : [];
  return { ok: true, zpl: carrying.length === 1 ? carrying[0]! : zplCodes[n - 1]! };
}

const notSeparate = (deliveryId: number): WorkflowError => ({
  code: 'package_label_not_separate',
  message: `The labels of shipment ${deliveryId} come as one PDF for all its packages: one package's label cannot print alone. Reprint all its labels.`,
});

/**
 * The print job of package `n`'s label alone, on the label printer the shipment's carrier is
 * routed to: cut from its stored ZPL labels, fetched (and stored) first when none are kept.
 */
export async function packageLabelJob(
  ctx: LabelCtx,
  shipment: Shipment,
  n: number,
): Promise<{ job: NewPrintJob } | { error: WorkflowError }> {
  const route = routeFor(ctx.rules, shipment.agent ?? '');
  if (!route)
    return {
      error: {
        code: 'no_printer_route',
        message: `No printer is set for carrier ${shipment.agent ?? ''}. Set one under Settings > Printing > Routing.`,
      },
    };
  if (route.format !== 'zpl') return { error: notSeparate(shipment.deliveryId) };
  const storedZpl = () =>
    ctx.labels.allFor(ctx.session.accountId, shipment.deliveryId).find((d) => d.variant.format === 'zpl') ?? null;
  let doc = storedZpl();
  if (!doc) {
    const fetched = await fetchLabelJobs(ctx, [shipment]);
    const failure = fetched.failures[0];
    if (failure) return { error: failure.trouble.error };
    doc = storedZpl();
    // A carrier without ZPL: its labels came as a PDF for the office printer.
    if (!doc) return { error: notSeparate(shipment.deliveryId) };
  }
  const chosen = choosePackageLabel(
    doc.parts.map((p) => p.toString('utf8')),
    shipment.packages,
    n,
  );
  if (!chosen.ok) return { error: chosen.error };
  const size = doc.variant.format === 'zpl' && doc.variant.size !== 'default' ? doc.variant.size : null;
  const barcode = shipment.packages[n - 1]?.barcode;
  const count = shipment.packages.length;
  return {
    job: {
      kind: 'print',
      printerId: route.printerId,
      format: 'zpl',
      payload: Buffer.from(chosen.zpl, 'utf8'),
      labelSize: size,
      labelRef: packageLabelRef(shipment.deliveryId, n, count),
      title: `Shipment ${shipment.deliveryId}, package ${n} of ${count} (1 label)`,
      deliveryIds: [shipment.deliveryId],
      barcodes: barcode ? [barcode] : [],
    },
  };
}
