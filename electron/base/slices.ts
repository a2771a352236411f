/**
 * Long work cut into slices, so the core's event loop is never blocked for long (at most
 * 20 ms): do about SLICE_MS of work, then `await nextTurn()` and go on.
 */

/**
 * About this much work (ms) per turn of the event loop: well inside the 20 ms a block may take,
 * with room for what shares the turn (a response's parsing, a garbage collection of 5-15 ms).
 */
export const SLICE_MS = 4;

/** Cached shipments read (parsed from their rows) per turn of the event loop. */
export const READS_PER_TURN = 50;

/** Lets the event loop run (I/O, timers, the page's requests) between slices of long work. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows (or pages) of a long job's first slice, before the slices' own times size the next. */
const FIRST_SLICE = 16;

/**
 * The size of the next slice, from how long the last one took: about SLICE_MS. Rows cost
 * differently by kind and by database (a cached shipment with its text index rows is many times a
 * scan-log row; a year's pages are colder than a day's), so a fixed count was a 2 ms slice on one
 * and a 30 ms one on another, and a scan waited behind the long ones.
 */
export function sliceSizer(most: number) {
  let n = Math.min(most, FIRST_SLICE);
  const took = (ms: number): void => {
    if (ms > 2 * SLICE_MS) n = Math.max(1, Math.floor(n / 2));
    else if (ms < SLICE_MS / 2) n = Math.min(most, Math.ceil(n * 1.5));
  };
  return {
    size: () => n,
    took,
    /** Runs `step` with the size due and sizes the next slice from how long it took. */
    timed<T>(step: (size: number) => T): T {
      const t0 = performance.now();
      const r = step(n);
      took(performance.now() - t0);
      return r;
    },
  };
}

export type SliceSizer = ReturnType<typeof sliceSizer>;
