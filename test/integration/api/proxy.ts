/**
 * A tiny real HTTP proxy on 127.0.0.1 in front of the sandbox: counts requests per
 * "METHOD /path" and can answer some itself (a server that refuses GET bodies, say).
 */
import http from 'node:http';

export interface Proxy {
  url: string;
  counts: Map<string, number>;
  count(method: string, path: string): number;
  close(): Promise<void>;
}

export type Intercept = (req: http.IncomingMessage, body: Buffer) => { status: number; body: string } | null;

export async function startProxy(target: string, intercept?: Intercept): Promise<Proxy> {
  const counts = new Map<string, number>();
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const own = intercept?.(req, body);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' }).end(own.body);
        return;
      }
      const headers = { ...req.headers, host: t.host };
      const out = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    count: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
