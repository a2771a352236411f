/**
 * Calls that arrive together (a page sending the 1,000 scans it held while offline, in one read of
 * the socket) are taken in order, a share of them per turn of the event loop, so the core keeps
 * answering in between (electron/rpc/callMessage.ts createCallPacer). A lone call starts at once.
 */
import { describe, expect, it } from 'vitest';
import { createCallPacer } from '../../../electron/rpc/callMessage';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('calls taken in turns', () => {
  it('a lone call starts before pace() returns', () => {
    const pace = createCallPacer(4);
    let started = false;
    pace(() => (started = true));
    expect(started).toBe(true);
  });

  it('a burst is started in arrival order, and the event loop runs before the burst is through', async () => {
    const pace = createCallPacer(2);
    const started: number[] = [];
    let startedWhenLoopRan: number | null = null;
    setImmediate(() => (startedWhenLoopRan = started.length));
    for (let i = 0; i < 300; i++) pace(() => (busy(0.05), started.push(i)));
    await new Promise<void>((resolve) => {
      const check = () => (started.length === 300 ? resolve() : setImmediate(check));
      check();
    });
    expect(started).toEqual(Array.from({ length: 300 }, (_, i) => i));
    // Something else ran (here a callback queued before the burst) while calls were still waiting.
    expect(startedWhenLoopRan).not.toBeNull();
    expect(startedWhenLoopRan!).toBeGreaterThan(0);
    expect(startedWhenLoopRan!).toBeLessThan(300);
  });
});
