/**
 * Times the station's requests to the shipping service from outside the client: Node publishes
 * every outgoing HTTP request on diagnostics channels (node:http's `http.client.*` for the API
 * client, undici's for fetch, which the health check uses), so neither the client nor the health
 * check carries a timer. Only requests to the active account's service count (by host and port);
 * the route keeps the path's shape with numbers as `:id` and no query (no shipment numbers or
 * codes in a label value).
 */
import dc from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

export interface ServiceRequest {
  method: string;
  route: string;
  /** `2xx`, `3xx`, `4xx`, `5xx`, or `error` (no answer: refused, reset, timed out). */
  status: string;
  seconds: number;
}

/** `/api/v3/deliveries/123?x=1` → `/api/v3/deliveries/:id` (at most six segments, safe characters only). */
function routeOf(path: string): string {
  const segments = (path.split('?')[0] ?? '')
    .split('/')
    .filter(Boolean)
    .slice(0, 6)
    .map((s) => (/^\d+$/.test(s) ? ':id' : /^[A-Za-z0-9_.-]{1,40}$/.test(s) ? s : ':value'));
  return `/${segments.join('/')}`;
}

const statusClass = (code: number | undefined): string => (code ? `${Math.floor(code / 100)}xx` : 'error');

type HttpRequest = { method: string; path: string; getHeader(name: string): number | string | string[] | undefined };
type UndiciRequest = { method: string; path: string; origin: string };

/** Observes requests to `serviceHost()` (URL host: `name:port`) until the returned function is called. */
export function watchServiceRequests(serviceHost: () => string, observe: (r: ServiceRequest) => void): () => void {
  const started = new WeakMap<object, number>();
  const finish = (req: object, method: string, path: string, code: number | undefined) => {
    const t = started.get(req);
    if (t === undefined) return;
    started.delete(req);
    observe({ method, route: routeOf(path), status: statusClass(code), seconds: (performance.now() - t) / 1000 });
  };
  const hostOfHttp = (r: HttpRequest) => {
    const h = r.getHeader('host');
    return typeof h === 'string' ? h : '';
  };
  const hostOfUndici = (r: UndiciRequest) => {
    try {
      return new URL(r.origin).host;
    } catch {
      return '';
    }
  };
  const handlers: [string, (m: unknown) => void][] = [
    [
      'http.client.request.start',
      (m) => {
        const r = (m as { request: HttpRequest }).request;
        if (hostOfHttp(r) === serviceHost()) started.set(r, performance.now());
      },
    ],
    [
      'http.client.response.finish',
      (m) => {
        const { request: r, response } = m as { request: HttpRequest; response: { statusCode?: number } };
        finish(r, r.method, r.path, response.statusCode);
      },
    ],
    [
      'http.client.request.error',
      (m) => {
        const r = (m as { request: HttpRequest }).request;
        finish(r, r.method, r.path, undefined);
      },
    ],
    [
      'undici:request:create',
      (m) => {
        const r = (m as { request: UndiciRequest }).request;
        if (hostOfUndici(r) === serviceHost()) started.set(r, performance.now());
      },
    ],
    [
      'undici:request:headers',
      (m) => {
        const { request: r, response } = m as { request: UndiciRequest; response: { statusCode?: number } };
        finish(r, r.method, r.path, response.statusCode);
      },
    ],
    [
      'undici:request:error',
      (m) => {
        const r = (m as { request: UndiciRequest }).request;
        finish(r, r.method, r.path, undefined);
      },
    ],
  ];
  for (const [name, fn] of handlers) dc.subscribe(name, fn);
  return () => {
    for (const [name, fn] of handlers) dc.unsubscribe(name, fn);
  };
}
