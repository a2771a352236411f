/**
 * The station's workflows in the RPC contract: scan-to-close, batch close and end of day
 * (a scan closes its shipment and prints its label; nothing scanned is lost). The shapes are what
 * the UI renders; the methods are served by electron/workflows through
 * electron/workflows/workflowHandlers.ts.
 */
import { z } from 'zod';
import { allCodes, batchItemReasons, type NotSnakeCase } from '../errors/codes';
import { MAX_CODE_LENGTH } from '../scan/normaliseScan';
import { packageNumber, reprintWhy } from './reprint';
import { heldParcel } from './shelf';

/**
 * An error as a value: a code the UI translates, a message a person can act on. `code` is one of
 * the registry (shared/errors/codes.ts: an error's or a reason's); values its sentence names (an
 * HTTP status) are in `details`.
 */
export const workflowError = z.object({
  code: z.enum(allCodes),
  message: z.string(),
  details: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** The service's own reasons for this shipment (a carrier's refusal), in the UI language: shown as a list. */
  messages: z.array(z.string()).optional(),
});
export type WorkflowError = z.infer<typeof workflowError>;

/** What the green screen shows. */
export const closedShipmentInfo = z.object({
  deliveryId: z.number().int(),
  /** Carrier code (the shipment's `agent`). */
  carrier: z.string(),
  recipientName: z.string(),
  packageCount: z.number().int(),
  deliveryNumber: z.string().nullable(),
  barcodes: z.array(z.string()),
  /** Weighed at the desk before the close: the weight each package was closed with (kg), where it came from. */
  weighed: z
    .object({ packages: z.array(z.string()), source: z.enum(['scale', 'shipment', 'mixed']), updated: z.boolean() })
    .optional(),
});
export type ClosedShipmentInfo = z.infer<typeof closedShipmentInfo>;

/** The packages whose weighed weight is off the shipment's by more than the desk's share (kg, exact decimals). */
const weightCheckPackages = z.array(
  z.object({ packageNumber: z.number().int(), expectedKg: z.string(), weighedKg: z.string() }),
);

const base = {
  /** The station's number of this scan (its scan log row). */
  scanId: z.number().int(),
  /** The code after normalisation. */
  code: z.string(),
  /**
   * A later record of a scan already told (its labels printed, were cancelled, wait for another
   * reason...): the page replaces what it shows of this scanId, without its sound and without
   * taking the screen from a newer scan. Absent on the first record.
   */
  update: z.literal(true).optional(),
};

/**
 * Every outcome of one scan, rendered full-screen by the UI:
 * - printed: closed (or reprinted) and every label job done at the printer;
 * - spooled: closed, every label handed to the computer's print system, which finished with them
 *   without saying whether they printed (CUPS, the Windows spooler);
 * - queued: closed, labels on their way after the wait: `reason` null when they are at the printer
 *   (sending, sent), else why not yet (behind others in the queue, labels still to fetch);
 * - print_cancelled: closed, its labels cancelled in the print queue before they printed: they will
 *   not print by themselves (reprint them from the print queue or Shipments);
 * - printer_down: closed, the printer is not ready (offline, out of labels...) or refused; the jobs
 *   wait in the queue and go by themselves when it is back, or wait for the worker;
 * - already_closed: ask the worker; `reprint(scanId)` prints the stored labels (Enter), `skip` (Esc);
 * - weight_check: the scale's weight differs from the shipment's by more than the desk's share
 *   (Settings → Scale); the scan waits for the worker: `scan.answerWeight` accept (Enter) sends the
 *   weight and closes, hold (Esc) ends the scan with `held` (nothing sent, scan the parcel again);
 * - on_shelf: the parcel is on the problem shelf (shared/contract/shelf.ts): nothing sent; Enter
 *   closes it through the scan lane (`shelf.close`), Esc leaves it on the shelf;
 * - service_unreachable: the scan waits in the journal and runs in scan order when the service (or the login) is back.
 */
