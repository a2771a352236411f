/**
 * The response envelope (spec "Common conventions" 2 and "Errors"): code, status, message,
 * data (data-bearing successes), errors (validation failures only). Messages stay `Msg` until
 * the response is written, so the language is picked in one place.
 */
import { t, type Lang, type Msg } from '../i18n';
import { ECHO_MAX_CHARS, ECHO_MAX_DEPTH, ECHO_MAX_ENTRIES } from './limits';
import { plainNumber, wellFormed } from './text';

/** One validation error (spec "Errors"): `field` starts with the failing shipment's [index]. */
export interface ErrorItem {
  field: string;
  value: unknown;
  message: Msg;
  params?: Record<string, string | number>;
}

export interface EnvelopeReply {
  kind: 'envelope';
  status: number;
  message: Msg;
  params?: Record<string, string | number>;
  data?: unknown;
  errors?: ErrorItem[];
  headers?: Record<string, string>;
}

/** A body written as is (HTML pages, token endpoint JSON, 304, 414). */
export interface RawReply {
  kind: 'raw';
  status: number;
  body: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Reply = EnvelopeReply | RawReply;

export function envelope(
  status: number,
  message: Msg,
  extra: Partial<Omit<EnvelopeReply, 'kind' | 'status' | 'message'>> = {},
): EnvelopeReply {
  return { kind: 'envelope', status, message, ...extra };
}

export function notModified(etag: string): RawReply {
  return { kind: 'raw', status: 304, body: '', headers: { etag } };
}

/** The envelope as a plain object in the caller's language. */
export function renderEnvelope(reply: EnvelopeReply, lang: Lang): Record<string, unknown> {
  const body: Record<string, unknown> = {
    code: reply.status,
    status: reply.status < 400 ? 'success' : 'error',
    message: t(reply.message, lang, reply.params),
  };
  if (reply.data !== undefined) body.data = reply.data;
  if (reply.errors !== undefined) {
    body.errors = reply.errors.map((e) => ({
      message: t(e.message, lang, e.params),
      field: wellFormed(e.field),
      value: echoOf(e.value),
    }));
  }
  return body;
}

/**
 * A refused value as errors[].value, bounded so that no value can break an encoder or make the
 * answer huge: strings cut to ECHO_MAX_CHARS characters (and made valid Unicode), at most
 * ECHO_MAX_ENTRIES entries of a list or object, nesting cut at ECHO_MAX_DEPTH (a deeper container
 * is written as the text `[…]` / `{…}`), numbers that are not finite as null, numbers JSON would
 * write with an exponent as plain decimal text.
 */
export function echoOf(value: unknown, depth = 0): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string')
    return wellFormed(value.length > ECHO_MAX_CHARS ? `${value.slice(0, ECHO_MAX_CHARS)}…` : value);
  // A number JSON would write in exponent form is echoed as its plain decimal text.
  if (typeof value === 'number')
    return !Number.isFinite(value) ? null : /e/i.test(String(value)) ? plainNumber(value) : value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return echoOf(String(value), depth);
  if (typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    if (depth >= ECHO_MAX_DEPTH) return '[…]';
    return value.slice(0, ECHO_MAX_ENTRIES).map((v) => echoOf(v, depth + 1));
  }
  if (depth >= ECHO_MAX_DEPTH) return '{…}';
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(value).slice(0, ECHO_MAX_ENTRIES))
    out[echoOf(k) as string] = echoOf((value as Record<string, unknown>)[k], depth + 1);
  return out;
}

/**
 * Thrown only inside the HTTP layer to stop a handler with a finished reply (a body that does
 * not parse, a missing token); the server writes it. Domain failures are values, not throws.
 */
export class ReplyNow extends Error {
  constructor(readonly reply: Reply) {
    super(`reply ${reply.status}`);
  }
}
