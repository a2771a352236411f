/**
 * Refusal lines of the local listeners (electron/host/localListener.ts): a few per kind and minute,
 * then one line saying how many more there were, so a flood cannot fill the log.
 */
import { describe, expect, it } from 'vitest';
import { refusalLog, requestTarget } from '../../../electron/host/localListener';
import { memoryLogger } from '../../support/memoryLogger';

describe('refusal log', () => {
  it('logs the first 5 of a kind in a minute, counts the rest and sums them up when the next minute starts', () => {
    const log = memoryLogger();
    let t = 0;
    const refusals = refusalLog(log, { now: () => t });
    for (let i = 0; i < 1000; i++) refusals.note('web host refused a socket', { i });
    refusals.note('another kind', {});
    expect(log.lines).toHaveLength(6);
    t = 60_000;
    refusals.note('web host refused a socket', { i: 1000 });
    expect(log.lines.slice(6).map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      {
        level: 'warn',
        message: 'web host refused a socket (and more, not logged one by one)',
        more: 995,
        withinSeconds: 60,
      },
      { level: 'warn', message: 'web host refused a socket', i: 1000 },
    ]);
  });
});

describe('request target of a local listener', () => {
  it('takes only an origin-form path and never throws', () => {
    expect(requestTarget('/callback?state=a')?.searchParams.get('state')).toBe('a');
    for (const t of [
      '//[',
      '//%',
      '//evil.example/callback',
      'http://[',
      'http://127.0.0.1/rpc',
      '*',
      '127.0.0.1:22',
      '',
      undefined,
    ])
      expect(requestTarget(t)).toBeNull();
  });
});
