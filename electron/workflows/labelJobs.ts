/**
 * Labels right after closing: fetched per carrier in the format its route asks for (ZPL in the
 * route's size for ZPL carriers, PDF otherwise; spec "GET /api/v3/deliveries/zpl" and "tickets",
 * one carrier per request), stored so a reprint works offline, and turned into print jobs (every
 * package label). Also the reprint from what is stored.
 */
import type { LabelRoute, RoutingRules } from '../../shared/contract/printing';
import type { Shipment } from '../../shared/contract/shipments';
import { isServiceError } from '../api/index';
import { pdfFallbackRoute, pdfPrintJob, routeFor, zplPrintJobs } from '../printing/routing';
import type { LabelDocument, LabelVariant, LabelsRepo } from '../store/labelsRepo';
import type { NewPrintJob } from '../store/printJobsRepo';
import { groupBy } from '../base/groupBy';
import { nextTurn } from '../base/slices';
import { classifyTrouble, type Trouble } from './serviceTrouble';
import type { WorkflowSession } from './workflowDeps';

export interface LabelJobs {
  /** Print jobs in shipment order (ZPL: one job per shipment holding each package label; PDF: one per carrier request). */
  prints: NewPrintJob[];
  /** Shipments whose labels could not be fetched, and why. */
  failures: { deliveryIds: number[]; trouble: Trouble }[];
}

interface Ctx {
  session: WorkflowSession;
  labels: LabelsRepo;
  rules: RoutingRules;
  now: () => Date;
}

/** Label documents stored per commit. */
const SAVE_SLICE = 100;

const barcodesOf = (s: Shipment) => s.packages.map((p) => p.barcode).filter((b): b is string => !!b);

/** Where a carrier's labels go; a ZPL route for a carrier without ZPL falls back to PDF A4 on the office printer. */
const pdfFallback = pdfFallbackRoute;

function variantOf(route: LabelRoute): LabelVariant {
  if (route.format === 'zpl') return { format: 'zpl', size: route.size ?? 'default' };
  if (route.format === 'pdf-single') return { format: 'pdf', printFormat: 'single' };
  return { format: 'pdf', printFormat: 'default', position: route.position as 1 | 2 | 3 | 4 };
}

const noRoute = (carrier: string): Trouble => ({
  kind: 'answered',
  status: null,
  error: {
    code: 'no_printer_route',
    message: `No printer is set for carrier ${carrier}. Set one under Settings > Printing > Routing.`,
  },
  messages: [],
  deliveryIds: [],
});

async function pdfJobs(
  ctx: Ctx,
  route: Exclude<LabelRoute, { format: 'zpl' }>,
  list: Shipment[],
): Promise<NewPrintJob[]> {
  const v = variantOf(route) as Extract<LabelVariant, { format: 'pdf' }>;
  const batches = await ctx.session.client.getTickets(
    list.map((s) => ({ deliveryId: s.deliveryId, agent: s.agent ?? '' })),
    v.printFormat === 'single' ? { printFormat: 'single' } : { printFormat: 'default', position: v.position },
  );
  return batches.map((b) => {
    ctx.labels.save(
      { accountId: ctx.session.accountId, variant: v, deliveryIds: b.deliveryIds, parts: [b.pdf], created: b.created },
      ctx.now(),
    );
    const barcodes = list.filter((s) => b.deliveryIds.includes(s.deliveryId)).flatMap(barcodesOf);
    return pdfPrintJob(route, b.pdf, b.deliveryIds, barcodes);
  });
}

async function zplJobs(
  ctx: Ctx,
  route: Extract<LabelRoute, { format: 'zpl' }>,
  list: Shipment[],
): Promise<NewPrintJob[]> {
  const items = await ctx.session.client.getZpl(
    list.map((s) => ({ deliveryId: s.deliveryId, agent: s.agent ?? '' })),
    route.size ? { size: route.size } : {},
  );
  const byId = new Map(items.map((i) => [i.deliveryId, i]));
  const ordered = list.flatMap((s) => {
    const item = byId.get(s.deliveryId);
    return item && item.zplCodes.length
      ? [{ deliveryId: s.deliveryId, zplCodes: item.zplCodes, barcodes: barcodesOf(s) }]
      : [];
  });
  // Lazy commits (no disk sync): the labels are kept for a reprint or a restart, and guard no side
  // effect (the print jobs carry their own bytes). In slices, the event loop running between them.
  for (let i = 0; i < ordered.length; i += SAVE_SLICE) {
    // More than one slice: each on a turn of its own, also after the answer's parsing (a single
    // scan's labels go on at once, without a turn on its way to the printer).
    if (ordered.length > SAVE_SLICE) await nextTurn();
    ctx.labels.saveAll(
      ordered.slice(i, i + SAVE_SLICE).map((it) => ({
        accountId: ctx.session.accountId,
        variant: variantOf(route),
        deliveryIds: [it.deliveryId],
        parts: it.zplCodes.map((z) => Buffer.from(z, 'utf8')),
      })),
      ctx.now(),
    );
  }
  if (ordered.length > SAVE_SLICE) await nextTurn();
  return zplPrintJobs(route, ordered, route.size ?? null);
}

