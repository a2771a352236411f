/**
 * The station's workflows behind the screens, built from one set of dependencies. The composition
 * root calls `createWorkflows` once, feeds the job waiter from the queue's job events, exposes the
 * methods through the RPC contract, and starts the journal once the print queue has recovered:
 * unfinished scans resume in scan order, other unfinished entries (a batch, a Shipments action,
 * New shipment) resume from their last committed step.
 */
import { createBatchClose, type BatchCloseOptions } from './batchClose';
import { createCloseAndPrint } from './closeAndPrint';
import { createEndOfDay } from './endOfDay';
import { createScanToClose, type ScanToCloseOptions } from './scanToClose';
import { reportFault, type WorkflowDeps } from './workflowDeps';

export { createJobWaiter, type JobWaiter } from './jobWaiter';
export type { WorkflowDeps, WorkflowSession } from './workflowDeps';
export * from './schemas';

export function createWorkflows(
  deps: WorkflowDeps,
  opts: { scan?: ScanToCloseOptions; batch?: BatchCloseOptions } = {},
) {
  const scanToClose = createScanToClose(deps, opts.scan);
  const engine = createCloseAndPrint(deps);
  let resuming: Promise<void> | null = null;
  let stopped = true;

  /** Unfinished entries of other paths that are due, run for the active account. */
  function resumeOthers(): Promise<void> {
    if (resuming || stopped) return resuming ?? Promise.resolve();
    resuming = (async () => {
      const session = deps.session();
      if (!session) return;
      const at = deps.clock.now().getTime();
      const due = deps.repos.journal
        .unfinishedOthers()
        .filter(
          (e) =>
            (e.accountId === session.accountId || e.accountId === '') &&
            (e.outcome !== 'waiting' || (e.nextRetryAt !== null && Date.parse(e.nextRetryAt) <= at)),
        );
      if (!due.length) return;
      const results = await engine.run(session, due);
      deps.log.info('journal entries resumed', {
        entries: due.length,
        queued: [...results.values()].filter((r) => r.kind === 'queued').length,
      });
    })()
      .catch((err: unknown) => reportFault(deps, 'resuming journal entries failed', err))
      .finally(() => (resuming = null));
    return resuming;
  }

  const journal = {
    /** After the print queue's recovery: what the last run left resumes, scans first in scan order. */
    start(): void {
      stopped = false;
      const caughtUp = deps.repos.journal.settleScanLog();
      if (caughtUp) deps.log.info('scan log caught up with labels printed before the restart', { scans: caughtUp });
      scanToClose.start();
      void resumeOthers();
    },
    /** Due retries (the station's tick). */
    tick(): void {
      scanToClose.tick();
      void resumeOthers();
    },
    /** The service answers again, or a login happened: every waiting entry runs now. */
    wake(): void {
      deps.repos.journal.wakeWaiting('others', deps.clock.now());
      scanToClose.wake();
      void resumeOthers();
    },
    async stop(boundMs = 10_000): Promise<void> {
      stopped = true;
      let t: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([scanToClose.stop(boundMs), resuming]),
        new Promise((r) => (t = setTimeout(r, boundMs))),
      ]);
      clearTimeout(t);
    },
    /** Until nothing can run now (tests). */
    async idle(): Promise<void> {
      await scanToClose.idle();
      while (resuming) await resuming;
    },
  };

  return { scanToClose, batchClose: createBatchClose(deps, opts.batch), endOfDay: createEndOfDay(deps), journal };
}

export type Workflows = ReturnType<typeof createWorkflows>;
