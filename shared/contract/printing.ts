/**
 * Printing: printers, their settings, routing per carrier, the durable print queue, label
 * previews. Schemas here are the single source of the types used by electron/printing,
 * electron/queue and the renderer.
 */
import { z } from 'zod';
import { printerReasonCodeList } from '../errors/codes';
import { packageNumber, reprintWhy } from './reprint';

/** Why a printer is not ready, or a job waits or failed: a printer reason code (shared/errors/codes.ts `printerReasonCodes`). */
export const printerReasonCode = z.enum(printerReasonCodeList);

// ---------------------------------------------------------------- printers

/** ZPL sizes the service offers (spec: GET /api/v3/deliveries/zpl, `size`, cm at 300 dpi). */
export const zplSize = z.enum(['10x5', '10x15', '10x17']);
export type ZplSize = z.infer<typeof zplSize>;

export const printerKind = z.enum(['zpl-tcp', 'zpl-usb', 'zpl-spooler', 'pdf-system', 'virtual-zpl', 'virtual-pdf']);
export type PrinterKind = z.infer<typeof printerKind>;

/** Settings applied to every label sent to a ZPL printer (PDF printers use copies and media). */
export const printerSettings = z.object({
  /** Dots per inch of the print head. The service lays ZPL out at 300 dpi. */
  dpi: z.union([z.literal(203), z.literal(300), z.literal(600)]).default(300),
  /** ^MD: darkness relative to the printer's own setting, -30..30. */
  darkness: z.number().int().min(-30).max(30).default(0),
  /** Label shift in dots of the printer: right (^LS, negative shift) and down (^LT, -120..120). */
  offsetX: z.number().int().min(-9999).max(9999).default(0),
  offsetY: z.number().int().min(-120).max(120).default(0),
  /** ^PO: print upside down for printers mounted the other way round. */
  rotate180: z.boolean().default(false),
  /** ^PQ / lp -n: copies of every label. */
  copies: z.number().int().min(1).max(99).default(1),
  /** Whether the printer answers ~HS (Zebra host status); asked before and after every job. */
  hostStatus: z.boolean().default(false),
  /**
   * The printer reports its label counter (SGD odometer.total_label_count, Link-OS printers; found
   * by the connection test): a job cut off by a crash or a lost connection is settled from it.
   */
  labelCounter: z.boolean().default(false),
  /** CUPS options for PDF printing, e.g. media=Custom.100x150mm, fit-to-page. */
  media: z
    .string()
    .max(80)
    .regex(/^[\w.-]*$/, 'letters, digits, dot, dash only')
    .default(''),
  fitToPage: z.boolean().default(true),
});
export type PrinterSettings = z.infer<typeof printerSettings>;

const hostName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.\-:[\]]+$/, 'a host name or IP address');
const queueName = z
  .string()
  .min(1)
  .max(127)
  .regex(/^[^\s/#]+$/, 'a CUPS queue name (no spaces, / or #)');

export const printerConnection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('zpl-tcp'), host: hostName, port: z.number().int().min(1).max(65535).default(9100) }),
  z.object({
    kind: z.literal('zpl-usb'),
    device: z.string().regex(/^\/dev\/usb\/lp\d+$|^\/dev\/lp\d+$/, 'a device like /dev/usb/lp0'),
  }),
  z.object({ kind: z.literal('zpl-spooler'), queue: queueName }),
  z.object({ kind: z.literal('pdf-system'), queue: queueName }),
  z.object({ kind: z.literal('virtual-zpl') }),
  z.object({ kind: z.literal('virtual-pdf') }),
]);
export type PrinterConnection = z.infer<typeof printerConnection>;

export const printerId = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[\w.:-]+$/);

export const printerConfig = z.object({
  id: printerId,
  name: z.string().min(1).max(120),
  connection: printerConnection,
  settings: printerSettings,
});
export type PrinterConfig = z.infer<typeof printerConfig>;

export const printerStateName = z.enum(['ready', 'offline', 'error', 'unknown']);
export const printerState = z.object({
  printerId,
  state: printerStateName,
  /** Why it is not ready (paper_out, head_open, paused, offline...). */
  reasonCode: printerReasonCode.nullable(),
  reason: z.string().nullable(),
  checkedAt: z.string().nullable(),
});
export type PrinterState = z.infer<typeof printerState>;

export const printerView = printerConfig.extend({ status: printerState });
export type PrinterView = z.infer<typeof printerView>;

