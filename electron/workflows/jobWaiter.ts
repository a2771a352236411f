/**
 * Waits for print jobs to reach a state the worker must hear about, and answers as soon as the
 * queue knows it: all printed (green); all finished but some only handed to the
 * print system (spooled: not confirmed printed); one waiting for its printer (nothing of it reached
 * the printer, it goes by itself when the printer is back: amber at once, not after the wait); one
 * failed, uncertain or unconfirmed (it waits for the worker); or still on its way when the wait
 * ends (pending). Fed by the queue's job-changed events and by printer state changes; it also reads
 * the jobs' current state when the wait starts, so an event that came first is not missed.
 */
import { replacedByReprint, waitsForPrinter, type JobView } from '../../shared/contract/printing';
import type { Code } from '../../shared/errors/codes';

/** Why a job waits for its printer: a reason code the UI translates, and a sentence in English. */
export interface WaitReason {
  code: Code;
  message: string;
}

export type JobsSettled =
  | { kind: 'done' }
  /** Every job finished, at least one only handed to the print system (`spooled`): not confirmed printed. */
  | { kind: 'spooled'; job: JobView }
  /** A job waits for its printer (offline, out of labels...): nothing of it reached the printer, it goes by itself. */
  | { kind: 'waiting'; job: JobView; reason: WaitReason }
  | { kind: 'failed'; job: JobView }
  | { kind: 'pending' };

/** How a set of jobs ended when all of them finished: every label printed, or some only handed to the print system. */
type JobsFinished = 'printed' | 'spooled';

export interface JobWaiter {
  /** Call with every job change (the print queue's onJobChanged, or the `printing.jobChanged` event payload). */
  jobChanged(job: JobView): void;
  /** Call when a printer's state changed (offline, out of labels, back): waits on its queued jobs look again. */
  printerChanged(printerId: string): void;
  wait(jobIds: number[], timeoutMs: number): Promise<JobsSettled>;
  /** Why a job waits for its printer now (failed with a retry time, or queued behind one / for a printer known down), or null. */
  waitReason(job: JobView): WaitReason | null;
  /**
   * Calls `done` once every job is finished (printed, or handed to the print system), however many
   * failures and retries come first (a printer that was down prints later); forgets the jobs when
   * one is cancelled, calling `cancelled` when that is so the label will not come out (the worker
   * cancelled it, a new print replaced it), or `reprinted` when a reprint's copy of the job prints
   * it instead (the caller may follow the copy).
   */
  whenAllDone(
    jobIds: number[],
    done: (how: JobsFinished) => void,
    cancelled?: () => void,
    reprinted?: (job: JobView) => void,
  ): void;
}

// `unconfirmed` (every byte left, the printer never confirmed) is not printed: it settles a wait like a failure.
const isFailure = (j: JobView) =>
  j.state === 'failed' || j.state === 'uncertain' || j.state === 'unconfirmed' || j.state === 'cancelled';
const isFinished = (j: JobView) => j.state === 'done' || j.state === 'spooled';

/** Jobs a wait reads in one turn of the event loop. */
const LOOK_SLICE = 100;

/**
 * `get` reads a job; `queuedWaits` says why a queued job waits for its printer (the lane's head
 * waits for it, or the printer is known offline or in error), null when nothing holds it.
 */
/** Adds `f` under each key; returns the function that takes it out again (and drops emptied keys). */
function subscribe<K, F>(map: Map<K, Set<F>>, keys: Iterable<K>, f: F): () => void {
  const taken = [...keys];
  for (const k of taken) {
    let set = map.get(k);
    if (!set) map.set(k, (set = new Set()));
    set.add(f);
  }
  return () => {
    for (const k of taken) {
      const set = map.get(k);
      if (set?.delete(f) && set.size === 0) map.delete(k);
    }
  };
}

