/**
 * Errors of the service client are values: a kind a UI can translate, the HTTP status, the
 * service's own message (Czech when the UI asked for it, spec "Common conventions" 9) and the
 * validation errors mapped back to the shipment they belong to (spec "Errors").
 */

export type ServiceErrorKind =
  /** The service answered with an error status (4xx/5xx) and a readable body. */
  | 'http'
  /** No answer: refused, reset, dropped, DNS. */
  | 'network'
  /** No answer within the call's time limit. */
  | 'timeout'
  /** An answer the client cannot read (not JSON, wrong envelope, a field of the wrong type). */
  | 'malformed'
  /** The service refused the token even after one renewal, or refused the client credentials. */
  | 'auth'
  /** The refresh token is invalid or the permission was withdrawn: the user must log in again. */
  | 'login_required';

/** One validation error, with the index of the failing shipment in the request (and its ids when known). */
export interface ShipmentFieldError {
  /** The service's path, e.g. "[0].recipient.phone". */
  field: string;
  message: string;
  value: unknown;
  /** Zero-based index of the shipment in the request, from the path's leading "[n]"; null when absent. */
  index: number | null;
  /** The path without its leading index ("recipient.phone"). */
  path: string;
  /** The request item's deliveryId (edit, close, cancel) or externalId (insert), when the item has one. */
  deliveryId: number | null;
  externalId: string | null;
}

/**
 * After a lost answer to a close or insert, the client checks with a search what happened:
 * 'not-applied' = nothing happened (safe to try again); 'unknown' = the check failed too.
 */
export type UnknownOutcome = 'not-applied' | 'unknown';

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status: number | null;
  readonly errors: ShipmentFieldError[];
  /** Set on insert failures without an answer, after the check by search. */
  readonly outcome: UnknownOutcome | null;

  constructor(
    kind: ServiceErrorKind,
    message: string,
    extra: {
      status?: number | null;
      errors?: ShipmentFieldError[];
      outcome?: UnknownOutcome | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = extra.status ?? null;
    this.errors = extra.errors ?? [];
    this.outcome = extra.outcome ?? null;
  }

  /** Plain data for logs and RPC (no stack, no cause). */
  toJSON() {
    return { kind: this.kind, status: this.status, message: this.message, errors: this.errors, outcome: this.outcome };
  }

  withOutcome(outcome: UnknownOutcome): ServiceError {
    return new ServiceError(this.kind, this.message, {
      status: this.status,
      errors: this.errors,
      outcome,
      cause: this.cause,
    });
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** Request items as far as mapping errors needs them. */
type ItemIds = { deliveryId?: unknown; externalId?: unknown } | undefined;

/** Maps the service's `errors[]` back to the request's items (spec "Errors": leading bracketed index). */
export function mapFieldErrors(raw: unknown, items: readonly ItemIds[] = []): ShipmentFieldError[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((e): ShipmentFieldError => {
    const o = (e && typeof e === 'object' ? e : {}) as Record<string, unknown>;
    const field = typeof o.field === 'string' ? o.field : '';
    const m = /^\s*\[(\d+)\]\.?(.*)$/.exec(field);
    const index = m ? Number(m[1]) : null;
    const item = index === null ? undefined : items[index];
    const deliveryId = item && typeof item.deliveryId === 'number' ? item.deliveryId : null;
    const externalId = item && typeof item.externalId === 'string' ? item.externalId : null;
    return {
      field,
      message: typeof o.message === 'string' ? o.message : o.message == null ? '' : JSON.stringify(o.message),
      value: o.value,
      index,
      path: m ? m[2]! : field,
      deliveryId,
      externalId,
    };
  });
}