export const scanOutcome = z.discriminatedUnion('kind', [
  /** `reprint` absent: false; a queued `reason` absent: null (pages get them left out, electron/status/pageFeeds.ts). */
  z.object({
    ...base,
    kind: z.literal('printed'),
    shipment: closedShipmentInfo,
    jobIds: z.array(z.number().int()),
    /**
     * The printers its labels went to when that is not the desk's usual label printer (the default
     * route): a carrier routed elsewhere, a job moved in the queue. Absent: the usual one.
     */
    printers: z.array(z.string()).optional(),
    reprint: z.boolean().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('spooled'),
    shipment: closedShipmentInfo,
    jobIds: z.array(z.number().int()),
    /**
     * The printers its labels went to when that is not the desk's usual label printer (the default
     * route): a carrier routed elsewhere, a job moved in the queue. Absent: the usual one.
     */
    printers: z.array(z.string()).optional(),
    reprint: z.boolean().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('queued'),
    shipment: closedShipmentInfo,
    jobIds: z.array(z.number().int()),
    /**
     * The printers its labels went to when that is not the desk's usual label printer (the default
     * route): a carrier routed elsewhere, a job moved in the queue. Absent: the usual one.
     */
    printers: z.array(z.string()).optional(),
    reprint: z.boolean().optional(),
    reason: workflowError.nullable().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('print_cancelled'),
    shipment: closedShipmentInfo,
    jobIds: z.array(z.number().int()),
    reprint: z.boolean().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('printer_down'),
    shipment: closedShipmentInfo,
    jobIds: z.array(z.number().int()),
    /**
     * The printers its labels went to when that is not the desk's usual label printer (the default
     * route): a carrier routed elsewhere, a job moved in the queue. Absent: the usual one.
     */
    printers: z.array(z.string()).optional(),
    reason: workflowError,
  }),
  z.object({
    ...base,
    kind: z.literal('already_closed'),
    shipment: closedShipmentInfo,
    /** Another station (or the web application) closed it: this station never printed it. */
    closedElsewhere: z.boolean(),
    /** Labels are stored on this station, so a reprint works even offline. */
    labelsAvailable: z.boolean(),
  }),
  z.object({
    ...base,
    kind: z.literal('weight_check'),
    shipment: closedShipmentInfo,
    packages: weightCheckPackages,
  }),
  /**
   * The worker held the parcel (at the weight check, or put it on the problem shelf while its scan
   * waited in line): nothing was sent, the shipment is still prepared.
   */
  z.object({ ...base, kind: z.literal('held'), deliveryId: z.number().int(), recipientName: z.string() }),
  /**
   * A scan of a parcel on the problem shelf: nothing was sent. The worker is asked: Enter closes and
   * prints it (`shelf.close`) and it leaves the shelf, Esc leaves it there.
   */
  z.object({ ...base, kind: z.literal('on_shelf'), shipment: closedShipmentInfo, hold: heldParcel }),
  z.object({ ...base, kind: z.literal('cancelled'), deliveryId: z.number().int(), recipientName: z.string() }),
  z.object({ ...base, kind: z.literal('not_found'), message: z.string(), serviceChecked: z.boolean() }),
  z.object({
    ...base,
    kind: z.literal('ambiguous'),
    candidates: z.array(
      z.object({
        deliveryId: z.number().int(),
        carrier: z.string(),
        recipientName: z.string(),
        state: z.number().int(),
      }),
    ),
  }),
  z.object({
    ...base,
    kind: z.literal('carrier_rejected'),
    deliveryId: z.number().int(),
    carrier: z.string(),
    /** The service's message and its per-field messages, in the UI language (accept-language). */
    message: z.string(),
    messages: z.array(z.string()),
  }),
  /** The scan waits in the station's journal (entryId) and runs in scan order when the service or the login is back. */
  z.object({ ...base, kind: z.literal('service_unreachable'), entryId: z.number().int(), reason: workflowError }),
  z.object({ ...base, kind: z.literal('skipped'), deliveryId: z.number().int() }),
  z.object({ ...base, kind: z.literal('login_required'), message: z.string() }),
  z.object({ ...base, kind: z.literal('error'), error: workflowError }),
]);
export type ScanOutcome = z.infer<typeof scanOutcome>;
export type ScanOutcomeKind = ScanOutcome['kind'];
const kindsSnakeCase: [NotSnakeCase<ScanOutcomeKind>] extends [never]
  ? true
  : { notSnakeCase: NotSnakeCase<ScanOutcomeKind> } = true;
