/**
 * Is the shipping service reachable? Asks the unauthenticated test resource GET /api/
 * (spec "GET /api/"), with If-None-Match so a healthy service answers 304 with no body.
 */
export interface ServiceHealth {
  reachable: boolean;
  checkedAt: string;
  error: string | null;
  /** The error as a code the UI translates, with the values of its sentence. */
  errorCode: string | null;
  errorDetails: Record<string, string | number> | null;
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
      if (ok)
        return { reachable: true, checkedAt: now.toISOString(), error: null, errorCode: null, errorDetails: null };
      return {
        reachable: false,
        checkedAt: now.toISOString(),
        error: `The service answered HTTP ${res.status}.`,
        errorCode: 'service_http',
        errorDetails: { status: res.status },
      };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return {
        reachable: false,
        checkedAt: now.toISOString(),
        error: timedOut
          ? `The service did not answer within ${timeoutMs / 1000} s.`
          : `The service cannot be reached (${(err as Error).message}).`,
        errorCode: timedOut ? 'service_timeout' : 'service_network',
        errorDetails: timedOut ? { seconds: timeoutMs / 1000 } : null,
      };
    }
  };
}
