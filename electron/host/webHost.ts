/**
 * The loopback web host: serves the built renderer and the WebSocket bridge so the same station
 * runs in an ordinary browser (a thin-client station, and how Playwright drives the UI).
 *
 * Security: binds 127.0.0.1 only; the Host header must name the loopback address (DNS
 * rebinding). The static files are the public renderer build and need no token. The station
 * itself is reached only through the WebSocket, which must come from this host's Origin and
 * present the per-launch token as a subprotocol (`station-token.<token>`, beside `station-rpc`).
 * The page takes the token from the printed URL, keeps it in sessionStorage (this tab only) and
 * drops it from the address bar (renderer/src/rpc/transport.ts).
 *
 * No cookie: browsers send cookies to every server on 127.0.0.1 whatever its port (RFC 6265 8.5),
 * so a token kept in a cookie went to any other local server the same browser visited.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { BAD_REQUEST_RAW, createLocalServer, refusalLog, requestTarget } from './localListener';
import type { Logger, RpcServer } from '../rpc/rpcServer';
import { serveRpcSocket } from '../rpc/wsBridge';

/** The subprotocol the page asks for; the server answers with it, never with the token one. */
export const RPC_SUBPROTOCOL = 'station-rpc';
/** The prefix of the subprotocol that carries the token (base64url is a valid protocol token). */
export const TOKEN_SUBPROTOCOL_PREFIX = 'station-token.';

/** The subprotocols a client offers to open the RPC socket with `token`. */
export function rpcSubprotocols(token: string): string[] {
  return [RPC_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + token];
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
};

export interface WebHostOptions {
  rpc: RpcServer;
  log: Logger;
  /** Folder with the built renderer (index.html and assets). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Defaults to a fresh random token for every launch. */
  token?: string;
}

export interface WebHost {
  /** The URL to open, with the token (read by the page, never sent back in a cookie). */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function sameToken(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a socket offered in Sec-WebSocket-Protocol, if any. */
function subprotocolToken(header: string | undefined): string | undefined {
  for (const p of (header ?? '').split(',')) {
    const v = p.trim();
    if (v.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) return v.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  }
  return undefined;
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const root = path.resolve(opts.staticDir);
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const csp = () =>
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "media-src 'self' data: blob:",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');

  const refuse = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const refusals = refusalLog(opts.log);
  // Every failure ends in the catch below (a 400 or the reply cut short): the promise never rejects.
  const serveFile = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      if (!allowedHosts().has(req.headers.host ?? '')) return refuse(res, 421, 'Unknown host.');
      const url = requestTarget(req.url);
      if (!url) return refuse(res, 400, 'Bad request.');
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
      let rel = decodeURIComponent(url.pathname);
      if (rel === '/' || rel === '') rel = '/index.html';
      const file = path.resolve(root, '.' + rel);
      if (!file.startsWith(root + path.sep)) return refuse(res, 404, 'Not found.');
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return refuse(res, 404, 'Not found.');
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'content-security-policy': csp(),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': file.endsWith('index.html') ? 'no-store' : 'max-age=3600',
      });
      if (req.method === 'HEAD') return res.end();
      // A file that vanishes under the read ends this reply, not the process.
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch (err) {
      refusals.note('web host request failed', { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) refuse(res, 400, 'Bad request.');
      else res.end();
    }
  };
  const server = createLocalServer((req, res) => void serveFile(req, res));

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 4 * 1024 * 1024,
    // Answer with the plain protocol name: the token is never echoed back.
    handleProtocols: (protocols) => (protocols.has(RPC_SUBPROTOCOL) ? RPC_SUBPROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    // Everything a client sent is read inside this guard: a request target no URL parser takes
    // (`//[`, `http://[`) or any other surprise is a 400 and a closed socket, never an exception
    // out of the handler (which would end the process). Node hands an upgrade's socket over
    // without its own 'error' listener: a client's reset must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    try {
      const url = requestTarget(req.url);
      const origin = req.headers.origin;
      const admitted =
        url?.pathname === '/rpc' &&
        allowedHosts().has(req.headers.host ?? '') &&
        origin !== undefined &&
        [`http://127.0.0.1:${port}`, `http://localhost:${port}`].includes(origin) &&
        sameToken(subprotocolToken(req.headers['sec-websocket-protocol']), token);
      if (!admitted) {
        refusals.note('web host refused a socket', { origin: origin ?? null });
        socket.end(url ? 'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n' : BAD_REQUEST_RAW);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveRpcSocket(ws, opts.rpc, opts.log));
    } catch (err) {
      refusals.note('web host refused a malformed socket request', {
        error: err instanceof Error ? err.message : String(err),
      });
      socket.end(BAD_REQUEST_RAW);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
