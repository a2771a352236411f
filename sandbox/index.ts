/**
 * The sandbox's public entry. The station (demo mode) and the tests start the service through
 * `startSandbox` only; nothing else in sandbox/ is imported from outside it.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';

export interface SandboxOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

export interface Sandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const server = http.createServer((req, res) => {
    if (req.url === '/api/' && req.method === 'GET') {
      const body = JSON.stringify({ code: 200, status: 'success', message: 'API is running' });
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', etag });
      return res.end(body);
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ code: 404, status: 'error', message: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
