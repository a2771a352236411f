/**
 * The waiter behind a scan's outcome (electron/workflows/jobWaiter.ts): it hears each job's
 * changes, whatever else waits, and answers once.
 */
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/contract/printing';
import { createJobWaiter } from '../../../electron/workflows/jobWaiter';

const at = '2026-11-24T08:00:00.000Z';
const view = (id: number, state: JobView['state']): JobView => ({
  id, kind: 'print', printerId: 'zebra', format: 'zpl', title: `Štítek ${id}`, scanCode: null, deliveryIds: [id], barcodes: [`ŽLUŤ-${id}`],
  copies: 1, state, attempts: 0, reasonCode: null, reason: null, nextRetryAt: null, delivered: state === 'done', reprintOf: null,
  createdAt: at, updatedAt: at, finishedAt: null, bytes: 10,
});

describe('job waiter', () => {
  it('calls each scan back once all of its own jobs are done, with 1,000 other scans waiting', () => {
    const states = new Map<number, JobView['state']>();
    const waiter = createJobWaiter((id) => (states.has(id) ? view(id, states.get(id)!) : undefined));
    const printed: number[] = [];
    for (let scan = 1; scan <= 1000; scan++) {
      const jobs = [scan * 10, scan * 10 + 1];
      jobs.forEach((j) => states.set(j, 'queued'));
      waiter.whenAllDone(jobs, () => printed.push(scan));
    }
    // A printer that was off prints scan 7's labels after a failure and a retry.
    waiter.jobChanged(view(70, 'failed'));
    waiter.jobChanged(view(70, 'done'));
    expect(printed).toEqual([]);
    waiter.jobChanged(view(71, 'done'));
    waiter.jobChanged(view(71, 'done'));
    expect(printed).toEqual([7]);
    // A cancelled job: its scan is forgotten, never called.
    waiter.jobChanged(view(80, 'cancelled'));
    waiter.jobChanged(view(80, 'done'));
    waiter.jobChanged(view(81, 'done'));
    expect(printed).toEqual([7]);
  });

  it('a job done before the wait started counts; a failure answers at once; no word by the time limit is "pending"', async () => {
    const states = new Map<number, JobView['state']>([[1, 'done'], [2, 'queued'], [3, 'queued'], [4, 'queued']]);
    const waiter = createJobWaiter((id) => (states.has(id) ? view(id, states.get(id)!) : undefined));
    const both = waiter.wait([1, 2], 10_000);
    waiter.jobChanged(view(2, 'done'));
    expect(await both).toEqual({ kind: 'done' });
    const failing = waiter.wait([3], 10_000);
    waiter.jobChanged(view(3, 'uncertain'));
    expect(await failing).toMatchObject({ kind: 'failed', job: { id: 3, state: 'uncertain' } });
    expect(await waiter.wait([4], 20)).toEqual({ kind: 'pending' });
    // Once answered, later changes change nothing (and nothing is left listening).
    waiter.jobChanged(view(4, 'done'));
    expect(await waiter.wait([], 20)).toEqual({ kind: 'done' });
  });
});
