/**
 * The response envelope (spec "Common conventions" 2 and "Errors"): code, status, message,
 * data (data-bearing successes), errors (validation failures only). Messages stay `Msg` until
 * the response is written, so the language is picked in one place.
 */
import { t, type Lang, type Msg } from '../i18n';

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

export function envelope(status: number, message: Msg, extra: Partial<Omit<EnvelopeReply, 'kind' | 'status' | 'message'>> = {}): EnvelopeReply {
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
    body.errors = reply.errors.map((e) => ({ message: t(e.message, lang, e.params), field: e.field, value: e.value ?? null }));
  }
  return body;
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
