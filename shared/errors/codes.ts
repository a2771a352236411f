/**
 * The one registry of the station's error codes: every code a StationError, the RPC server, the
 * transport or a workflow's per-shipment result carries. The core's StationError takes only these
 * (electron/base/stationError.ts), and the renderer's catalogue must translate every `translated` one
 * (renderer/src/i18n/errors.ts checks it at compile time), so a new code without a translation
 * fails typecheck.
 *
 * To add a code: add it here with how it is shown, then its sentence `error.<code>` in English and
 * Czech in renderer/src/i18n/messages/errors.ts. Values a sentence names (a status, a port, a job
 * id) travel in the error's `details`, never inside the code: no code is built at run time.
 *
 * - `translated`: the UI shows the catalogue's sentence in its language;
 * - `ownWords`: the message is the service's (or the system's) own words, already in the UI
 *   language (spec "Common conventions" 9) or a system message, shown as it is.
 */
export const stationErrorCodes = {
  // The RPC server and the transport (electron/rpc, renderer/src/rpc/transport.ts).
  unavailable: 'translated',
  /** The page's socket closed after a request left and before its answer came: done or not is unknown. */
  reply_lost: 'translated',
  /** A scan whose answer was lost with the socket never reached the core (`scan.submitted` said so): nothing happens to it. */
  scan_not_received: 'translated',
  unknown_method: 'translated',
  invalid_params: 'translated',
  invalid_message: 'translated',
  internal: 'translated',
  /** The data folder cannot be written (electron/status/storageFailure.ts): details are the StorageFailure. */
  storage_failed: 'translated',

  // Accounts, login and the keychain (electron/auth).
  account_invalid: 'translated',
  account_no_secret: 'translated',
  account_no_url: 'translated',
  account_not_found: 'translated',
  /** The station's own login of the demo company was asked for another company. */
  account_not_demo: 'translated',
  keychain_unavailable: 'translated',
  login_access_denied: 'translated',
  login_browser_failed: 'translated',
  login_cancelled: 'translated',
  login_exchange_failed: 'translated',
  login_failed: 'translated',
  login_invalid_token: 'translated',
  login_port_unavailable: 'translated',
  login_timeout: 'translated',
  login_required: 'translated',
  logged_out: 'translated',
  no_account: 'translated',

  // The shipping service, as the client's ServiceError kinds (serviceErrorCode below).
  service_unreachable: 'translated',
  service_network: 'translated',
  service_timeout: 'translated',
  service_malformed: 'translated',
  service_auth: 'translated',
  service_login_required: 'translated',
  /** An HTTP refusal: the status in details.status; the service's words when there is none. */
  service_http: 'ownWords',
  service_error: 'ownWords',
  carrier_rejected: 'ownWords',
  rejected: 'ownWords',
  protocol_not_found: 'ownWords',
  protocol_refused: 'ownWords',
  /**
   * A Create refused for parcels another desk's protocol (or the web application's) already has
   * (electron/workflows/endOfDay.ts): details.protocolIds names those found, empty when none was.
   */
  protocol_made_elsewhere: 'translated',

  // Printers and the print queue (electron/printing, electron/queue).
  job_busy: 'translated',
  labels_in_printer: 'translated',
  job_not_cancellable: 'translated',
  job_not_found: 'translated',
  job_not_movable: 'translated',
  job_not_printable: 'translated',
  job_not_retryable: 'translated',
  job_not_uncertain: 'translated',
  printer_builtin: 'translated',
  printer_format_mismatch: 'translated',
  printer_not_found: 'translated',
  printer_not_virtual: 'translated',
  printer_routed: 'translated',
  printer_error: 'translated',
  preview_unavailable: 'translated',
  no_office_printer: 'translated',
  no_protocol_printer: 'translated',
  no_printer: 'translated',
  no_printer_route: 'translated',
  no_labels: 'translated',
  fonts_missing: 'translated',

  // Workflows (electron/workflows) and the shipment cache.
  batch_busy: 'translated',
  insert_outcome_unknown: 'translated',
  not_stored: 'translated',
  not_found: 'translated',
  not_demo: 'translated',
  not_demo_account: 'translated',
  demo_reset_failed: 'translated',
  already_cancelled: 'translated',
  already_closed: 'translated',
  cancelled: 'translated',
  close_no_answer: 'translated',
  closed_elsewhere: 'translated',
  not_closed: 'translated',
  /** A closed shipment whose labels did not reach the print queue (no labels came, or none could be stored). */
  not_printed: 'translated',
  not_in_cache: 'translated',
  /** Tracking of a closed shipment: the service returned no traces for it (electron/workflows/shipmentActions.ts). */
  no_traces: 'translated',
  /** A reprint from the scan screen the service did not allow (closed elsewhere meanwhile, cancelled). */
  reprint_refused: 'translated',
  /** One package's label asked of a parcel that has no such package. */
  package_not_in_parcel: 'translated',
  /**
   * One package's label asked where the labels are no separate labels per package: a PDF (spec
   * "GET /api/v3/deliveries/tickets": one PDF per request), or ZPL labels not one per package.
   */
  package_label_not_separate: 'translated',
  unknown_state: 'translated',
  /** A scan the worker held at the weight check (Esc): nothing was sent (electron/workflows/scanToClose.ts). */
  weight_held: 'translated',
  /** The problem shelf (electron/shelf/problemShelf.ts): a scan of a held parcel, nothing sent. */
  on_shelf: 'translated',
  /** A scan waiting in line whose parcel the worker put on the problem shelf: ended, nothing sent. */
  parcel_held: 'translated',
  /** A hold refused: the parcel's close is on its way to the service, or its scan is being worked on now. */
  hold_in_flight: 'translated',
  /** A hold refused: the parcel is closed already (its labels printed or on their way). */
  hold_closed: 'translated',
  /** A hold refused: the parcel is on the shelf already. */
  already_on_shelf: 'translated',
  /** The shelf's release asked by someone not signed in as a supervisor. */
  not_supervisor: 'translated',
  /** The hold is no longer on the shelf (closed or released meanwhile). */
  hold_not_found: 'translated',
  /** Packages at the desk (electron/workflows/packagesAtDesk.ts): the parcel is closed or cancelled, its packages cannot change. */
  packages_not_prepared: 'translated',
  /** Packages sent for a parcel not opened at this desk (or opened under another company). */
  packages_not_open: 'translated',
  /** The edited packages break a rule (details.problems: shared/packages/deskPackages.ts). */
  packages_invalid: 'translated',
  /** The chosen transport does not take the edited packages (details.agent, details.deliveryType): nothing sent. */
  transport_refuses: 'translated',
  /** The shipment changed at the service since it was opened (412): nothing sent; the worker's packages are kept. */
  packages_changed: 'translated',
  /** No settled weight on the scale (or no scale set up) when a package was to be weighed. */
  scale_no_weight: 'translated',
  /** Scale settings naming a scale without its port or device (electron/scale/scaleService.ts). */
  scale_no_path: 'translated',
  /** A scan waiting for the scale when the station closed (electron/scale/weighBeforeClose.ts). */
  station_closing: 'translated',
  /** A shipment sync stopped because the station closed (electron/sync/syncShipments.ts); it goes on at the next start. */
  sync_stopped: 'translated',
  /** Something the station did not expect (a bug): its English message, like `internal` in the log. */
  unexpected: 'ownWords',

  // Operators (ops): electron/operators.
  /** The desk requires a sign-in before a scan and nobody is signed in: the scan was not taken. */
  sign_in_required: 'translated',
  /** A desk code (a badge, a command barcode: shared/scan/deskCodes.ts) sent as a parcel's scan. */
  desk_code_not_parcel: 'translated',
  /** A badge no registered worker has: refused, nobody signed out. */
  badge_unknown: 'translated',
  /** A wrong PIN: refused, nobody signed out. */
  pin_wrong: 'translated',
  /** Too many wrong PINs for this worker: details.seconds to wait. */
  pin_locked: 'translated',
  /** The worker was removed or never existed. */
  operator_not_found: 'translated',
  /** A worker without a badge and without a PIN could never sign in. */
  operator_needs_badge_or_pin: 'translated',
  /** Another worker has this badge. */
  badge_taken: 'translated',
  /** A badge that is one of the station's command barcodes (or begins like them without being a badge). */
  badge_is_desk_code: 'translated',
  // Retention (keep)
  /** A printed job's label bytes left with the retention (Settings → Data kept); the shipment's reprint fetches its labels again. */
  label_bytes_removed: 'translated',

  // Camera (camera): electron/camera, proof of packing.
  /** A photo for a scan the station has no journal entry of: refused, nothing stored. */
  photo_scan_unknown: 'translated',
  /** The bytes sent as a photo are not a JPEG (details.reason). */
  photo_not_jpeg: 'translated',
  /** A photo over the size cap: details.maxBytes. */
  photo_too_large: 'translated',
  /** A photo whose file is gone from the data folder (deleted by retention or by hand). */
  photo_not_found: 'translated',
} as const satisfies Record<string, 'translated' | 'ownWords'>;

