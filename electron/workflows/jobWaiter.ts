/**
 * Waits for print jobs to reach a state the worker must hear about: all done (green), one failed
 * or uncertain (the printer is down: red, the job waits in the queue), or still on their way when
 * the wait ends (queued). Fed by the queue's job-changed events; it also reads the job's current
 * state when the wait starts, so an event that came first is not missed.
 */
import type { JobView } from '../../shared/contract/printing';

export type JobsSettled =
  | { kind: 'done' }
  | { kind: 'failed'; job: JobView }
  | { kind: 'pending' };

export interface JobWaiter {
  /** Call with every job change (the print queue's onJobChanged, or the `printing.jobChanged` event payload). */
  jobChanged(job: JobView): void;
  wait(jobIds: number[], timeoutMs: number): Promise<JobsSettled>;
  /**
   * Calls `done` once every job is done, however many failures and retries come first (a printer
   * that was down prints later); forgets the jobs when one is cancelled.
   */
  whenAllDone(jobIds: number[], done: () => void): void;
}

// `unconfirmed` (every byte left, the printer never confirmed) is not printed: it settles a wait like a failure.
const isFailure = (j: JobView) => j.state === 'failed' || j.state === 'uncertain' || j.state === 'unconfirmed' || j.state === 'cancelled';

export function createJobWaiter(get: (id: number) => JobView | undefined): JobWaiter {
  const listeners = new Set<(job: JobView) => void>();
  return {
    jobChanged(job) {
      for (const l of [...listeners]) l(job);
    },
    whenAllDone(jobIds, onDone) {
      const finished = new Set<number>();
      const see = (job: JobView) => {
        if (!jobIds.includes(job.id)) return;
        if (job.state === 'cancelled') listeners.delete(see);
        if (job.state === 'done') finished.add(job.id);
        if (finished.size === jobIds.length && listeners.delete(see)) onDone();
      };
      listeners.add(see);
      for (const id of jobIds) {
        const job = get(id);
        if (job) see(job);
      }
    },
    wait(jobIds, timeoutMs) {
      if (jobIds.length === 0) return Promise.resolve({ kind: 'done' });
      return new Promise<JobsSettled>((resolve) => {
        const done = new Set<number>();
        let finished = false;
        const finish = (r: JobsSettled) => {
          if (finished) return;
          finished = true;
          listeners.delete(listener);
          clearTimeout(timer);
          resolve(r);
        };
        const see = (job: JobView) => {
          if (!jobIds.includes(job.id)) return;
          if (job.state === 'done') done.add(job.id);
          else if (isFailure(job)) finish({ kind: 'failed', job });
          if (done.size === jobIds.length) finish({ kind: 'done' });
        };
        const listener = (job: JobView) => see(job);
        listeners.add(listener);
        const timer = setTimeout(() => finish({ kind: 'pending' }), timeoutMs);
        for (const id of jobIds) {
          const job = get(id);
          if (job) see(job);
        }
      });
    },
  };
}
