/**
 * A real HTTP proxy on 127.0.0.1 in front of the sandbox that can break chosen requests the way a
 * bad network or a broken service does: drop the connection, or answer with a malformed body.
 * The decision is made per request (numbered from 1) by the test.
 */
import http from 'node:http';

export type ProxyAction = 'pass' | 'reset' | { status: number; body: string; contentType?: string };

export interface FlakyProxy {
  url: string;
  /** Requests seen, in order: "GET /api/v3/deliveries?...". */
  seen: string[];
  /** Their bodies as they were sent (for the requests passed on), by the same index as `seen`. */
  bodies: string[];
  decide: (n: number, req: http.IncomingMessage) => ProxyAction;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const t = new URL(target);
  const proxy: FlakyProxy = {
    url: '',
    seen: [],
    bodies: [],
    decide: () => 'pass',
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    proxy.seen.push(`${req.method} ${req.url}`);
    const n = proxy.bodies.push('') - 1;
    const action = proxy.decide(proxy.seen.length, req);
    if (action === 'reset') {
      req.socket.destroy();
      return;
    }
    if (action !== 'pass') {
      res.writeHead(action.status, { 'content-type': action.contentType ?? 'application/json; charset=UTF-8' });
      res.end(action.body);
      return;
    }
    const upstream = http.request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => (proxy.bodies[n] = Buffer.concat(chunks).toString('utf8')));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
