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