/** A printer discovery found; the page words where it was found in the UI language. */
export const discoveredPrinter = z.object({
  connection: printerConnection,
  name: z.string(),
  source: z.enum(['cups', 'windows', 'usb']),
  /** The system's name of the device behind it (a CUPS device URI, a Windows port), as the system gives it. */
  device: z.string().nullable(),
  /** A CUPS queue that does not accept jobs now. */
  stopped: z.boolean(),
});
export type DiscoveredPrinter = z.infer<typeof discoveredPrinter>;

// ---------------------------------------------------------------- routing

/** Where and how one carrier's labels print. PDF start position: spec GET tickets, 1-4 on A4. */
export const labelRoute = z.discriminatedUnion('format', [
  z.object({ format: z.literal('zpl'), printerId, size: zplSize.optional() }),
  z.object({ format: z.literal('pdf-single'), printerId }),
  z.object({ format: z.literal('pdf-a4'), printerId, position: z.number().int().min(1).max(4).default(1) }),
]);
export type LabelRoute = z.infer<typeof labelRoute>;

export const routingRules = z.object({
  /** Carrier code (the shipment's `agent`) -> route. */
  carriers: z.record(z.string().min(1).max(40), labelRoute),
  defaultRoute: labelRoute.nullable(),
  /** Collection protocols (PDF A4) go to this printer, usually the office printer. */
  protocolPrinterId: printerId.nullable(),
});
export type RoutingRules = z.infer<typeof routingRules>;

/**
 * The carriers the station routes labels for, with the ZPL sizes each offers (spec "GET
 * /api/v3/deliveries/zpl": ZPL exists for five carriers only; null = PDF labels only). Codes and
 * names as the service's carrier catalogue lists them (the sandbox's, sandbox/domain/catalogue.ts).
 */
export const labelCarriers: readonly { code: string; name: string; zplSizes: ZplSize[] | null }[] = [
  { code: 'NP', name: 'National Post', zplSizes: ['10x17'] },
  { code: 'PPR', name: 'ParcelPro', zplSizes: ['10x5', '10x17'] },
  { code: 'RGX', name: 'RegioExpress', zplSizes: ['10x15'] },
  { code: 'BOX', name: 'BoxPoint', zplSizes: ['10x17'] },
  { code: 'SHP', name: 'ShopPoint', zplSizes: ['10x17'] },
  { code: 'CCR', name: 'CityCourier', zplSizes: null },
];

/**
 * Where a carrier's labels really go under the saved rules: `carrier` its own rule, `default` the
 * default route, `pdf-fallback` the default asks for ZPL but the carrier has none, so they go as
 * PDF A4 to the protocol (office) printer; `none`: they are not printed.
 */
export const routeDecision = z.object({
  carrier: z.string(),
  route: labelRoute.nullable(),
  via: z.enum(['carrier', 'default', 'pdf-fallback', 'none']),
});
export type RouteDecision = z.infer<typeof routeDecision>;

// ---------------------------------------------------------------- queue

/**
 * `uncertain`: cut off while sending (crash, dropped connection): it may or may not have printed.
 * `unconfirmed`: every byte left, the printer did not confirm taking them (a raw port that
 * accepts and never reads or closes). Neither counts as printed; both wait for the worker's word
 * (it printed / print again / cancel) and are never sent again by themselves.
 * `spooled`: handed to the operating system's print spooler, which finished with it (CUPS
 * `completed`, the Windows spooler took it): finished, never sent again by itself, but the spooler
 * does not say a label came out, so it is not counted as printed.
 */
export const jobState = z.enum([
  'queued',
  'sending',
  'sent',
  'done',
  'spooled',
  'failed',
  'uncertain',
  'unconfirmed',
  'cancelled',
]);
export type JobState = z.infer<typeof jobState>;

/**
 * What a print job prints, for the screen to name it in the UI language (`title` is the log's
 * English): a shipment's labels (its ids and barcodes say which), a collection protocol, the demo
 * pick list, a printer's test label; `other` for a job stored before jobs said it.
 */
export const jobDocument = z.discriminatedUnion('kind', [
  /** `package`: one package's label of a multi-package parcel (number of count), reprinted alone. */
  z.object({
    kind: z.literal('labels'),
    package: z.object({ number: z.number().int().positive(), of: z.number().int().positive() }).optional(),
  }),
  z.object({ kind: z.literal('protocol'), protocolId: z.number().int() }),
  z.object({ kind: z.literal('pickList') }),
  z.object({ kind: z.literal('commandSheet') }),
  z.object({ kind: z.literal('testPrint'), printerId: z.string() }),
  z.object({ kind: z.literal('other') }),
]);
export type JobDocument = z.infer<typeof jobDocument>;

