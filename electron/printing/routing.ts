/**
 * Routing rules: which printer and format each carrier's labels go to. ZPL exists for five
 * carriers only, each with its own sizes (spec: GET /api/v3/deliveries/zpl); other carriers get
 * PDF `single` on a label printer's system queue or A4 with start position 1-4 on an office
 * printer (spec: GET /api/v3/deliveries/tickets). A print's routes are decided once, here
 * (routeLabels); the labels in those formats and their print jobs are electron/workflows/labelJobs.ts's.
 */
import {
  labelCarriers,
  routingRules,
  type LabelRoute,
  type RouteDecision,
  type RoutingRules,
} from '../../shared/contract/printing';
import type { NewPrintJob } from '../store/printJobsRepo';

export const ROUTES_SETTING = 'printing.routes';
export const VIRTUAL_ZPL_ID = 'virtual-zpl';
export const VIRTUAL_PDF_ID = 'virtual-pdf';

/** The embedded default: ZPL to the virtual label printer, protocols to the virtual PDF printer. */
export const defaultRoutingRules: RoutingRules = {
  carriers: {},
  defaultRoute: { format: 'zpl', printerId: VIRTUAL_ZPL_ID },
  protocolPrinterId: VIRTUAL_PDF_ID,
};

export function parseRoutingRules(value: unknown): RoutingRules {
  const parsed = routingRules.safeParse(value);
  return parsed.success ? parsed.data : defaultRoutingRules;
}

export function routeFor(rules: RoutingRules, carrier: string): LabelRoute | null {
  return rules.carriers[carrier] ?? rules.defaultRoute;
}

/** A carrier without ZPL labels under a ZPL route: PDF A4 on the office (protocol) printer instead. */
function pdfFallbackRoute(rules: RoutingRules): PdfA4Route | null {
  return rules.protocolPrinterId ? { format: 'pdf-a4', printerId: rules.protocolPrinterId, position: 1 } : null;
}

type PdfA4Route = Extract<LabelRoute, { format: 'pdf-a4' }>;

/** Where one carrier's labels go in a print. */
export interface LabelRouting {
  /** The route the worker chose, else the carrier's rule, else the default; null: no printer is set for them. */
  route: LabelRoute | null;
  /** Where they go instead when the route asks for ZPL and the carrier has none (the service answers 404). */
  fallback: PdfA4Route | null;
}

/**
 * The routes of one print, decided once for each of its carriers: the route the worker chose for
 * it (`chosen`: Shipments' print to a printer), else the station's rules, and the PDF fallback.
 */
export function routeLabels(
  rules: RoutingRules,
  carriers: string[],
  chosen: LabelRoute | null,
): Map<string, LabelRouting> {
  const fallback = pdfFallbackRoute(rules);
  return new Map(carriers.map((c) => [c, { route: chosen ?? routeFor(rules, c), fallback }]));
}

/** Whether a carrier is known to have no ZPL labels (spec "GET /api/v3/deliveries/zpl": five carriers only). */
export function lacksZpl(carrier: string): boolean {
  return labelCarriers.some((c) => c.code === carrier && !c.zplSizes);
}

/**
 * The route a carrier's labels really take, as fetchLabelJobs applies it: its own rule, else the
 * default; a ZPL route for a carrier without ZPL (the service answers 404) becomes the PDF fallback.
 */
export function decideRoute(rules: RoutingRules, carrier: string): RouteDecision {
  const own = rules.carriers[carrier];
  const route = own ?? rules.defaultRoute;
  if (!route) return { carrier, route: null, via: 'none' };
  if (route.format === 'zpl' && lacksZpl(carrier)) {
    const fallback = pdfFallbackRoute(rules);
    return fallback ? { carrier, route: fallback, via: 'pdf-fallback' } : { carrier, route: null, via: 'none' };
  }
  return { carrier, route, via: own ? 'carrier' : 'default' };
}

/** The decision for every catalogue carrier and any other carrier the rules name. */
export function decideRoutes(rules: RoutingRules): RouteDecision[] {
  const codes = [
    ...labelCarriers.map((c) => c.code),
    ...Object.keys(rules.carriers).filter((c) => !labelCarriers.some((k) => k.code === c)),
  ];
  return codes.map((c) => decideRoute(rules, c));
}

/** What to ask the service for, for a route. */
export type LabelRequest =
  { kind: 'zpl'; size?: string } | { kind: 'pdf'; printFormat: 'single' | 'default'; position: number };

export function labelRequestFor(route: LabelRoute): LabelRequest {
  if (route.format === 'zpl') return route.size ? { kind: 'zpl', size: route.size } : { kind: 'zpl' };
  if (route.format === 'pdf-single') return { kind: 'pdf', printFormat: 'single', position: 1 };
  return { kind: 'pdf', printFormat: 'default', position: route.position };
}

/** A collection protocol (base64 PDF from the service, decoded) to the protocol printer. */
export function protocolPrintJob(rules: RoutingRules, pdf: Buffer, protocolId: number): NewPrintJob | null {
  if (!rules.protocolPrinterId) return null;
  return {
    kind: 'print',
    printerId: rules.protocolPrinterId,
    format: 'pdf',
    payload: pdf,
    labelRef: `protocol:${protocolId}`,
    title: `Collection protocol ${protocolId}`,
  };
}
