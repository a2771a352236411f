/**
 * Is the shipping service reachable? Asks the unauthenticated test resource GET /api/
 * (spec "GET /api/"), with If-None-Match so a healthy service answers 304 with no body.
 */
export interface ServiceHealth {
  reachable: boolean;
  checkedAt: string;
  error: string | null;
}

export function createHealthCheck(baseUrl: string, timeoutMs = 5000) {
  let etag: string | null = null;
  return async function check(now: Date): Promise<ServiceHealth> {
    try {
      const res = await fetch(new URL('/api/', baseUrl), {
        headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer();
      if (res.status === 200) etag = res.headers.get('etag');
      const ok = res.status === 200 || res.status === 304;
      return { reachable: ok, checkedAt: now.toISOString(), error: ok ? null : `The service answered HTTP ${res.status}.` };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return {
        reachable: false,
        checkedAt: now.toISOString(),
        error: timedOut ? `The service did not answer within ${timeoutMs / 1000} s.` : `The service cannot be reached (${(err as Error).message}).`,
      };
    }
  };
}
