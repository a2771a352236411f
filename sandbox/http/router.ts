/** Method + path dispatch. Paths match with or without a trailing slash (`/connect/token/` == `/connect/token`). */
import type { Reply } from './envelope';
import type { RequestContext } from './context';

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export interface RouteOptions {
  /**
   * API resources negotiate the format from Accept (406 when none fits) and answer in the
   * envelope. OAuth pages, the token endpoint and the test controls do not.
   */
  api: boolean;
  /**
   * The route reads a body: the server decodes it before the handler runs (off the event loop when
   * large), by its Content-type or always as JSON (the test controls). See http/context.ts.
   */
  body?: 'contentType' | 'json';
}

interface Route {
  handler: Handler;
  options: RouteOptions;
}

export type Match = { kind: 'found'; route: Route } | { kind: 'method'; allowed: string[] } | { kind: 'none' };

export function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export class Router {
  private readonly routes = new Map<string, Map<string, Route>>();

  add(method: string, path: string, handler: Handler, options: RouteOptions): this {
    const key = normalisePath(path);
    const byMethod = this.routes.get(key) ?? new Map<string, Route>();
    if (byMethod.has(method)) throw new Error(`duplicate route ${method} ${path}`);
    byMethod.set(method, { handler, options });
    this.routes.set(key, byMethod);
    return this;
  }

  match(method: string, path: string): Match {
    const byMethod = this.routes.get(normalisePath(path));
    if (!byMethod) return { kind: 'none' };
    const route = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
    return route ? { kind: 'found', route } : { kind: 'method', allowed: [...byMethod.keys()] };
  }

  /** Whether a path belongs to the API (for the format of a 404/405 answer). */
  isApiPath(path: string): boolean {
    const byMethod = this.routes.get(normalisePath(path));
    return byMethod ? [...byMethod.values()].some((r) => r.options.api) : path.startsWith('/api/');
  }
}
