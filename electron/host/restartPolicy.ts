/**
 * When a supervisor starts the station's core again: the Electron shell over its utility process
 * (electron/shell/coreSupervisor.ts) and `npm start -- --web` over the web host (scripts/start.mjs,
 * which loads this module from dist/node/restartPolicy.mjs). One policy, so both hosts behave alike:
 * a core that stopped because it could not write its data (exit code STORAGE_FAILED_EXIT_CODE) is
 * started again after 1 s, then 2 s (a disk being freed or remounted gets a moment); a third stop
 * within a minute means it cannot run, and the supervisor gives up with the reason.
 */
import { STORAGE_FAILED_EXIT_CODE } from '../../shared/storageFailure';

export { STORAGE_FAILED_EXIT_CODE };

const WINDOW_MS = 60_000;
const STOPS_TO_GIVE_UP = 3;

export type RestartDecision =
  /** Start it again after `delayMs` (the wait a storage failure gets; a crash needs none). */
  | { restart: true; delayMs: number; stops: number }
  /** `stops` stops within a minute: it cannot run. */
  | { restart: false; stops: number };

export interface RestartPolicy {
  /** A core stopped on its own at `at` (ms): whether and when to start it again. */
  stopped(at: number): RestartDecision;
}

export function createRestartPolicy(): RestartPolicy {
  const stops: number[] = [];
  return {
    stopped(at) {
      stops.push(at);
      while (stops.length && stops[0]! < at - WINDOW_MS) stops.shift();
      if (stops.length >= STOPS_TO_GIVE_UP) return { restart: false, stops: stops.length };
      return { restart: true, delayMs: 1000 * 2 ** (stops.length - 1), stops: stops.length };
    },
  };
}
