/** Exponential backoff with a cap: 1 s, 2 s, 4 s ... up to maxMs, so an offline printer is tried at least every maxMs. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: BackoffPolicy = { baseMs: 1000, maxMs: 60_000 };

export function backoffDelay(attempt: number, policy: BackoffPolicy = defaultBackoff): number {
  const exp = Math.min(30, Math.max(0, attempt - 1));
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exp);
}