export type StationErrorCode = keyof typeof stationErrorCodes;

/**
 * The printer reason codes: why a printer is not ready, or a print job waits, failed or ended as it
 * did (a print job's `reason_code`, a printer's state, a PrintError's code: electron/printing,
 * electron/queue). The printing contract's `printerReasonCode` is the closed enum of these
 * (shared/contract/printing.ts). A `translated` one has its sentence `reason.<code>` in English and
 * Czech in renderer/src/i18n/messages/reasons.ts (a compile error otherwise); an `ownWords` one
 * carries the system's own words (lp, Windows, the device, the converter), shown as they are.
 */
export const printerReasonCodes = {
  // The printer and its connection (electron/printing: zplTcpDriver.ts, printerSocket.ts, zplHostStatus.ts, usbDeviceDriver.ts).
  offline: 'translated',
  timeout: 'translated',
  no_answer: 'translated',
  not_answering: 'translated',
  connection_lost: 'translated',
  stopped_reading: 'translated',
  answer_flood: 'translated',
  not_confirmed: 'translated',
  bad_status: 'translated',
  paper_out: 'translated',
  head_open: 'translated',
  paused: 'translated',
  ribbon_out: 'translated',
  buffer_full: 'translated',
  cutter_fault: 'translated',
  head_too_hot: 'translated',
  motor_too_hot: 'translated',
  printer_error: 'translated',
  label_not_printed: 'translated',
  wrong_format: 'translated',
  usb_error: 'ownWords',
  convert_failed: 'ownWords',
  // The computer's print system (cupsDriver.ts, windowsSpooler.ts, windowsPdfDriver.ts).
  no_queue: 'translated',
  queue_disabled: 'translated',
  spooler_missing: 'translated',
  spooler_incomplete: 'translated',
  held_by_spooler: 'translated',
  handed_to_spooler: 'translated',
  spooler_rejected: 'ownWords',
  // The print queue and the worker's acts on a job (electron/queue, electron/store/printJobsRepo.ts).
  no_printer: 'translated',
  in_printer: 'translated',
  waiting_in_queue: 'translated',
  not_sent: 'translated',
  replaced_by_reprint: 'translated',
  replaced_by_new_print: 'translated',
  confirmed_by_worker: 'translated',
  confirmed_by_printer_counter: 'translated',
  cancelled_by_worker: 'translated',
  retry_by_worker: 'translated',
  moved_by_worker: 'translated',
  interrupted_by_restart: 'translated',
  interrupted_in_printer: 'translated',
  sent_before_restart: 'translated',
  /**
   * A label held in the print queue for the worker's word: its parcel was found closed by a read,
   * not by the answer to this desk's close, so another desk may have closed it and printed its
   * label (electron/workflows/closeAndPrint.ts). Never printed by itself.
   */
  held_closed_elsewhere: 'translated',
  /**
   * A job's reason stored by an older version under a code this version does not know (renamed or
   * gone): read as this one, with the stored sentence as its words (printerReasonOf).
   */
  older_version_reason: 'ownWords',
} as const satisfies Record<string, 'translated' | 'ownWords'>;

