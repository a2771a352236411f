/**
 * The metrics endpoint: `GET /metrics` in Prometheus' text format, for a scraper that sends the
 * desk's bearer token (RFC 6750 2.1). It shares the station's local listeners' guards
 * (host/localListener.ts: origin-form targets only, header and request time limits, refusals
 * logged without flooding) because it may listen on a LAN address on purpose. Anything else:
 * 400 for a target that is not a plain path, 404 for another path, 405 for another method, 401
 * with `WWW-Authenticate: Bearer` for a missing or wrong token, all given before any body is
 * asked for. At most a few connections per remote address. The token is never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import type { Registry } from 'prom-client';
import { createLocalServer, refusalLog, requestTarget } from '../host/localListener';
import type { Logger } from '../rpc/rpcServer';

const METRICS_PATH = '/metrics';
/** Open connections at once, in all and from one remote address. */
const MAX_CONNECTIONS = 32;
const MAX_CONNECTIONS_PER_ADDRESS = 4;
const REALM = 'label-station metrics';

export interface MetricsEndpoint {
  /** The scrape URL (`http://address:port/metrics`). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Same-length digests compared in constant time: the token's length does not leak either. */
function sameToken(given: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return m ? m[1]! : null;
}

export async function startMetricsEndpoint(o: {
  address: string;
  port: number;
  registry: Registry;
  /** The desk's token now (a new one takes effect at the next request). */
  token(): string;
  log: Logger;
}): Promise<MetricsEndpoint> {
  const refusals = refusalLog(o.log);
  // One scrape at a time: scrapers that arrive together share its text (bounded work per request).
  let inFlight: Promise<string> | null = null;
  const scrape = () =>
    (inFlight ??= o.registry.metrics().finally(() => {
      inFlight = null;
    }));

  const answer = (res: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
    res.end(text);
  };
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      const url = requestTarget(req.url);
      if (!url) return answer(res, 400, 'Bad request.\n');
      if (url.pathname !== METRICS_PATH) return answer(res, 404, 'Not found.\n');
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return answer(res, 405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
      const given = bearerOf(req.headers.authorization);
      if (!given || !sameToken(given, o.token())) {
        refusals.note('metrics endpoint refused a request without the right token', {
          from: req.socket.remoteAddress ?? null,
          token: given ? 'wrong' : 'missing',
        });
        // RFC 6750 3: the challenge, and `invalid_token` when a token was sent but is not the desk's.
        const challenge = given ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
        return answer(res, 401, 'Unauthorized.\n', { 'www-authenticate': challenge });
      }
      const body = await scrape();
      res.writeHead(200, {
        'content-type': o.registry.contentType,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      refusals.note('metrics endpoint request failed', { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) answer(res, 500, 'The metrics could not be read.\n');
      else res.end();
    }
  };
  const server = createLocalServer((req, res) => void serve(req, res));
  // A scraper needs one or two connections; a flood of idle ones is cut off, not served. The cap
  // is per remote address too, so one host (the endpoint may listen on the LAN) holding idle
  // connections cannot lock out the warehouse's Prometheus until the header time limit frees them.
  server.maxConnections = MAX_CONNECTIONS;
  server.maxRequestsPerSocket = 1000;
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const from = socket.remoteAddress ?? '';
    const held = perAddress.get(from) ?? 0;
    if (held >= MAX_CONNECTIONS_PER_ADDRESS) {
      refusals.note('metrics endpoint refused a connection: too many open from one address', { from });
      socket.destroy();
      return;
    }
    perAddress.set(from, held + 1);
    socket.once('close', () => {
      const left = (perAddress.get(from) ?? 1) - 1;
      if (left > 0) perAddress.set(from, left);
      else perAddress.delete(from);
    });
  });
  server.on('upgrade', (_req, socket) => {
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  const host = o.address.includes(':') ? `[${o.address}]` : o.address;
  return {
    url: `http://${host}:${port}${METRICS_PATH}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