export function createJobWaiter(
  get: (id: number) => JobView | undefined,
  queuedWaits: (job: JobView) => WaitReason | null = () => null,
): JobWaiter {
  /**
   * Listeners by the job they wait for: a change reaches only its own (with one listener for every
   * scan, 1,000 scans waiting for a printer that was off made each job change call 1,000 of them).
   */
  const byJob = new Map<number, Set<(job: JobView) => void>>();
  /** Open waits by the printer their jobs go to: a printer's change makes them look again. */
  const byPrinter = new Map<string, Set<() => void>>();
  /** Listens to changes of these jobs; returns the function that stops it. */
  const listen = (jobIds: number[], l: (job: JobView) => void) => subscribe(byJob, jobIds, l);
  const watchPrinters = (printerIds: Set<string>, recheck: () => void) => subscribe(byPrinter, printerIds, recheck);
  /**
   * Why a job waits for its printer now. `memo` (one look over a wait's jobs, within one turn) keeps
   * why a queued job of each printer waits: it depends on the printer only (its lane's head, its
   * state), so a batch of 500 queued jobs reads its lane's head once, not 500 times.
   */
  function waitReason(job: JobView, memo?: Map<string, WaitReason | null>): WaitReason | null {
    if (waitsForPrinter(job))
      return {
        code: job.reasonCode ?? 'offline',
        message: job.reason ?? `The printer ${job.printerId ?? ''} is not ready.`,
      };
    if (job.state !== 'queued') return null;
    if (!memo || !job.printerId) return queuedWaits(job);
    if (!memo.has(job.printerId)) memo.set(job.printerId, queuedWaits(job));
    return memo.get(job.printerId)!;
  }
  const printerChanged = (printerId: string) => {
    const set = byPrinter.get(printerId);
    if (set) for (const recheck of [...set]) recheck();
  };
  return {
    jobChanged(job) {
      const set = byJob.get(job.id);
      if (set) for (const l of [...set]) l(job);
      // A lane's head now waits for its printer: the jobs queued behind it wait too.
      if (job.printerId && waitsForPrinter(job)) printerChanged(job.printerId);
    },
    printerChanged,
    waitReason,
    whenAllDone(jobIds, onDone, onCancelled, onReprinted) {
      const all = new Set(jobIds).size;
      const finished = new Set<number>();
      let spooled = false;
      let listening = true;
      const see = (job: JobView) => {
        if (!listening) return;
        if (job.state === 'cancelled') {
          listening = false;
          stop();
          if (replacedByReprint(job)) onReprinted?.(job);
          else onCancelled?.();
          return;
        }
        if (isFinished(job)) {
          finished.add(job.id);
          if (job.state === 'spooled') spooled = true;
        }
        if (finished.size === all) {
          listening = false;
          stop();
          onDone(spooled ? 'spooled' : 'printed');
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
        const finishedJobs = new Set<number>();
        let spooled: JobView | null = null;
        let finished = false;
        /** The printers of the jobs still waiting, each watched from when a job of it is first read. */
        const printers = new Set<string>();
        const unwatch: (() => void)[] = [];
        const stopPrinters = () => unwatch.splice(0).forEach((f) => f());
        const watch = (printerId: string | null) => {
          if (finished || !printerId || printers.has(printerId)) return;
          printers.add(printerId);
          unwatch.push(watchPrinters(new Set([printerId]), () => void look()));
        };
        const finish = (r: JobsSettled) => {
          if (finished) return;
          finished = true;
          stop();
          stopPrinters();
          clearTimeout(timer);
          resolve(r);
        };
        const see = (job: JobView, memo?: Map<string, WaitReason | null>) => {
          if (finished) return;
          if (isFinished(job)) {
            finishedJobs.add(job.id);
            if (job.state === 'spooled') spooled ??= job;
          } else {
            const reason = waitReason(job, memo);
            if (reason) return finish({ kind: 'waiting', job, reason });
            if (isFailure(job)) return finish({ kind: 'failed', job });
          }
          if (finishedJobs.size === all) finish(spooled ? { kind: 'spooled', job: spooled } : { kind: 'done' });
        };
        /**
         * Reads the jobs not finished yet, LOOK_SLICE a turn (a batch's 500 jobs read in one turn held
         * the loop ~20 ms). The listeners are on before the first read, so a change that comes
         * meanwhile is seen; a job read after it is read as it is now.
         */
        const look = async () => {
          const todo = jobIds.filter((id) => !finishedJobs.has(id)); // a printed job stays printed
          for (let i = 0; i < todo.length && !finished; i += LOOK_SLICE) {
            if (i > 0) await new Promise<void>((r) => setImmediate(r));
            const memo = new Map<string, WaitReason | null>();
            for (const id of todo.slice(i, i + LOOK_SLICE)) {
              if (finished) return;
              const job = get(id);
              if (!job) continue;
              watch(job.printerId);
              see(job, memo);
            }
          }
        };
        const stop = listen(jobIds, (job) => see(job));
        const timer = setTimeout(() => finish({ kind: 'pending' }), timeoutMs);
        void look();
      });
    },
  };
}
