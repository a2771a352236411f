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
  /**
   * Listeners by the job they wait for: a change reaches only its own (with one listener for every
   * scan, 1,000 scans waiting for a printer that was off made each job change call 1,000 of them).
   */
  const byJob = new Map<number, Set<(job: JobView) => void>>();
  /** Listens to changes of these jobs; returns the function that stops it. */
  function listen(jobIds: number[], l: (job: JobView) => void): () => void {
    for (const id of jobIds) {
      let set = byJob.get(id);
      if (!set) byJob.set(id, (set = new Set()));
      set.add(l);
    }
    return () => {
      for (const id of jobIds) {
        const set = byJob.get(id);
        if (set?.delete(l) && set.size === 0) byJob.delete(id);
      }
    };
  }
  return {
    jobChanged(job) {
      const set = byJob.get(job.id);
      if (set) for (const l of [...set]) l(job);
    },
    whenAllDone(jobIds, onDone) {
      const all = new Set(jobIds).size;
      const finished = new Set<number>();
      let listening = true;
      const see = (job: JobView) => {
        if (!listening) return;
        if (job.state === 'cancelled') {
          listening = false;
          stop();
          return;
        }
        if (job.state === 'done') finished.add(job.id);
        if (finished.size === all) {
          listening = false;
          stop();
          onDone();
        }
      };
      const stop = listen(jobIds, see);
      for (const id of jobIds) {
        const job = get(id);
        if (job) see(job);
      }
    },
    wait(jobIds, timeoutMs) {
      if (jobIds.length === 0) return Promise.resolve({ kind: 'done' });
      const all = new Set(jobIds).size;
      return new Promise<JobsSettled>((resolve) => {
        const done = new Set<number>();
        let finished = false;
        const finish = (r: JobsSettled) => {
          if (finished) return;
          finished = true;
          stop();
          clearTimeout(timer);
          resolve(r);
        };
        const see = (job: JobView) => {
          if (job.state === 'done') done.add(job.id);
          else if (isFailure(job)) finish({ kind: 'failed', job });
          if (done.size === all) finish({ kind: 'done' });
        };
        const stop = listen(jobIds, see);
        const timer = setTimeout(() => finish({ kind: 'pending' }), timeoutMs);
        for (const id of jobIds) {
          const job = get(id);
          if (job) see(job);
        }
      });
    },
  };
}
