/**
 * The HTTP server: reads the request, negotiates the format, dispatches, and writes the reply
 * in the client's format and language. Anything a handler throws becomes a 500 envelope in the
 * requested format; no stack trace ever reaches the client (spec "Common conventions"). Input can
 * never cause a 500: bodies are decoded under the limits of http/limits.ts.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { langOf } from '../i18n';
import { decodeRequestBody, type RequestContext } from './context';
import type { DecodePool } from './decodePool';
import { encodeBody } from './encode';
import { envelope, renderEnvelope, ReplyNow, type Reply } from './envelope';
import { mediaTypeOf, negotiateFormat, type Format } from './formats';
import { MAX_BODY_BYTES } from './limits';
import { httpMessages } from './messages';
import type { Router } from './router';

/** Spec "Limits": URL length about 8000 bytes; longer gives 414. Measured on {base_url} + path + query. */
export const MAX_URL_BYTES = 8000;

export interface ServerHooks {
  /**
   * Runs before dispatch (fault injection): a Reply to send instead of the handler's, 'handled'
   * when it dealt with the socket itself (reset, hang), or null to go on.
   */
  intercept?(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    ctx: RequestContext,
  ): Promise<Reply | 'handled' | null>;
  /** Called with unexpected errors (never sent to the client). */
  onError?(err: unknown): void;
}

function writeReply(res: http.ServerResponse, reply: Reply, format: Format, lang: 'en' | 'cs', head: boolean): void {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let body: string | Buffer;
  if (reply.kind === 'envelope') {
    headers['content-type'] = `${mediaTypeOf[format]}; charset=UTF-8`;
    headers['vary'] = 'Accept, Accept-Language';
    try {
      body = encodeBody(format, renderEnvelope(reply, lang));
    } catch (err) {
      // Only a bug can get here (every value is bounded and valid Unicode); the client still
      // gets an envelope in its format.
      if (reply.status === 500) throw err;
      return writeReply(res, envelope(500, httpMessages.internalError), format, lang, head);
    }
  } else {
    if (reply.contentType) headers['content-type'] = reply.contentType;
    body = reply.body;
  }
  if (reply.status !== 304 && reply.status !== 204) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(reply.status, headers);
  res.end(head || reply.status === 304 ? undefined : body);
}

/**
 * The body, or null when it is larger than MAX_BODY_BYTES: then nothing more is buffered (a
 * declared Content-Length over the limit is refused before any byte is read) and the rest is
 * drained, so a huge body costs the loop nothing but reading.
 */
function readRequestBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Request line and headers together (Node's maxHeaderSize); past it the HTTP parser stops reading. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * What Node's HTTP parser refuses before any handler runs. Node's own answers are bare (no type,
 * no body); these say why in plain text, as the 414 does (spec: its body is not in the requested
 * format). Other parser errors keep Node's answers (400, 408 for a request that took too long).
 */