export const jobView = z.object({
  id: z.number().int(),
  kind: z.literal('print'),
  printerId: z.string().nullable(),
  format: z.enum(['zpl', 'pdf']).nullable(),
  title: z.string(),
  document: jobDocument,
  deliveryIds: z.array(z.number().int()),
  barcodes: z.array(z.string()),
  copies: z.number().int(),
  state: jobState,
  attempts: z.number().int(),
  reasonCode: printerReasonCode.nullable(),
  reason: z.string().nullable(),
  /** When a failed job is tried again by itself; null: it waits for the worker. */
  nextRetryAt: z.string().nullable(),
  /** Bytes reached the printer: a retry may print it a second time. */
  delivered: z.boolean(),
  reprintOf: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  bytes: z.number().int(),
});
export type JobView = z.infer<typeof jobView>;

/**
 * A job that waits for its printer: failed with a time to try again, nothing of it reached the
 * printer; it goes by itself when the printer is back. Shown "Waiting for printer", amber, and a
 * scan's outcome says so at once.
 */
export const waitsForPrinter = (j: Pick<JobView, 'state' | 'nextRetryAt' | 'delivered'>): boolean =>
  j.state === 'failed' && j.nextRetryAt !== null && !j.delivered;

/**
 * A job in the printer's buffer held there by a stop the printer reported (out of labels, head
 * open, not answering): it prints once that is fixed, so it is shown held, amber, never failed, and
 * a scan's outcome names the stop. `in_printer` is the job printing (no stop).
 */
export const heldInPrinter = (j: Pick<JobView, 'state' | 'reasonCode'>): boolean =>
  j.state === 'sent' && j.reasonCode !== null && j.reasonCode !== 'in_printer';

/**
 * A label held for the worker's word: its parcel was found closed and this desk cannot prove it
 * closed it (electron/workflows/closeAndPrint.ts). `failed` with no retry time, so it never prints
 * by itself: the worker sends it (Retry now) or cancels it in the print queue.
 */
export const heldForWorker = (j: Pick<JobView, 'state' | 'nextRetryAt' | 'reasonCode'>): boolean =>
  j.state === 'failed' && j.nextRetryAt === null && j.reasonCode === 'held_closed_elsewhere';

/**
 * The reasons a waiting job gives way to a new print of the same labels (one label per parcel):
 * the queue's reprint, or a print from Shipments or a scan. The new job is linked to the entries
 * of the old one in the journal, so a scan follows it.
 */
export const REPLACED_BY_NEW_JOB = ['replaced_by_reprint', 'replaced_by_new_print'] as const;

/** A job a new print of the same labels took over: no label of its scan any more, the new job (linked to it) is. */
export const replacedByReprint = (j: { state: string; reasonCode: string | null }): boolean =>
  j.state === 'cancelled' && (REPLACED_BY_NEW_JOB as readonly (string | null)[]).includes(j.reasonCode);

/**
 * A job's state as every page follows it: the state and why, nothing a job
 * never changes. `reasonCode`/`reason` only when there is one (absent, not null, to keep frames
 * small). A page that shows more of a job (the print queue) reads it with `printing.queue.follow`.
 */
export const jobStateChange = z.object({
  id: z.number().int(),
  state: jobState,
  reasonCode: printerReasonCode.optional(),
  reason: z.string().optional(),
});
export type JobStateChange = z.infer<typeof jobStateChange>;

/**
 * The jobs that changed since the last change, each once with its latest state. `version` counts
 * the changes (one more each time); `printing.queue.follow` answers with the version its list
 * shows, so a page applies the changes after it and loads again when one is missing.
 */
export const jobsChange = z.object({ version: z.number().int(), jobs: z.array(jobStateChange) });
export type JobsChange = z.infer<typeof jobsChange>;

export const jobEvent = z.object({
  at: z.string(),
  state: jobState,
  reasonCode: printerReasonCode.nullable(),
  reason: z.string().nullable(),
});

export const previewPage = z.object({ png: z.string(), width: z.number().int(), height: z.number().int() });
export type PreviewPage = z.infer<typeof previewPage>;

export const receivedItem = z.object({
  at: z.string(),
  name: z.string(),
  bytes: z.number().int(),
  text: z.string().nullable(),
});

const jobIdParams = z.object({ jobId: z.number().int().positive() }).strict();

