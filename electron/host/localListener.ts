/**
 * What every HTTP listener the station opens on 127.0.0.1 (the web host, the OAuth loopback
 * redirect) shares in front of its own rules, because any local program or web page can send it
 * anything:
 *
 * - the request target is read without throwing: only the origin form (`/path?query`, RFC 9112
 *   3.2.1) is taken; `//[`, `//host/...`, `http://[`, absolute and authority forms are null and
 *   the listener answers 400 (a browser never sends anything else to these listeners);
 * - `Expect: 100-continue` is answered with the final status, never "100 Continue" (createLocalServer);
 * - slow headers (slowloris) are cut off: Node answers 408 and closes a request whose headers
 *   have not arrived in `headersTimeout`, checked every second;
 * - refusals are logged, but a flood of them is not: `refusalLog` writes the first few lines of
 *   each kind a minute and then one line with how many more there were, so a flood cannot
 *   rotate the real lines out of the log's 25 MB cap.
 */
import http from 'node:http';
import type { Logger } from '../rpc/rpcServer';

/** A raw 400 for a socket that never became a request/response pair (an upgrade). */
export const BAD_REQUEST_RAW = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/** Timeouts for a local listener: a request's headers within 10 s, the whole request within 30 s. */
export const LISTENER_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const satisfies http.ServerOptions;

/**
 * An HTTP server on the shared timeouts. `Expect: 100-continue` goes to the same handler: Node
 * would otherwise say "100 Continue" before the listener's own checks and so invite the body of a
 * request they refuse; the final answer is given at once instead (RFC 9110 10.1.1: a final status
 * when the request line and headers decide it). None of these listeners reads a request body.
 */
export function createLocalServer(handler: http.RequestListener): http.Server {
  const server = http.createServer(LISTENER_TIMEOUTS, handler);
  server.on('checkContinue', handler);
  return server;
}

/** The request target as a URL when it is a plain origin-form path, else null (never throws). */
export function requestTarget(raw: string | undefined): URL | null {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    return new URL(raw, 'http://127.0.0.1');
  } catch {
    return null;
  }
}

export interface RefusalLog {
  /** A warn line for this refusal, unless `message` was logged `perWindow` times this window. */
  note(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Refusal lines, at most `perWindow` per message and window; the rest are counted and summed up
 * in one line when the window ends (a timer that does not keep the process alive).
 */
export function refusalLog(
  log: Logger,
  o: { perWindow?: number; windowMs?: number; now?: () => number } = {},
): RefusalLog {
  const perWindow = o.perWindow ?? 5;
  const windowMs = o.windowMs ?? 60_000;
  const now = o.now ?? Date.now;
  const windows = new Map<string, { started: number; logged: number; suppressed: number }>();
  const summarise = (message: string) => {
    const w = windows.get(message);
    windows.delete(message);
    if (w && w.suppressed > 0)
      log.warn(`${message} (and more, not logged one by one)`, {
        more: w.suppressed,
        withinSeconds: Math.round(windowMs / 1000),
      });
  };
  return {
    note(message, fields) {
      let w = windows.get(message);
      if (w && now() - w.started >= windowMs) {
        summarise(message);
        w = undefined;
      }
      if (!w) {
        const fresh = { started: now(), logged: 0, suppressed: 0 };
        windows.set(message, fresh);
        setTimeout(() => {
          if (windows.get(message) === fresh) summarise(message);
        }, windowMs).unref();
        w = fresh;
      }
      if (w.logged < perWindow) {
        w.logged++;
        log.warn(message, fields);
      } else w.suppressed++;
    },
  };
}
