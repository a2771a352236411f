/**
 * The waiter behind a scan's outcome (electron/workflows/jobWaiter.ts): it hears each job's
 * changes, whatever else waits, and answers once.
 */
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/contract/printing';
import { createJobWaiter } from '../../../electron/workflows/jobWaiter';

const at = '2026-11-24T08:00:00.000Z';
const view = (id: number, state: JobView['state']): JobView => ({
  id,
  kind: 'print',
  printerId: 'zebra',
  format: 'zpl',
  title: `Štítek ${id}`,
  document: { kind: 'labels' },
  deliveryIds: [id],
  barcodes: [`ŽLUŤ-${id}`],
  copies: 1,
  state,
  attempts: 0,
  reasonCode: null,
  reason: null,
  nextRetryAt: null,
  delivered: state === 'done',
  reprintOf: null,
  createdAt: at,
  updatedAt: at,
  finishedAt: null,
  bytes: 10,
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
    const states = new Map<number, JobView['state']>([
      [1, 'done'],
      [2, 'queued'],
      [3, 'queued'],
      [4, 'queued'],
    ]);
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

  it('a job waiting for its printer answers "waiting" at once with the reason, also one queued behind it or for a printer gone offline', async () => {
    const jobs = new Map<number, JobView>([
      [
        1,
        {
          ...view(1, 'failed'),
          nextRetryAt: '2026-11-24T08:01:00.000Z',
          reasonCode: 'offline',
          reason: 'The printer does not answer.',
        },
      ],
      [2, view(2, 'queued')],
      [3, view(3, 'queued')],
    ]);
    const offline = new Set<string>();
    // What the printing service says of a queued job: its lane's head waits, or its printer is known offline.
    const queuedWaits = (j: JobView) =>
      jobs.get(1)!.state === 'failed' && j.id === 2
        ? { code: 'offline' as const, message: 'behind job 1' }
        : offline.has(j.printerId ?? '')
          ? { code: 'paper_out' as const, message: 'out of labels' }
          : null;
    const waiter = createJobWaiter((id) => jobs.get(id), queuedWaits);
    expect(await waiter.wait([1], 60_000)).toMatchObject({
      kind: 'waiting',
      job: { id: 1 },
      reason: { code: 'offline', message: 'The printer does not answer.' },
    });
    expect(await waiter.wait([2], 60_000)).toMatchObject({
      kind: 'waiting',
      job: { id: 2 },
      reason: { code: 'offline' },
    });
    // Job 3 is on its way until its printer is seen out of labels: the wait then answers without any change of job 3.
    const third = waiter.wait([3], 60_000);
    offline.add('zebra');
    waiter.printerChanged('zebra');
    expect(await third).toMatchObject({ kind: 'waiting', job: { id: 3 }, reason: { code: 'paper_out' } });
    // A failure the printer reported after taking the label is not "waiting": it waits for the worker.
    jobs.set(4, { ...view(4, 'failed'), delivered: true, reasonCode: 'paper_out' });
    expect(await waiter.wait([4], 60_000)).toMatchObject({ kind: 'failed', job: { id: 4 } });
  });

  it('labels handed to the print system finish a wait as "spooled", not done, and a later finish says so', async () => {
    const states = new Map<number, JobView['state']>([
      [1, 'done'],
      [2, 'spooled'],
      [3, 'queued'],
    ]);
    const waiter = createJobWaiter((id) => (states.has(id) ? view(id, states.get(id)!) : undefined));
    expect(await waiter.wait([1, 2], 60_000)).toMatchObject({ kind: 'spooled', job: { id: 2 } });
    expect(await waiter.wait([1], 60_000)).toEqual({ kind: 'done' });
    const how: string[] = [];
    waiter.whenAllDone([1, 3], (h) => how.push(h));
    waiter.jobChanged(view(3, 'spooled'));
    expect(how).toEqual(['spooled']);
  });
});