void kindsSnakeCase;

/** A scan the station has received but not finished: the UI shows them under the scan box. */
export const pendingScan = z.object({
  scanId: z.number().int(),
  code: z.string(),
  /** In the list call only: no screen shows it, so the changes leave it out. */
  receivedAt: z.string().optional(),
  state: z.enum(['waiting', 'working']),
  /** Why it waits (no answer from the service, logged out...), once it has had to (absent: null). */
  reason: workflowError.nullable().optional(),
});
export type PendingScan = z.infer<typeof pendingScan>;

/**
 * What changed in a list the page keeps (events send what changed, not the whole
 * list). `version` counts the changes: the list call answers with the version it shows, the page
 * applies the changes after it in order and asks for the whole list again when one is missing
 * (after a reconnect). Removals first, then `put`: an entry replaced where it is, or appended.
 */
const listChange = <T extends z.ZodTypeAny, K extends z.ZodTypeAny>(entry: T, key: K) =>
  z.object({
    version: z.number().int(),
    /**
     * Changes sent close together go as one (electron/status/pageFeeds.ts): it makes the list go from
     * version `since` to `version`, each entry with its latest value (absent: `version` - 1).
     */
    since: z.number().int().optional(),
    put: z.array(entry),
    remove: z.array(key),
  });

/** The scans in line, as the list call gives them (in scan order). */
export const pendingScans = z.object({ version: z.number().int(), scans: z.array(pendingScan) });
export type PendingScans = z.infer<typeof pendingScans>;
/** Scans that came into line, changed (working, waiting and why) or left it (by scanId). */
export const pendingScansChange = listChange(pendingScan.omit({ receivedAt: true }), z.number().int());
export type PendingScansChange = z.infer<typeof pendingScansChange>;

// ---------------------------------------------------------------- batch

export const batchItem = z.object({
  code: z.string(),
  deliveryId: z.number().int().nullable(),
  carrier: z.string().nullable(),
  collectionPlace: z.string().nullable(),
  recipientName: z.string().nullable(),
  /**
   * ready: prepared, will be closed; closed: already closed (labels printed again only on request);
   * refused: the carrier refused the last close (the message says why; fix it and close again).
   */
  status: z.enum(['ready', 'closed', 'cancelled', 'not_found', 'ambiguous', 'invalid', 'refused']),
  /** The core's English sentence, for the log; the screen says `reason`. */
  message: z.string().nullable(),
  /**
   * Why it is not ready, as a code with its values (translated when shown) and a refusal's own words
   * (the carrier's, in the language of the page that closed it). Absent on items kept by an older version.
   */
  reason: z
    .object({
      code: z.enum(batchItemReasons),
      values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      words: z.array(z.string()).optional(),
      /** The language the words are in: a screen in another language shows the code's sentence only. */
      wordsLanguage: z.enum(['en', 'cs']).optional(),
    })
    .nullable()
    .optional(),
  /**
   * With a scale set up, a ready parcel is weighed as it is collected: one weight per
   * package (kg, exact; null when skipped or the wait ran out, so the shipment's own weight stands).
   * They are sent at the batch close, as a single scan's are.
   */
  weights: z
    .array(
      z.object({
        packageIndex: z.number().int(),
        kg: z.string().nullable(),
        reading: z.string().nullable(),
        source: z.enum(['scale', 'skipped', 'timeout']),
        at: z.string(),
      }),
    )
    .optional(),
});
export type BatchItem = z.infer<typeof batchItem>;

/**
 * Batch mode's weight check: the parcel weighed off the shipment's weight by
 * more than the desk's share is not collected; the worker is asked as for a single scan. Enter
 * collects it again with `acceptWeight` (weighed again, the parcel still on the scale), Esc leaves
 * it out of the batch. Nothing is kept of it at the station: a stop or a kill loses no answer.
 */
