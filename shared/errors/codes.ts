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
  not_in_cache: 'translated',
  /** Tracking of a closed shipment: the service returned no traces for it (electron/workflows/shipmentActions.ts). */
  no_traces: 'translated',
  /** A reprint from the scan screen the service did not allow (closed elsewhere meanwhile, cancelled). */
  reprint_refused: 'translated',
  unknown_state: 'translated',
  /** A scan the worker held at the weight check (Esc): nothing was sent (electron/workflows/scanToClose.ts). */
  weight_held: 'translated',
  /** Scale settings naming a scale without its port or device (electron/scale/scaleService.ts). */
  scale_no_path: 'translated',
  /** A scan waiting for the scale when the station closed (electron/scale/weighBeforeClose.ts). */
  station_closing: 'translated',
  /** A shipment sync stopped because the station closed (electron/sync/syncShipments.ts); it goes on at the next start. */
  sync_stopped: 'translated',
  /** Something the station did not expect (a bug): its English message, like `internal` in the log. */
  unexpected: 'ownWords',
} as const satisfies Record<string, 'translated' | 'ownWords'>;

export type StationErrorCode = keyof typeof stationErrorCodes;

/** The codes the renderer's catalogue must translate. */
export type TranslatedErrorCode = { [C in StationErrorCode]: (typeof stationErrorCodes)[C] extends 'translated' ? C : never }[StationErrorCode];

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
  'login-required': 'service_login_required',
} as const satisfies Record<string, StationErrorCode>;

type ServiceKind = keyof typeof serviceKindCodes;

/** The code of a service failure of this kind (unknown kinds: `service_error`). */
export function serviceErrorCode(kind: string): StationErrorCode {
  return Object.hasOwn(serviceKindCodes, kind) ? serviceKindCodes[kind as ServiceKind] : 'service_error';
}
