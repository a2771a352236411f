/**
 * A clock for a whole station that a test moves forward: it reads the real time plus what the test
 * added, and its intervals run on real timers (the station works as always) and once more, all of
 * them, each time the test moves it (what was due in the skipped time happens at once).
 */
import { systemClock, type Clock } from '../../electron/base/clock';

export interface SteppableClock extends Clock {
  /** Moves the time forward by `ms` and runs every interval once. */
  advance(ms: number): void;
}

export function steppableClock(): SteppableClock {
  let offset = 0;
  const intervals = new Set<() => void>();
  return {
    now: () => new Date(Date.now() + offset),
    setInterval(fn, ms) {
      intervals.add(fn);
      const stop = systemClock.setInterval(fn, ms);
      return () => {
        intervals.delete(fn);
        stop();
      };
    },
    advance(ms) {
      offset += ms;
      const failed: unknown[] = [];
      for (const fn of [...intervals]) {
        try {
          fn();
        } catch (err) {
          failed.push(err);
        }
      }
      if (failed.length) throw new AggregateError(failed, 'an interval of the station failed');
    },
  };
}