const batchWeightCheck = z.object({
  kind: z.literal('weight_check'),
  code: z.string(),
  shipment: closedShipmentInfo,
  packages: weightCheckPackages,
});
export type BatchWeightCheck = z.infer<typeof batchWeightCheck>;
/** What a collected code gives: the item as it is in the batch now, or the weight check it waits on. */
export const batchCollected = z.union([batchWeightCheck, batchItem]);
export type BatchCollected = z.infer<typeof batchCollected>;

/** The batch as the list call gives it (in collect order). */
export const batchItems = z.object({ version: z.number().int(), items: z.array(batchItem) });
export type BatchItems = z.infer<typeof batchItems>;
/** Items collected, moved to the end (collected again), changed by a close, or gone (by code). */
export const batchItemsChange = listChange(batchItem, z.string());
export type BatchItemsChange = z.infer<typeof batchItemsChange>;

export const batchShipmentResult = z.object({
  deliveryId: z.number().int(),
  code: z.string(),
  carrier: z.string(),
  collectionPlace: z.string().nullable(),
  closed: z.boolean(),
  print: z.enum(['printed', 'spooled', 'queued', 'printer_down', 'not_printed']),
  /**
   * What happened, as the worker reads it: printed; handed to the print system, which does not say
   * it printed (spooled); closed, label on its way (queued); closed but
   * not printed (the printer or the labels failed: `error` says why); refused by the carrier
   * (`error` carries its reason); not closed (cancelled or closed elsewhere meanwhile, unknown);
   * waiting: the service did not answer, the station closes and prints it by itself when it does.
   */
  outcome: z.enum(['printed', 'spooled', 'queued', 'closed_not_printed', 'refused', 'not_closed', 'waiting']),
  jobIds: z.array(z.number().int()),
  error: workflowError.nullable(),
  /** Weighed as it was collected: the weight each package was closed with, as on the outcome screen. */
  weighed: closedShipmentInfo.shape.weighed,
});
export type BatchShipmentResult = z.infer<typeof batchShipmentResult>;

export const batchSummary = z.object({
  closed: z.number().int(),
  printed: z.number().int(),
  failed: z.number().int(),
  /** Carrier + collection place groups, as closed (spec "PATCH": one carrier, one place per request). */
  groups: z.array(
    z.object({
      carrier: z.string(),
      collectionPlace: z.string().nullable(),
      deliveryIds: z.array(z.number().int()),
      /** How many of the group's shipments closed (a refused one does not stop the others). */
      closedCount: z.number().int(),
    }),
  ),
  shipments: z.array(batchShipmentResult),
  /** Codes that were not closed because they could not be (not found, cancelled, ambiguous...). */
  skipped: z.array(batchItem),
});
export type BatchSummary = z.infer<typeof batchSummary>;

// ---------------------------------------------------------------- end of day

export const protocolCandidate = z.object({
  carrier: z.string(),
  collectionPlace: z.string(),
  collectionPlaceName: z.string().nullable(),
  /** Closed, unsent shipments of this pair without a protocol (as far as this station knows). */
  deliveryIds: z.array(z.number().int()),
});
export type ProtocolCandidate = z.infer<typeof protocolCandidate>;

/**
 * Closed, unsent shipments of one carrier sent from an address (the sender is no collection place):
 * a collection protocol is made for a carrier and a collection place only (spec "POST
 * /api/v2/collection-protocols" takes both; "States and transitions" rule 3), so these need none.
 */
export const fromAddressGroup = z.object({
  carrier: z.string(),
  deliveryIds: z.array(z.number().int()),
});
export type FromAddressGroup = z.infer<typeof fromAddressGroup>;

export const protocolRecord = z.object({
  collectionProtocolId: z.number().int(),
  carrier: z.string(),
  collectionPlace: z.string(),
  created: z.string(),
  deliveryIds: z.array(z.number().int()),
  /** The print job of the last print of it, if any. */
  lastJobId: z.number().int().nullable(),
});
export type ProtocolRecord = z.infer<typeof protocolRecord>;