export type PrinterReasonCode = keyof typeof printerReasonCodes;

/** The printer reason codes, for the printing contract's zod enum (shared/contract/printing.ts). */
export const printerReasonCodeList = Object.keys(printerReasonCodes) as [PrinterReasonCode, ...PrinterReasonCode[]];

/**
 * A printer reason code as stored (a print job's row, its history): one of the registry, or
 * `older_version_reason` for a code an older version stored that this one does not know, so what
 * it stored never breaks the contract (the printing events are checked against it).
 */
export function printerReasonOf(stored: string): PrinterReasonCode;
export function printerReasonOf(stored: string | null): PrinterReasonCode | null;
export function printerReasonOf(stored: string | null): PrinterReasonCode | null {
  if (stored === null) return null;
  return Object.hasOwn(printerReasonCodes, stored) ? (stored as PrinterReasonCode) : 'older_version_reason';
}

/**
 * Why a scan or a close waits or ended as it did (a journal entry's `reason_code`: electron/workflows),
 * beside the printer's reasons a scan's labels carry. Shown as the printer reasons are.
 */
const scanReasonCodes = {
  waiting_in_line: 'translated',
  login_required: 'translated',
  account_changed: 'translated',
  close_confirmed_by_search: 'translated',
  service_network: 'translated',
  service_timeout: 'translated',
  service_malformed: 'translated',
  service_unreachable: 'translated',
} as const satisfies Record<string, 'translated' | 'ownWords'>;

