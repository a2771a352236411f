/** What a handler knows about its request. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Lang } from '../i18n';
import { decodeBody } from './decode';
import { envelope, ReplyNow } from './envelope';
import { requestFormat, type Format } from './formats';
import { httpMessages } from './messages';

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
}

export function header(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The request body decoded by its Content-type (spec "Common conventions" 1). An empty body is
 * `{}`. An unsupported Content-type -> 415, a body that does not parse -> 400, a body past a
 * limit (http/limits.ts) -> 413 or 422, all as envelopes in the response format; the handler
 * never sees a half-parsed body, and every object it sees has a null prototype.
 */
export function readBody(ctx: RequestContext): Record<string, unknown> {
  const text = ctx.rawBody.toString('utf8');
  if (text.trim() === '') return {};
  const contentType = header(ctx, 'content-type');
  const format = requestFormat(contentType);
  if (!format) {
    throw new ReplyNow(
      envelope(415, httpMessages.unsupportedContentType, { params: { contentType: contentType ?? '(none)' } }),
    );
  }
  const decoded = decodeBody(format, text);
  if (!decoded.ok)
    throw new ReplyNow(
      envelope(decoded.status, decoded.message, {
        params: decoded.params,
        ...(decoded.errors ? { errors: decoded.errors } : {}),
      }),
    );
  return decoded.value;
}
