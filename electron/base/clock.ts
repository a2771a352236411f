/** The clock seam: the station never reads time directly, so tests can move it. */
export interface Clock {
  now(): Date;
  setInterval(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    t.unref?.();
    return () => clearInterval(t);
  },
};
