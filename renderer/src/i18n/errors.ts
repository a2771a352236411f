/**
 * An error of the core ({ code, message, details? }: an RPC error, or a per-shipment error of a
 * workflow result) as text in the UI language. The core writes `message` in English for a
 * person reading its log; a code known here (messages/errors.ts, then the reason codes of
 * messages/reasons.ts) is shown translated, with the values its sentence named (a job id, a printer)
 * taken from `details`. Where the message is the shipping service's own words (already in the UI
 * language, spec "Common conventions" 9), they are kept. An unknown code shows its English sentence.
 *
 * Pure on purpose (no navigator/document): the translate function is passed in, so unit tests run it
 * in plain Node.
 */
import { serviceErrorCode, stationErrorCodes } from '../../../shared/errors/codes';
import { storageFailureKinds } from '../../../shared/storageFailure';
import type { MessageKey } from './en';
import { errors } from './messages/errors';
import { reasons } from './messages/reasons';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export interface MainError {
  code: string;
  message: string;
  details?: unknown;
}

const errorKeys: ReadonlySet<string> = new Set(Object.keys(errors.en));
const reasonKeys: ReadonlySet<string> = new Set(Object.keys(reasons.en));

/** Codes whose message is the service's own answer (a refusal, a missing protocol): shown as they are. */
const OWN_WORDS: ReadonlySet<string> = new Set(
  Object.entries(stationErrorCodes).flatMap(([code, shown]) => (shown === 'ownWords' ? [code] : [])),
);

type Details = Record<string, unknown>;
const detailsOf = (d: unknown): Details => (d && typeof d === 'object' && !Array.isArray(d) ? (d as Details) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Which sentence of a code the core meant, when it has several (see its `details`). */
function keyOf(code: string, d: Details): string {
  const base = `error.${code}`;
  const variant = (v: unknown) => (typeof v === 'string' && errorKeys.has(`${base}.${v}`) ? `${base}.${v}` : base);
  switch (code) {
    case 'account_invalid':
    case 'login_invalid_token':
    case 'preview_unavailable':
      return variant(d.reason);
    case 'login_failed':
      return d.error ? base : `${base}.noCode`;
    case 'login_port_unavailable':
      return d.code === 'EADDRINUSE' ? `${base}.inUse` : base;
    case 'job_not_retryable':
      return d.state === 'uncertain' || d.state === 'unconfirmed' ? `${base}.uncertain` : base;
    case 'printer_not_found':
      return Array.isArray(d.printerIds) ? `${base}.routing` : base;
    case 'protocol_made_elsewhere':
      return Array.isArray(d.protocolIds) && d.protocolIds.length > 0 ? `${base}.numbered` : base;
    case 'transport_refuses':
      // The service's update refused the packages (a box the search could not rate): its words say why.
      return text(d.serviceMessage) ? `${base}.said` : base;
    case 'service_timeout':
      return typeof d.seconds === 'number' ? `${base}.seconds` : base;
    case 'service_http':
      // Without a status (the health check's), its message is the service's own answer.
      return typeof d.status === 'number' ? `${base}.status` : '';
    default:
      return base;
  }
}

/** The values a translated sentence names, from `details`; some are translated themselves. */
function paramsOf(t: Translate, code: string, d: Details): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.join(', ');
  }
  if (typeof d.environment === 'string' && ['sandbox', 'test', 'production'].includes(d.environment)) {
    out.environment = t(`env.${d.environment}` as MessageKey);
  }
  if (code === 'storage_failed' && typeof d.kind === 'string' && storageFailureKinds.includes(d.kind as never)) {
    // What failed, in the UI language; the system's code (SQLITE_IOERR_WRITE) stays as it is.
    out.reason = t(`storage.kind.${d.kind}` as MessageKey);
  }
  if (code === 'login_exchange_failed') {
    // details = the service error: its own words when it answered, the station's reason otherwise.
    const kind = text(d.kind);
    out.reason =
      kind === 'http' || !kind
        ? (text(d.message) ?? '')
        : errorText(t, { code: serviceErrorCode(kind), message: text(d.message) ?? '' });
  }
  return out;
}

export function errorText(t: Translate, e: MainError): string {
  const d = detailsOf(e.details);
  // A service call of a form failed (electron/workflows/newShipment.ts): "what failed: why".
  const doing = text(d.doing);
  if (doing && errorKeys.has(`error.doing.${doing}`)) {
    const prefix = t(`error.doing.${doing}` as MessageKey, paramsOf(t, e.code, d));
    const own = text(d.serviceMessage) ?? e.message;
    const why = isTranslated(e.code) ? errorText(t, { code: e.code, message: own }) : own;
    return `${prefix}: ${why}`;
  }
  const key = keyOf(e.code, d);
  if (errorKeys.has(key)) {
    const out = t(key as MessageKey, paramsOf(t, e.code, d));
    // A value the sentence needs did not come (an older core): its English sentence says it all.
    return /\{\w+\}/.test(out) ? e.message : out;
  }
  if (reasonKeys.has(`reason.${e.code}`)) return t(`reason.${e.code}` as MessageKey);
  if (OWN_WORDS.has(e.code) || e.code.startsWith('service_')) return text(d.serviceMessage) ?? e.message;
  return e.message;
}

/** Whether a code is shown in the UI language (not with the core's English or the service's words). */
export function isTranslated(code: string): boolean {
  return (errorKeys.has(`error.${code}`) && code !== 'service_http') || reasonKeys.has(`reason.${code}`);
}

/** Why the health check found the service unreachable (the Status screen's service line). */
export function serviceErrorText(
  t: Translate,
  s: { error: string | null; errorCode: string | null; errorDetails: Record<string, string | number> | null },
): string {
  if (!s.error) return '';
  return s.errorCode
    ? errorText(t, { code: s.errorCode, message: s.error, details: s.errorDetails ?? undefined })
    : s.error;
}

interface FieldIssue {
  path?: string[];
  message?: string;
  code?: string;
  origin?: string;
  limit?: number;
}

/** One refused field in the UI language, from the zod issue code and limit the core sends. */
function fieldText(t: Translate, d: FieldIssue): string | null {
  const limit = d.limit ?? 0;
  const textual = d.origin === 'string' || d.origin === 'array';
  if (d.code === 'too_big') return t(textual ? 'error.field.tooLong' : 'error.field.tooBig', { limit });
  if (d.code === 'too_small')
    return textual
      ? limit <= 1
        ? t('error.field.required')
        : t('error.field.tooShort', { limit })
      : t('error.field.tooSmall', { limit });
  if (d.code === 'invalid_format') return t('error.field.format');
  if (d.code === 'invalid_type' || d.code === 'invalid_value') return t('error.field.type');
  // Any other refusal (a refine's own message is English): the catalogue's words, never zod's.
  return t('error.field.format');
}

/** The refused fields of an `invalid_params` answer, by their path ("packages.0.weight"), in the UI language. */
export function fieldErrors(t: Translate, error: MainError): Record<string, string> {
  if (error.code !== 'invalid_params' || !Array.isArray(error.details)) return {};
  const out: Record<string, string> = {};
  for (const d of error.details as FieldIssue[]) {
    const field = d.path?.join('.') ?? '';
    const shown = fieldText(t, d);
    if (shown && !out[field]) out[field] = shown;
  }
  return out;
}
