/**
 * What a screen shows from the core's events is only as true as the events it heard: while the
 * web host's socket is down, none come (the core keeps no events for a page that is not there).
 * A screen that loads its state once and then follows events loads it again when the page is
 * connected again after a loss.
 */
import { useEffect, useRef } from 'react';
import { useConnection } from './transport';

export function useReconnected(load: () => unknown): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(
    () =>
      useConnection.subscribe((s, prev) => {
        if (s.connected && !prev.connected) void latest.current();
      }),
    [],
  );
}