export const pickupOrder = z.object({
  carrier: z.string(),
  collectionPlace: z.string(),
  /** YYYY-MM-DD (spec "Pick-up order"). */
  scheduled: z.string(),
  /** When the station learned of it (the close that returned it). */
  receivedAt: z.string(),
  deliveryIds: z.array(z.number().int()),
});
export type PickupOrder = z.infer<typeof pickupOrder>;

// ---------------------------------------------------------------- methods and events

const none = z.object({}).strict();
const deliveryId = z.number().int().positive();
/** A scanner types at most a few dozen characters; anything longer is not a scan. */
const scannedCode = z
  .string()
  .trim()
  .min(1, 'Scan or type a code.')
  .max(MAX_CODE_LENGTH, `A code is at most ${MAX_CODE_LENGTH} characters.`);
/**
 * A page's own name for one scan it sends (random, made by the page): a page whose socket closed
 * before the answer came asks by it whether the scan arrived (`scan.submitted`).
 */
export const scanPageRef = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'A scan reference is 16-64 letters, digits, _ or -.');
const carrierCode = z.string().trim().min(1).max(20);
const placeCode = z.string().trim().min(1).max(100);

/** The day's scans on this station (from the scan log), for the counters on the station screen. */
export const scanCounters = z.object({
  day: z.string(),
  scanned: z.number().int(),
  printed: z.number().int(),
  /** Handed to the computer's print system, which does not say they printed: not counted printed. */
  spooled: z.number().int(),
  queued: z.number().int(),
  failed: z.number().int(),
});
export type ScanCounters = z.infer<typeof scanCounters>;

/** How many scans the Station screen's "recent scans" lists, and how many label previews it shows. */
export const RECENT_SCANS = 8;
export const RECENT_LABELS = 3;

/**
 * One line of the Station screen's recent scans, as the journal and the scan log keep it, so a
 * reload or a new page shows what the page before it showed. `print_cancelled`:
 * closed, its label cancelled in the print queue before it printed. `waits`: a queued scan's
 * labels wait (behind others, for their printer), not at the printer.
 */
export const recentScan = z.object({
  scanId: z.number().int(),
  code: z.string(),
  kind: z.enum([
    'printed',
    'spooled',
    'queued',
    'printer_down',
    'print_cancelled',
    'already_closed',
    'weight_check',
    'held',
    'on_shelf',
    'cancelled',
    'not_found',
    'ambiguous',
    'carrier_rejected',
    'service_unreachable',
    'skipped',
    'login_required',
    'error',
  ]),
  reprint: z.boolean(),
  waits: z.boolean(),
  carrier: z.string().nullable(),
  recipientName: z.string().nullable(),
  jobIds: z.array(z.number().int()),
});
export type RecentScan = z.infer<typeof recentScan>;
/** The recent list's kinds are outcome kinds too: one spelling, snake_case (a dash is a compile error). */
const recentKindsSnakeCase: [NotSnakeCase<RecentScan['kind']>] extends [never]
  ? true
  : { notSnakeCase: NotSnakeCase<RecentScan['kind']> } = true;
void recentKindsSnakeCase;

/** The Station screen's recent scans and its last labels (print jobs to preview), newest first. */
export const deskRecent = z.object({
  scans: z.array(recentScan).max(RECENT_SCANS),
  labels: z.array(z.object({ jobId: z.number().int(), carrier: z.string() })).max(RECENT_LABELS),
});
export type DeskRecent = z.infer<typeof deskRecent>;

