/** What a handler knows about its request. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Lang } from '../i18n';
import { decodeBody, type Body } from './decode';
import type { DecodePool } from './decodePool';
import { envelope, ReplyNow, type Reply } from './envelope';
import { requestFormat, type Format } from './formats';
import { httpMessages } from './messages';

/** The body decoded before dispatch (routes declared with `body`), or the answer refusing it. */
export type DecodedBody = { ok: true; value: Body } | { ok: false; reply: Reply };

export interface RequestContext {
  method: string;
  path: string;
  /** The request target as sent (path and query). */
  rawUrl: string;
  /** `http://host:port` of this sandbox, as the client addressed it. */
  baseUrl: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  lang: Lang;
  /** Response format negotiated from Accept (JSON for routes that do not negotiate). */
  format: Format;
  rawBody: Buffer;
  /** Set by the server before the handler runs, for routes that read a body (RouteOptions.body). */
  decoded?: DecodedBody;
}

export function header(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Decodes the request body before dispatch, off the event loop for large bodies (http/decode.ts):
 * by its Content-type (spec "Common conventions" 1), or always as JSON (the test controls). An
 * empty body is `{}`. An unsupported Content-type -> 415, a body that does not parse -> 400, a body
 * past a limit (http/limits.ts) -> 413 or 422, all as envelopes in the response format; the
 * handler sees the refusal only when it reads the body (readBody), so its own checks (token,
 * scope) come first as before.
 */
export async function decodeRequestBody(
  ctx: RequestContext,
  by: 'contentType' | 'json',
  pool: DecodePool | null,
): Promise<DecodedBody> {
  const text = ctx.rawBody.toString('utf8');
  if (text.trim() === '') return { ok: true, value: Object.create(null) as Body };
  const contentType = header(ctx, 'content-type');
  const format = by === 'json' ? 'json' : requestFormat(contentType);
  if (!format) {
    return {
      ok: false,
      reply: envelope(415, httpMessages.unsupportedContentType, { params: { contentType: contentType ?? '(none)' } }),
    };
  }
  const decoded = await decodeBody(format, text, pool);
  if (decoded.ok) return decoded;
  return {
    ok: false,
    reply: envelope(decoded.status, decoded.message, {
      params: decoded.params,
      ...(decoded.errors ? { errors: decoded.errors } : {}),
    }),
  };
}

/**
 * The request body as decodeRequestBody left it: the handler never sees a half-parsed body, and
 * every object it sees has a null prototype. A refused body throws its answer (ReplyNow).
 */
export function readBody(ctx: RequestContext): Record<string, unknown> {
  const decoded = ctx.decoded;
  // Only a route registered without `body` can get here: a bug, answered 500.
  if (!decoded) throw new Error(`${ctx.method} ${ctx.path} reads a body but its route does not declare one`);
  if (!decoded.ok) throw new ReplyNow(decoded.reply);
  return decoded.value;
}
