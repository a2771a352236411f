/**
 * Sorts what went wrong with a service call into what the workflow does next:
 * - unreachable: no answer, a timeout or a 5xx: the service did nothing we can rely on, and the
 *   client already checked a close with a search: the scan may wait in the queue and run later;
 * - login: the user must log in again (no retry loop);
 * - answered: the service answered with a 4xx; its message is shown as it is.
 */
import { isStationErrorCode, serviceErrorCode, type StationErrorCode } from '../../shared/errors/codes';
import { isServiceError } from '../api/index';

/** A failed call as a registered code (shared/errors/codes.ts) and the message to show or log. */
interface TroubleError {
  code: StationErrorCode;
  message: string;
}

export type Trouble =
  | { kind: 'unreachable'; error: TroubleError }
  | { kind: 'login'; error: TroubleError }
  | { kind: 'answered'; status: number | null; error: TroubleError; messages: string[]; deliveryIds: number[] };

export function classifyTrouble(err: unknown): Trouble {
  if (isServiceError(err)) {
    const error = { code: serviceErrorCode(err.kind), message: err.message };
    if (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'malformed')
      return { kind: 'unreachable', error };
    if (err.kind === 'login_required' || err.kind === 'auth') return { kind: 'login', error };
    if (err.status !== null && err.status >= 500) return { kind: 'unreachable', error };
    return {
      kind: 'answered',
      status: err.status,
      error,
      messages: err.errors.map((e) => e.message).filter(Boolean),
      deliveryIds: err.errors.map((e) => e.deliveryId).filter((d): d is number => d !== null),
    };
  }
  // The lookup's SourceError values carry the client's kind in `code` (electron/sync/shipmentSource.ts
  // toSourceError: serviceErrorCode(kind)). A `service_http` there has lost its status: it is shown, not
  // queued, so a lasting refusal never blocks the line of queued scans.
  if (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string') {
    const e = err as { code: string; message?: unknown };
    const error: TroubleError = {
      code: isStationErrorCode(e.code) ? e.code : 'service_error',
      message: typeof e.message === 'string' ? e.message : e.code,
    };
    if (['service_network', 'service_timeout', 'service_malformed', 'service_unreachable'].includes(e.code))
      return { kind: 'unreachable', error };
    if (['service_login_required', 'service_auth', 'logged_out', 'login_required'].includes(e.code))
      return { kind: 'login', error };
    return { kind: 'answered', status: null, error, messages: [], deliveryIds: [] };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'answered', status: null, error: { code: 'unexpected', message }, messages: [], deliveryIds: [] };
}