/** Every reason code: the printer's and the scan's. */
export const reasonCodes = { ...printerReasonCodes, ...scanReasonCodes } as const;

export type ReasonCode = keyof typeof reasonCodes;

/** The reason codes the renderer's catalogue must translate. */
export type TranslatedReasonCode = {
  [C in ReasonCode]: (typeof reasonCodes)[C] extends 'translated' ? C : never;
}[ReasonCode];

/** Every code that crosses the contract or lands in the journal: an error's or a reason's. */
export type Code = StationErrorCode | ReasonCode;

/** Every code, for the contract's zod enum of a workflow's error (shared/contract/workflows.ts). */
export const allCodes = [...new Set([...Object.keys(stationErrorCodes), ...Object.keys(reasonCodes)])] as [
  Code,
  ...Code[],
];

const knownCodes = new Set<string>(allCodes);

/**
 * A journal entry's reason code as stored: one this version knows, or `older_version_reason` (with
 * the sentence it stored as its words) for one an older version wrote, so a waiting scan's outcome
 * made from it stays within the contract (the events are checked against it), as printerReasonOf.
 */
export function codeOf(stored: string | null): Code | null {
  if (stored === null) return null;
  return knownCodes.has(stored) ? (stored as Code) : 'older_version_reason';
}

/**
 * How a journal entry ended, or that it waits (electron/store/journalRepo.ts, `outcome`); its
 * `reason_code` is a Code. The scan log's outcome of each is journalRepo's scanLogOutcome.
 */
export const journalOutcomes = [
  'waiting',
  'not_found',
  'ambiguous',
  'cancelled',
  'rejected',
  'closed_elsewhere',
  'already_closed',
  'held',
  'not_printed',
  'error',
] as const;
export type JournalOutcome = (typeof journalOutcomes)[number];

