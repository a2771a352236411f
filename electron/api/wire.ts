/**
 * One HTTP exchange on node:http/https. Not fetch: the spec's transport search is a GET with a
 * body (spec "GET /api/v3/transports"), which fetch refuses to send.
 */
import http from 'node:http';
import https from 'node:https';

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 6 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 6 }),
};

/** Sends a request; rejects with the abort reason when the signal fires, or the socket error. */
// `abort()` without an argument gives an AbortError, an Error; anything else is wrapped so callers always get one.
export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('aborted');

export function sendWire(req: WireRequest): Promise<WireResponse> {
  const mod = req.url.protocol === 'https:' ? https : http;
  const agent = agents[req.url.protocol as 'http:' | 'https:'];
  if (!agent) return Promise.reject(new Error(`Unsupported protocol ${req.url.protocol}`));
  return new Promise<WireResponse>((resolve, reject) => {
    if (req.signal.aborted) return reject(abortReason(req.signal));
    const headers = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = mod.request(req.url, { method: req.method, headers, agent });
    const onAbort = () => r.destroy(abortReason(req.signal));
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => req.signal.removeEventListener('abort', onAbort);
    r.on('error', (err) => {
      done();
      reject(req.signal.aborted ? abortReason(req.signal) : err);
    });
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => {
        done();
        reject(req.signal.aborted ? abortReason(req.signal) : err);
      });
      res.on('aborted', () => {
        done();
        reject(
          req.signal.aborted
            ? abortReason(req.signal)
            : Object.assign(new Error('The connection was closed mid-answer.'), { code: 'ECONNRESET' }),
        );
      });
      res.on('end', () => {
        done();
        if (!res.complete) {
          return reject(Object.assign(new Error('The connection was closed mid-answer.'), { code: 'ECONNRESET' }));
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    r.end(req.body);
  });
}
