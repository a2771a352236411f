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
import { isServiceError, type TicketBatch, type ZplLabels } from '../api/index';
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

type PdfRoute = Exclude<LabelRoute, { format: 'zpl' }>;
type ZplRoute = Extract<LabelRoute, { format: 'zpl' }>;

/** One carrier's labels as the service answered them (or why they cannot be had), not yet kept nor made print jobs. */
type CarrierAnswer = { ids: number[] } & (
  | { kind: 'zpl'; route: ZplRoute; items: ZplLabels[] }
  | { kind: 'pdf'; route: PdfRoute; batches: TicketBatch[] }
  | { kind: 'failed'; trouble: Trouble }
);

const askTickets = (ctx: Ctx, route: PdfRoute, list: Shipment[]) => {
  const v = variantOf(route) as Extract<LabelVariant, { format: 'pdf' }>;
  return ctx.session.client.getTickets(
    list.map((s) => ({ deliveryId: s.deliveryId, agent: s.agent ?? '' })),
    v.printFormat === 'single' ? { printFormat: 'single' } : { printFormat: 'default', position: v.position },
  );
};

/** One carrier's labels in its route's format; ZPL refused for a carrier without it: PDF A4 by the fallback route. */
async function askCarrier(ctx: Ctx, { route, fallback }: LabelRouting, list: Shipment[]): Promise<CarrierAnswer> {
  const ids = list.map((s) => s.deliveryId);
  if (!route) return { ids, kind: 'failed', trouble: noRoute(list[0]?.agent ?? '') };
  try {
    if (route.format !== 'zpl') return { ids, kind: 'pdf', route, batches: await askTickets(ctx, route, list) };
    try {
      const items = await ctx.session.client.getZpl(
        list.map((s) => ({ deliveryId: s.deliveryId, agent: s.agent ?? '' })),
        route.size ? { size: route.size } : {},
      );
      return { ids, kind: 'zpl', route, items };
    } catch (err) {
      // ZPL exists for five carriers only (spec "GET .../zpl": 404 "ZPL label not found"): PDF A4 on the office printer instead.
      if (!(isServiceError(err) && err.status === 404 && fallback)) throw err;
      return { ids, kind: 'pdf', route: fallback, batches: await askTickets(ctx, fallback, list) };
    }
  } catch (err) {
    return { ids, kind: 'failed', trouble: classifyTrouble(err) };
  }
}

/**
 * Asks the service for the labels of shipments, one request per carrier in turn; the first is
 * started before this returns. Nothing is kept yet (jobsOfAnswers does that). Never rejects: what
 * cannot be had is an answer of its own.
 */
async function askService(ctx: Ctx, routes: Routes, shipments: Shipment[]): Promise<CarrierAnswer[]> {
  const out: CarrierAnswer[] = [];
  for (const [carrier, list] of groupBy(shipments, (s) => s.agent ?? ''))
    out.push(await askCarrier(ctx, routes.get(carrier)!, list));
  return out;
}

function pdfJobs(ctx: Ctx, a: Extract<CarrierAnswer, { kind: 'pdf' }>, byId: Map<number, Shipment>): NewPrintJob[] {
  const v = variantOf(a.route);
  return a.batches.map((b) => {
    ctx.labels.save(
      { accountId: ctx.session.accountId, variant: v, deliveryIds: b.deliveryIds, parts: [b.pdf], created: b.created },
      ctx.now(),
    );
    const barcodes = a.ids.filter((id) => b.deliveryIds.includes(id)).flatMap((id) => barcodesOf(byId.get(id)!));
    return pdfPrintJob(a.route, b.pdf, b.deliveryIds, barcodes);
  });
}

async function zplJobs(
  ctx: Ctx,
  a: Extract<CarrierAnswer, { kind: 'zpl' }>,
  byId: Map<number, Shipment>,
): Promise<NewPrintJob[]> {
  const items = new Map(a.items.map((i) => [i.deliveryId, i]));
  const ordered = a.ids.flatMap((id) => {
    const item = items.get(id);
    return item && item.zplCodes.length
      ? [{ deliveryId: id, zplCodes: item.zplCodes, barcodes: barcodesOf(byId.get(id)!) }]
      : [];
  });
  // Lazy commits (no disk sync): the labels are kept for a reprint or a restart, and guard no side
  // effect (a print job linked to its label commits after it: the job's `sending` sync takes both to
  // the disk). In slices, the event loop running between them.
  const documentIds: number[] = [];
  for (let i = 0; i < ordered.length; i += SAVE_SLICE) {
    // More than one slice: each on a turn of its own, also after the answer's parsing (a single
    // scan's labels go on at once, without a turn on its way to the printer).
    if (ordered.length > SAVE_SLICE) await nextTurn();
    const saved = ctx.labels.saveAll(
      ordered.slice(i, i + SAVE_SLICE).map((it) => ({
        accountId: ctx.session.accountId,
        variant: variantOf(a.route),
        deliveryIds: [it.deliveryId],
        parts: it.zplCodes.map((z) => Buffer.from(z, 'utf8')),
      })),
      ctx.now(),
    );
    documentIds.push(...saved);
  }
  if (ordered.length > SAVE_SLICE) await nextTurn();
  // Each job prints its label as kept (one copy of the bytes, deflated once).
  return zplPrintJobs(
    a.route,
    ordered.map((it, i) => ({ ...it, documentId: documentIds[i] })),
    a.route.size ?? null,
  );
}

