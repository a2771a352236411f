/**
 * The one restart policy of both supervisors (the Electron shell's coreSupervisor and
 * `npm start -- --web`): after a stop, 1 s, then 2 s; a third stop within a minute gives up.
 */
import { describe, expect, it } from 'vitest';
import { createRestartPolicy, STORAGE_FAILED_EXIT_CODE } from '../../../electron/host/restartPolicy';

describe('restart policy after a core stopped', () => {
  it('waits 1 s, then 2 s, and gives up on the third stop within a minute', () => {
    const policy = createRestartPolicy();
    expect(policy.stopped(0)).toEqual({ restart: true, delayMs: 1000, stops: 1 });
    expect(policy.stopped(20_000)).toEqual({ restart: true, delayMs: 2000, stops: 2 });
    expect(policy.stopped(59_000)).toEqual({ restart: false, stops: 3 });
  });

  it('forgets stops older than a minute: a core that stops now and then is always started again', () => {
    const policy = createRestartPolicy();
    for (let i = 0; i < 10; i++) expect(policy.stopped(i * 61_000)).toEqual({ restart: true, delayMs: 1000, stops: 1 });
    expect(policy.stopped(9 * 61_000 + 30_000)).toEqual({ restart: true, delayMs: 2000, stops: 2 });
  });

  it('knows a storage failure by exit code 75 (EX_TEMPFAIL: try again later)', () => {
    expect(STORAGE_FAILED_EXIT_CODE).toBe(75);
  });
});