/** Fetches, stores and turns into print jobs the labels of closed shipments, one request per carrier. */
export async function fetchLabelJobs(ctx: Ctx, shipments: Shipment[]): Promise<LabelJobs> {
  const out: LabelJobs = { prints: [], failures: [] };
  const byCarrier = groupBy(shipments, (s) => s.agent ?? '');

  for (const [carrier, list] of byCarrier) {
    const ids = list.map((s) => s.deliveryId);
    const route = routeFor(ctx.rules, carrier);
    if (!route) {
      out.failures.push({ deliveryIds: ids, trouble: noRoute(carrier) });
      continue;
    }
    try {
      if (route.format !== 'zpl') {
        out.prints.push(...(await pdfJobs(ctx, route, list)));
        continue;
      }
      try {
        const jobs = await zplJobs(ctx, route, list);
        out.prints.push(...jobs);
        const missing = ids.filter((id) => !jobs.some((j) => j.deliveryIds?.includes(id)));
        if (missing.length)
          out.failures.push({
            deliveryIds: missing,
            trouble: classifyTrouble(new Error('The service returned no ZPL label for these shipments.')),
          });
      } catch (err) {
        // ZPL exists for five carriers only (spec "GET .../zpl": 404 "ZPL label not found"): PDF A4 on the office printer instead.
        const fallback = pdfFallback(ctx.rules);
        if (!(isServiceError(err) && err.status === 404 && fallback && fallback.format !== 'zpl')) throw err;
        out.prints.push(...(await pdfJobs(ctx, fallback, list)));
      }
    } catch (err) {
      out.failures.push({ deliveryIds: ids, trouble: classifyTrouble(err) });
    }
  }
  return out;
}

/**
 * Print jobs for a reprint from stored labels, when the stored document fits the current route:
 * ZPL of the shipment for a ZPL route; a PDF of the same variant covering only this shipment for a
 * PDF route. Null: fetch them again (online).
 */
export function storedLabelJobs(
  labels: LabelsRepo,
  rules: RoutingRules,
  accountId: string,
  shipment: Shipment,
): NewPrintJob[] | null {
  const route = routeFor(rules, shipment.agent ?? '');
  const docs = labels.allFor(accountId, shipment.deliveryId);
  if (!route) return null;
  const fits = (d: LabelDocument) =>
    route.format === 'zpl'
      ? d.variant.format === 'zpl'
      : d.variant.format === 'pdf' &&
        d.deliveryIds.length === 1 &&
        JSON.stringify(d.variant) === JSON.stringify(variantOf(route));
  const doc = docs.find(fits);
  if (!doc) {
    // A ZPL route for a carrier without ZPL: its labels were stored as PDF for the office printer.
    const fallback = pdfFallback(rules);
    const pdf =
      route.format === 'zpl' && fallback
        ? docs.find((d) => d.variant.format === 'pdf' && d.deliveryIds.length === 1)
        : undefined;
    return pdf && fallback && fallback.format !== 'zpl'
      ? [pdfPrintJob(fallback, pdf.parts[0]!, pdf.deliveryIds, barcodesOf(shipment))]
      : null;
  }
  if (doc.variant.format === 'zpl' && route.format === 'zpl') {
    const size = doc.variant.size === 'default' ? null : doc.variant.size;
    return zplPrintJobs(
      route,
      [
        {
          deliveryId: shipment.deliveryId,
          zplCodes: doc.parts.map((p) => p.toString('utf8')),
          barcodes: barcodesOf(shipment),
        },
      ],
      size,
    );
  }
  if (route.format !== 'zpl') return [pdfPrintJob(route, doc.parts[0]!, doc.deliveryIds, barcodesOf(shipment))];
  return null;
}

/** Whether this station holds labels of the shipment (it closed or fetched them here). */
export const hasStoredLabels = (labels: LabelsRepo, accountId: string, deliveryId: number) =>
  labels.allFor(accountId, deliveryId).length > 0;