/**
 * What a desk step noted in a journal entry's history (electron/store/journalRepo.ts `note`): how
 * the weight went to the service (electron/scale/weighBeforeClose.ts), and whose label was scanned
 * in place of the expected one (`label_of_<deliveryId>`, electron/scale/labelCheck.ts).
 */
export const deskNoteCodes = ['weight_updated', 'within_tolerance', 'not_prepared'] as const;
export type DeskNoteCode = (typeof deskNoteCodes)[number] | `label_of_${number}`;

/**
 * Why a collected batch item is not ready (shared/contract/workflows.ts `batchItem.reason`): kept
 * with the item as this code and its values, put into words when shown, so a Czech screen never
 * shows a sentence stored in English (or in the language of another page).
 */
export const batchItemReasons = [
  'not_found',
  /** The service could not be asked; the code may still exist. */
  'not_asked',
  'ambiguous',
  /** Not a shipment code (empty, longer than any code). */
  'not_a_code',
  'cancelled',
  'already_closed',
  'unknown_state',
  /** The carrier refused the last close: its own words (the service's, spec "Errors") kept beside the code. */
  'rejected',
  'closed_elsewhere',
  /** The last close did not go through (the weight was not taken, no answer): close it again. */
  'not_closed',
] as const;

/** What the scan log says of a scan (shared/contract/shipments.ts `scanOutcome`, the Scan log screen). */
export const scanLogOutcomes = [
  'pending',
  'closed',
  'printed',
  'reprinted',
  /** Handed to the print system, which does not say whether it printed: not counted printed. */
  'spooled',
  'queued',
  /** Closed, its label cancelled in the print queue before it printed: neither printed nor waiting. */
  'print_cancelled',
  'already_closed',
  'skipped',
  'cancelled',
  'not_found',
  'ambiguous',
  'rejected',
  'error',
] as const;
export type ScanLogOutcome = (typeof scanLogOutcomes)[number];

/**
 * One naming style, snake_case: a code with a dot, a dash or a capital (`account.invalid`,
 * `not-found`) is a compile error that names it. Exported for the contract's own unions
 * (the scan outcome kinds, shared/contract/workflows.ts).
 */
export type NotSnakeCase<C extends string> = C extends `${string}${'.' | '-' | ' '}${string}`
  ? C
  : C extends Lowercase<C>
    ? never
    : C;
const everyCodeSnakeCase: [
  NotSnakeCase<Code | JournalOutcome | ScanLogOutcome | (typeof deskNoteCodes)[number]>,
] extends [never]
  ? true
  : { notSnakeCase: NotSnakeCase<Code | JournalOutcome | ScanLogOutcome | (typeof deskNoteCodes)[number]> } = true;
void everyCodeSnakeCase;

/** The codes the renderer's catalogue must translate. */
export type TranslatedErrorCode = {
  [C in StationErrorCode]: (typeof stationErrorCodes)[C] extends 'translated' ? C : never;
}[StationErrorCode];

export function isStationErrorCode(code: string): code is StationErrorCode {
  return Object.hasOwn(stationErrorCodes, code);
}

/** The service client's failure kinds (electron/api/errors.ts ServiceErrorKind) as codes. */
const serviceKindCodes = {
  network: 'service_network',
  timeout: 'service_timeout',
  malformed: 'service_malformed',
  http: 'service_http',
  auth: 'service_auth',
  login_required: 'service_login_required',
} as const satisfies Record<string, StationErrorCode>;

type ServiceKind = keyof typeof serviceKindCodes;

/** The code of a service failure of this kind (unknown kinds: `service_error`). */
export function serviceErrorCode(kind: string): StationErrorCode {
  return Object.hasOwn(serviceKindCodes, kind) ? serviceKindCodes[kind as ServiceKind] : 'service_error';
}