export const printingMethods = {
  'printing.printers.list': { reads: true, params: z.object({}).strict(), result: z.array(printerView) },
  'printing.printers.save': { params: printerConfig.strict(), result: printerView },
  'printing.printers.remove': { params: z.object({ printerId }).strict(), result: z.object({ removed: z.boolean() }) },
  /**
   * CUPS queues, USB label printers; TCP printers are added by hand (host:port). A printer that
   * cannot be reached now (switched off) can still be saved: it shows as offline until it answers.
   */
  'printing.printers.discover': { params: z.object({}).strict(), result: z.array(discoveredPrinter) },
  'printing.printers.testConnection': {
    params: z.object({ host: hostName, port: z.number().int().min(1).max(65535).default(9100) }).strict(),
    /** `reasonCode` when it failed: a printer reason code the UI translates (offline, timeout); `message` in English. */
    result: z.object({
      ok: z.boolean(),
      /** What was found (model, resolution, status), or why nothing was, in English. */
      message: z.string(),
      hostStatus: z.boolean(),
      reasonCode: printerReasonCode.nullable(),
      /** The model the printer names (~HI), when it does. */
      model: z.string().nullable().default(null),
      /** The resolution the printer reports (~HI dots per mm), when it does: the add form's default. */
      dpi: z
        .union([z.literal(203), z.literal(300), z.literal(600)])
        .nullable()
        .default(null),
      /** It answers its label counter (SGD odometer.total_label_count): saved as the printer's `labelCounter`. */
      labelCounter: z.boolean().default(false),
    }),
  },
  /** A test label on the printer, in `language` (the page's; the station's when absent) with the local time. */
  'printing.printers.testPrint': {
    params: z.object({ printerId, language: z.enum(['en', 'cs']).optional() }).strict(),
    result: jobView,
  },
  /** What a virtual printer received (newest last), so the app can show it. */
  'printing.printers.received': {
    reads: true,
    params: z.object({ printerId }).strict(),
    result: z.array(receivedItem),
  },
  'printing.routes.get': { reads: true, params: z.object({}).strict(), result: routingRules },
  'printing.routes.set': { params: routingRules.strict(), result: routingRules },
  /** The route each carrier's labels really take under the saved rules (the core's decision, as printing applies it). */
  'printing.routes.effective': { reads: true, params: z.object({}).strict(), result: z.array(routeDecision) },
  'printing.queue.list': {
    reads: true,
    params: z
      .object({
        states: z.array(jobState).optional(),
        limit: z.number().int().min(1).max(500).default(100),
        beforeId: z.number().int().positive().optional(),
      })
      .strict(),
    result: z.array(jobView),
  },
  /**
   * The list a page keeps and follows by the `printing.jobs` changes: as `printing.queue.list`,
   * with the version of the last change it includes; `ids` reads just those jobs (the ones a change
   * named that the page shows), in the order asked, leaving out any that do not exist.
   */
  'printing.queue.follow': {
    reads: true,
    params: z
      .object({
        states: z.array(jobState).optional(),
        limit: z.number().int().min(1).max(500).default(100),
        beforeId: z.number().int().positive().optional(),
        ids: z.array(z.number().int().positive()).max(500).optional(),
      })
      .strict(),
    result: z.object({ version: z.number().int(), jobs: z.array(jobView) }),
  },
  'printing.queue.history': { reads: true, params: jobIdParams, result: z.array(jobEvent) },
  'printing.queue.retryNow': { work: true, params: jobIdParams, result: jobView },
  'printing.queue.cancel': { work: true, params: jobIdParams, result: jobView },
  /** A job still waiting for its printer goes to another printer that takes its format. */
  'printing.queue.move': {
    work: true,
    params: z.object({ jobId: z.number().int().positive(), printerId }).strict(),
    result: jobView,
  },
  /**
   * A new job linked to the first (reprintOf). Also the worker's "reprint" on an uncertain or
   * unconfirmed job. `packageNumber`: only that package's label of the job's parcel (a ZPL job of one parcel).
   */
  'printing.queue.reprint': {
    work: true,
    params: z
      .object({ jobId: z.number().int().positive(), why: reprintWhy, packageNumber: packageNumber.optional() })
      .strict(),
    result: jobView,
  },
  /** The worker says an uncertain or unconfirmed job did print: it becomes done without printing again. */
  'printing.queue.markPrinted': { work: true, params: jobIdParams, result: jobView },
  'printing.preview': { reads: true, params: jobIdParams, result: z.array(previewPage) },
};

export const printingEvents = {
  /** Jobs whose state changed: the latest state of each, gathered over a short window. */
  'printing.jobs': jobsChange,
  'printing.printerState': printerState,
};
