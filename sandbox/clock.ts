/**
 * The sandbox's sense of time. Codes (90 s), access tokens (3600 s) and the movement of closed
 * shipments all read `now()`; the test control POST /_sandbox/clock/advance moves it forward so
 * a test can expire a token without waiting an hour.
 */
export interface SandboxClock {
  now(): Date;
  /** Moves the clock forward (never backward) and returns the new time. */
  advance(seconds: number): Date;
  /** Milliseconds added to real time so far (persisted with --data so a restart keeps expiries consistent). */
  offsetMs(): number;
}

/** Real time plus an offset that only grows. */
export function offsetClock(initialOffsetMs = 0, realNow: () => number = Date.now): SandboxClock {
  let offset = initialOffsetMs;
  return {
    now: () => new Date(realNow() + offset),
    advance(seconds) {
      offset += Math.max(0, Math.round(seconds * 1000));
      return new Date(realNow() + offset);
    },
    offsetMs: () => offset,
  };
}