export const workflowMethods = {
  /**
   * One scan: logged and placed in line at once; its outcome comes as a `scan.outcome` event.
   * `ref`: the page's name for it (see `scan.submitted`).
   */
  'scan.submit': {
    work: true,
    params: z.object({ code: scannedCode, ref: scanPageRef.optional() }).strict(),
    result: z.object({ scanId: z.number().int() }),
  },
  /**
   * The scan a page sent as `ref`, when the page's socket closed before its answer came: its
   * number (it arrived and is in the core's hands, its outcome comes as any other), or null (it
   * never arrived: nothing happens to it).
   */
  'scan.submitted': {
    reads: true,
    params: z.object({ ref: scanPageRef }).strict(),
    result: z.object({ scanId: z.number().int() }).nullable(),
  },
  /**
   * Enter on an already_closed shipment, then the reason (shared/contract/reprint.ts): print its
   * labels again; with `packageNumber`, that package's label alone.
   */
  'scan.reprint': {
    work: true,
    params: z
      .object({
        deliveryId,
        scanId: z.number().int().optional(),
        why: reprintWhy,
        packageNumber: packageNumber.optional(),
      })
      .strict(),
    result: scanOutcome,
  },
  /** Esc on an already_closed shipment. Null when that question was already answered. */
  'scan.skip': { params: z.object({ scanId: z.number().int() }).strict(), result: scanOutcome.nullable() },
  /** The worker's answer to the weight check (Enter: accept, Esc: hold). Null when that question is no longer open. */
  'scan.answerWeight': {
    params: z.object({ scanId: z.number().int(), accept: z.boolean() }).strict(),
    result: scanOutcome.nullable(),
  },
  /** The weight check the scan line waits on now (a page loaded or reconnected mid-question), or null. */
  'scan.question': { reads: true, params: none, result: scanOutcome.nullable() },
  /** The whole line, on (re)connect; its changes come as `scan.pending` events. */
  'scan.pending': { reads: true, params: none, result: pendingScans },
  'scan.counters': { reads: true, params: none, result: scanCounters },
  /** The recent scans and the last labels, on (re)connect and when a label of them was cancelled. */
  'scan.recent': { reads: true, params: none, result: deskRecent },
  /**
   * The last record this core told of each recent scan (oldest first, later records marked
   * `update`): a page whose socket was lost asks once it is connected again, for the outcomes and
   * the changes of them it did not hear.
   */
  'scan.told': { reads: true, params: none, result: z.array(scanOutcome).max(RECENT_SCANS) },

  /** `acceptWeight`: the worker accepted the weight check of this code (Enter): it is weighed again and collected. */
  'batch.collect': {
    work: true,
    params: z.object({ code: scannedCode, acceptWeight: z.literal(true).optional() }).strict(),
    result: batchCollected,
  },
  /** The whole batch, on (re)connect; its changes come as `batch.items` events. */
  'batch.items': { reads: true, params: none, result: batchItems },
  'batch.remove': { params: z.object({ code: scannedCode }).strict(), result: z.array(batchItem) },
  'batch.clear': { params: none, result: z.array(batchItem) },
  /** Closes every ready shipment (one request per carrier + collection place) and prints per carrier. */
  'batch.closeAll': { work: true, params: none, result: batchSummary },

  'endOfDay.candidates': {
    reads: true,
    params: z.object({ refresh: z.boolean().optional() }).strict(),
    result: z.object({
      candidates: z.array(protocolCandidate),
      /** Closed, unsent shipments sent from an address, per carrier: listed, with no protocol to make. */
      fromAddress: z.array(fromAddressGroup),
      refreshError: workflowError.nullable(),
    }),
  },
  'endOfDay.createProtocol': {
    work: true,
    params: z.object({ carrier: carrierCode, collectionPlace: placeCode }).strict(),
    result: z.object({ protocol: protocolRecord, jobId: z.number().int().nullable() }),
  },
  'endOfDay.protocols': { reads: true, params: none, result: z.array(protocolRecord) },
  'endOfDay.reprintProtocol': {
    params: z.object({ collectionProtocolId: z.number().int().positive() }).strict(),
    result: z.object({ jobId: z.number().int().nullable() }),
  },
  'endOfDay.pickupOrders': {
    work: true,
    reads: true,
    params: z
      .object({
        fromDay: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is YYYY-MM-DD.')
          .optional(),
      })
      .strict(),
    result: z.array(pickupOrder),
  },
};

export const workflowEvents = {
  /**
   * Every finished scan (also those run later from the queue), for the full-screen feedback; again,
   * marked `update`, whenever its labels' state changes after that (electron/workflows/scan/outcomeFollower.ts).
   */
  'scan.outcome': scanOutcome,
  /** Scans received and not yet finished: what changed in the line. */
  'scan.pending': pendingScansChange,
  /** What changed in the batch. */
  'batch.items': batchItemsChange,
};