function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // The parser reports every later packet of the connection again: the first answer stands.
  if (answered.has(socket)) return;
  answered.add(socket);
  // No answer while a request of this connection is still being answered (its handler may
  // write later): the connection is just closed, as Node does once that answer has begun.
  const current = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (!socket.writable || current) return void socket.destroy(err);
  {
    const plain = (status: string, text: string) =>
      `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      // Which part was too long is not known here (the parser stops inside some packet).
      socket.write(
        plain(
          '431 Request Header Fields Too Large',
          `431 Request Header Fields Too Large: the request line and headers together must stay within 64 KiB (a URL over ${MAX_URL_BYTES} bytes is refused with 414).\n`,
        ),
      );
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    else socket.write('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  }
  // Closed gently, the rest of the request still read and dropped: destroyed with unread bytes,
  // the socket would be reset before the client has read the answer.
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}
const answered = new WeakSet<Duplex>();

/** The request target as a URL; a target no URL parser accepts (`//`, `//x:y`) is read as a bare path. */
function urlOf(rawUrl: string): URL {
  try {
    return new URL(rawUrl, 'http://sandbox.invalid');
  } catch {
    return new URL(`/${encodeURIComponent(rawUrl)}`, 'http://sandbox.invalid');
  }
}

/** `bodies`: the worker threads that decode large bodies (null: all in this thread). */
export function createSandboxServer(
  router: Router,
  baseUrlOf: (req: http.IncomingMessage) => string,
  hooks: ServerHooks = {},
  bodies: DecodePool | null = null,
): http.Server {
  // A larger header limit than Node's 16 KB, so a long search URL reaches the 414 rule instead of
  // being cut off by the HTTP parser with a bare 431.
  // Idle keep-alive connections stay open a minute (Node's default is 5 s). A server that drops
  // an idle socket while a client is reusing it answers that request with ECONNRESET, which a
  // client must not retry blindly for a POST or PATCH; a long idle time leaves the closing to the
  // client, which knows when it reuses a socket.
  // Headers that never end (slowloris) are answered 408 and closed after 10 s, checked every second.
  const timeouts = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 };
  const server = http.createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 60_000, ...timeouts },
    (req, res) => {
      void handle(req, res).catch((err: unknown) => {
        hooks.onError?.(err);
        if (res.headersSent) return void res.destroy();
        const format = negotiateFormat(req.headers['accept']) ?? 'json';
        const head = (req.method ?? '').toUpperCase() === 'HEAD';
        try {
          writeReply(
            res,
            envelope(500, httpMessages.internalError),
            format,
            langOf(req.headers['accept-language']),
            head,
          );
        } catch {
          res.destroy();
        }
      });
    },
  );

  server.on('clientError', answerClientError);
  return server;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const baseUrl = baseUrlOf(req);
    const url = urlOf(rawUrl);
    const lang = langOf(req.headers['accept-language']);
    const negotiated = negotiateFormat(req.headers['accept']);
    const format: Format = negotiated ?? 'json';
    const head = method === 'HEAD';

    // Spec "GET /api/v3/deliveries": the 414 body is not in the requested format.
    if (Buffer.byteLength(baseUrl + rawUrl) > MAX_URL_BYTES) {
      req.resume();
      const text = `414 URI Too Long: ${httpMessages.uriTooLong[lang].replace('{limit}', String(MAX_URL_BYTES))}\n`;
      return writeReply(
        res,
        { kind: 'raw', status: 414, body: text, contentType: 'text/plain; charset=UTF-8' },
        format,
        lang,
        head,
      );
    }

    const rawBody = await readRequestBody(req);
    const ctx: RequestContext = {
      method,
      path: url.pathname,
      rawUrl,
      baseUrl,
      query: url.searchParams,
      headers: req.headers,
      lang,
      format,
      rawBody: rawBody ?? Buffer.alloc(0),
    };
    const intercepted = hooks.intercept ? await hooks.intercept(req, res, ctx) : null;
    if (intercepted === 'handled') return;
    if (intercepted) return writeReply(res, intercepted, format, lang, head);
    if (rawBody === null)
      return writeReply(
        res,
        envelope(413, httpMessages.bodyTooLarge, { params: { limit: MAX_BODY_BYTES } }),
        format,
        lang,
        head,
      );

    const match = router.match(method, url.pathname);
    if (match.kind === 'none')
      return writeReply(
        res,
        envelope(404, httpMessages.notFound, { params: { path: url.pathname } }),
        format,
        lang,
        head,
      );
    if (match.kind === 'method') {
      const allowed = match.allowed.join(', ');
      return writeReply(
        res,
        envelope(405, httpMessages.methodNotAllowed, { params: { method, allowed }, headers: { allow: allowed } }),
        format,
        lang,
        head,
      );
    }
    if (match.route.options.api && negotiated === null) {
      return writeReply(
        res,
        envelope(406, httpMessages.notAcceptable, { params: { accept: String(req.headers['accept']) } }),
        'json',
        lang,
        head,
      );
    }
    const bodyBy = match.route.options.body;
    if (bodyBy) ctx.decoded = await decodeRequestBody(ctx, bodyBy, bodies);
    let reply: Reply;
    try {
      reply = await match.route.handler(ctx);
    } catch (err) {
      if (!(err instanceof ReplyNow)) throw err;
      reply = err.reply;
    }
    writeReply(res, reply, format, lang, head);
  }
}
