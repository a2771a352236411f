/**
 * The labels of a print and their print jobs, decided in one place (labelJobsFor): each carrier's
 * route decided once (electron/printing/routing.ts), then stored labels that fit the route (a
 * reprint, a restart after they were kept), else labels fetched per carrier in the format the
 * route asks for (ZPL in the route's size for ZPL carriers, PDF otherwise; spec "GET
 * /api/v3/deliveries/zpl" and "tickets", one carrier per request) and stored so a reprint works
 * offline; then the print jobs on the route's printer (every package label).
 */
import type { LabelRoute, RoutingRules } from '../../shared/contract/printing';
import type { Shipment } from '../../shared/contract/shipments';
import { isServiceError } from '../api/index';
import { routeLabels, type LabelRouting } from '../printing/routing';
import type { LabelDocument, LabelVariant, LabelsRepo } from '../store/labelsRepo';
import type { NewPrintJob } from '../store/printJobsRepo';
import { groupBy } from '../base/groupBy';
import { nextTurn, READS_PER_TURN } from '../base/slices';
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
  now: () => Date;
}

/** The routes of a print, by carrier. */
type Routes = Map<string, LabelRouting>;

/** Label documents stored per commit. */
const SAVE_SLICE = 100;

const barcodesOf = (s: Shipment) => s.packages.map((p) => p.barcode).filter((b): b is string => !!b);

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
async function fetchJobs(ctx: Ctx, routes: Routes, shipments: Shipment[]): Promise<LabelJobs> {
  const out: LabelJobs = { prints: [], failures: [] };
  const byCarrier = groupBy(shipments, (s) => s.agent ?? '');

  for (const [carrier, list] of byCarrier) {
    const ids = list.map((s) => s.deliveryId);
    const { route, fallback } = routes.get(carrier)!;
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
        if (!(isServiceError(err) && err.status === 404 && fallback)) throw err;
        out.prints.push(...(await pdfJobs(ctx, fallback, list)));
      }
    } catch (err) {
      out.failures.push({ deliveryIds: ids, trouble: classifyTrouble(err) });
    }
  }
  return out;
}

/**
 * Print jobs from stored labels, when the stored document fits the current route: ZPL of the
 * shipment for a ZPL route; a PDF of the same variant covering only this shipment for a PDF route.
 * Null: fetch them again (online).
 */
function storedJobs(
  labels: LabelsRepo,
  { route, fallback }: LabelRouting,
  accountId: string,
  shipment: Shipment,
): NewPrintJob[] | null {
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
    const pdf =
      route.format === 'zpl' && fallback
        ? docs.find((d) => d.variant.format === 'pdf' && d.deliveryIds.length === 1)
        : undefined;
    return pdf && fallback ? [pdfPrintJob(fallback, pdf.parts[0]!, pdf.deliveryIds, barcodesOf(shipment))] : null;
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

/**
 * The print jobs of one print of closed shipments, by key (a journal entry): each carrier's route
 * decided once (`chosen`: the route the worker chose, else the station's rules), stored labels
 * that fit by key, the others' fetched (one request per carrier; a PDF job may hold several).
 */
export async function labelJobsFor(
  ctx: Ctx & { rules: RoutingRules; chosen: LabelRoute | null },
  items: { key: number; shipment: Shipment | undefined }[],
): Promise<{ stored: Map<number, NewPrintJob[]>; fetched: LabelJobs }> {
  const carriers = [...new Set(items.flatMap((it) => (it.shipment ? [it.shipment.agent ?? ''] : [])))];
  const routes = routeLabels(ctx.rules, carriers, ctx.chosen);
  const stored = new Map<number, NewPrintJob[]>();
  const toFetch: Shipment[] = [];
  for (const [i, { key, shipment: s }] of items.entries()) {
    if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
    if (!s) continue;
    const jobs = storedJobs(ctx.labels, routes.get(s.agent ?? '')!, ctx.session.accountId, s);
    if (jobs) stored.set(key, jobs);
    else toFetch.push(s);
  }
  const fetched = toFetch.length ? await fetchJobs(ctx, routes, toFetch) : { prints: [], failures: [] };
  return { stored, fetched };
}

/** The labels of shipments fetched, stored and made print jobs under the station's rules (the reprint question). */
export const fetchLabelJobs = (ctx: Ctx & { rules: RoutingRules }, shipments: Shipment[]): Promise<LabelJobs> =>
  fetchJobs(
    ctx,
    routeLabels(
      ctx.rules,
      shipments.map((s) => s.agent ?? ''),
      null,
    ),
    shipments,
  );

/** Print jobs from a shipment's stored labels under the station's rules, or null (the reprint question). */
export const storedLabelJobs = (labels: LabelsRepo, rules: RoutingRules, accountId: string, shipment: Shipment) =>
  storedJobs(labels, routeLabels(rules, [shipment.agent ?? ''], null).get(shipment.agent ?? '')!, accountId, shipment);

/** One print job per shipment holding every package label, in package order. */
export function zplPrintJobs(
  route: Extract<LabelRoute, { format: 'zpl' }>,
  items: { deliveryId: number; zplCodes: string[]; barcodes?: string[] }[],
  sizeUsed: string | null,
): NewPrintJob[] {
  return items.map((it) => ({
    kind: 'print',
    printerId: route.printerId,
    format: 'zpl',
    payload: Buffer.from(it.zplCodes.join('\n'), 'utf8'),
    labelSize: sizeUsed,
    labelRef: `zpl:${it.deliveryId}`,
    title: `Shipment ${it.deliveryId} (${it.zplCodes.length} ${it.zplCodes.length === 1 ? 'label' : 'labels'})`,
    deliveryIds: [it.deliveryId],
    barcodes: it.barcodes ?? [],
  }));
}

/** A PDF from GET tickets covers every package of the shipments asked for: one job. */
export function pdfPrintJob(
  route: Exclude<LabelRoute, { format: 'zpl' }>,
  pdf: Buffer,
  deliveryIds: number[],
  barcodes: string[] = [],
): NewPrintJob {
  return {
    kind: 'print',
    printerId: route.printerId,
    format: 'pdf',
    payload: pdf,
    labelRef: `pdf:${deliveryIds.join(',')}`,
    title: `Shipments ${deliveryIds.join(', ')}`,
    deliveryIds,
    barcodes,
  };
}

/** Whether this station holds labels of the shipment (it closed or fetched them here). */
export const hasStoredLabels = (labels: LabelsRepo, accountId: string, deliveryId: number) =>
  labels.allFor(accountId, deliveryId).length > 0;