/**
 * The service's answers kept (a reprint works offline) and made print jobs, with the shipments as
 * they are now: a shipment closed since its labels were asked for has its package barcodes now
 * (spec "Delivery": filled only after closing), which its jobs carry for the label check.
 */
async function jobsOfAnswers(ctx: Ctx, answers: CarrierAnswer[], shipments: Shipment[]): Promise<LabelJobs> {
  const byId = new Map(shipments.map((s) => [s.deliveryId, s]));
  const out: LabelJobs = { prints: [], failures: [] };
  for (const a of answers) {
    if (a.kind === 'failed') {
      out.failures.push({ deliveryIds: a.ids, trouble: a.trouble });
      continue;
    }
    try {
      if (a.kind === 'pdf') {
        out.prints.push(...pdfJobs(ctx, a, byId));
        continue;
      }
      const jobs = await zplJobs(ctx, a, byId);
      out.prints.push(...jobs);
      const missing = a.ids.filter((id) => !jobs.some((j) => j.deliveryIds?.includes(id)));
      if (missing.length)
        out.failures.push({
          deliveryIds: missing,
          trouble: classifyTrouble(new Error('The service returned no ZPL label for these shipments.')),
        });
    } catch (err) {
      out.failures.push({ deliveryIds: a.ids, trouble: classifyTrouble(err) });
    }
  }
  return out;
}

/** Fetches, stores and turns into print jobs the labels of closed shipments, one request per carrier. */
async function fetchJobs(ctx: Ctx, routes: Routes, shipments: Shipment[]): Promise<LabelJobs> {
  return jobsOfAnswers(ctx, await askService(ctx, routes, shipments), shipments);
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

/** Labels asked for ahead of their print (as soon as a close is answered): of which shipments, and the answers on their way. */
export interface LabelsAsked {
  deliveryIds: number[];
  answers: Promise<CarrierAnswer[]>;
}

type PrintCtx = Ctx & { rules: RoutingRules; chosen: LabelRoute | null };

/**
 * Asks the service for the labels of shipments before their print jobs are made, the routes
 * decided as labelJobsFor decides them. The first request is started before this returns (its
 * bytes leave before the next turn of the event loop); nothing is kept until labelJobsFor takes the
 * answers.
 */
export function askLabels(ctx: PrintCtx, shipments: Shipment[]): LabelsAsked {
  const routes = routeLabels(ctx.rules, [...new Set(shipments.map((s) => s.agent ?? ''))], ctx.chosen);
  return { deliveryIds: shipments.map((s) => s.deliveryId), answers: askService(ctx, routes, shipments) };
}

const sameIds = (a: number[], b: number[]) => {
  const x = [...a].sort((m, n) => m - n);
  const y = [...b].sort((m, n) => m - n);
  return x.length === y.length && x.every((id, i) => id === y[i]);
};

/**
 * The print jobs of one print of closed shipments, by key (a journal entry): each carrier's route
 * decided once (`chosen`: the route the worker chose, else the station's rules), stored labels
 * that fit by key, the others' fetched (one request per carrier; a PDF job may hold several).
 * `asked`: labels asked for already (askLabels); their answers are taken when they are of exactly
 * the shipments to fetch, else these are asked for now.
 */
export async function labelJobsFor(
  ctx: PrintCtx,
  items: { key: number; shipment: Shipment | undefined }[],
  asked: LabelsAsked[] = [],
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
  if (!toFetch.length) return { stored, fetched: { prints: [], failures: [] } };
  const answers = sameIds(
    asked.flatMap((a) => a.deliveryIds),
    toFetch.map((s) => s.deliveryId),
  )
    ? (await Promise.all(asked.map((a) => a.answers))).flat()
    : await askService(ctx, routes, toFetch);
  return { stored, fetched: await jobsOfAnswers(ctx, answers, toFetch) };
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

/**
 * One print job per shipment holding every package label, in package order; `documentId`: the
 * kept label of these very codes, which the job then prints from (NewPrintJob.labelDocumentId).
 */
export function zplPrintJobs(
  route: Extract<LabelRoute, { format: 'zpl' }>,
  items: { deliveryId: number; zplCodes: string[]; barcodes?: string[]; documentId?: number }[],
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
    labelDocumentId: it.documentId ?? null,
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
