/**
 * The scan lane: the journal's unfinished scans run one at a time in scan order, after a restart
 * too. A scan that must wait (no service, logged out) holds the lane, so later scans keep their
 * order and hear at once that they wait in line; it runs again when the service or the login is
 * back, or at its retry time. Each scan's first outcome answers whoever submitted it; later ones
 * (a waiting scan that ran) are pushed only.
 */
import type { JournalEntry } from '../../store/journalRepo';
import type { ScanOutcome } from '../schemas';
import { reportFault, type WorkflowDeps } from '../workflowDeps';
import type { FinishOutcome } from './outcomes';
import type { Run } from './runScan';

export interface LaneParts {
  run(e: JournalEntry): Promise<Run>;
  fail(e: JournalEntry, err: unknown): Run;
  finish: FinishOutcome;
  /** A scan's line state may have changed (the pending feed). */
  changed(entryId: number | null): void;
}

export function createScanLane(deps: WorkflowDeps, o: LaneParts) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();
  /** Callers of submit() waiting for their scan's first outcome, by journal entry. */
  const waiters = new Map<number, (o: ScanOutcome) => void>();
  let working: number | null = null;
  let draining: Promise<void> | null = null;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;

  /** The first outcome of a scan answers its submit(); later ones (a waiting scan that ran) are pushed only. */
  function deliver(entryId: number, out: ScanOutcome): void {
    o.finish(out);
    const w = waiters.get(entryId);
    waiters.delete(entryId);
    w?.(out);
  }

  /** Scans behind a waiting one hear at once that they wait too (their outcome comes again when they run). */
  function announceWaiting(head: JournalEntry): void {
    for (const [entryId] of waiters) {
      if (entryId === head.id) continue;
      const e = journal.get(entryId);
      if (!e) continue;
      deliver(entryId, {
        scanId: e.scanId ?? 0,
        code: e.code ?? '',
        kind: 'service_unreachable',
        entryId,
        reason: {
          code: 'waiting_in_line',
          message: 'Earlier scans wait for the service; this one runs after them, in scan order.',
        },
      });
    }
  }

  function wakeAt(iso: string | null): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (iso === null || stopped) return;
    timer = setTimeout(() => void drain(), Math.max(0, Date.parse(iso) - now().getTime()));
    timer.unref?.();
  }

  /** Runs the journal's unfinished scans in scan order until none is left or the head must wait. */
  let again = false;
  function drain(): Promise<void> {
    if (stopped) return draining ?? Promise.resolve();
    if (draining) {
      // A scan that came while the lane was finishing its last turn must not be left behind.
      again = true;
      return draining;
    }
    again = false;
    draining = (async () => {
      for (;;) {
        if (stopped) return;
        const head = journal.nextScan();
        if (!head) return;
        if (
          head.outcome === 'waiting' &&
          (head.nextRetryAt === null || Date.parse(head.nextRetryAt) > now().getTime())
        ) {
          wakeAt(head.nextRetryAt);
          announceWaiting(head);
          return;
        }
        working = head.id;
        o.changed(head.id);
        let r: Run;
        try {
          r = await o.run(head);
        } catch (err) {
          r = o.fail(head, err);
        }
        working = null;
        const entryId = head.id;
        o.changed(entryId);
        if (r.waiting) {
          // Said once per wait: a retry that fails again does not flash the screen again.
          if (head.outcome !== 'waiting' || waiters.has(entryId)) deliver(entryId, r.step as ScanOutcome);
          continue;
        }
        const step = r.step;
        if ('later' in step) {
          step.later
            .catch((err: unknown) => o.fail(head, err).step as ScanOutcome)
            .then((out) => deliver(entryId, out))
            .catch((err: unknown) => reportFault(deps, 'a scan outcome could not be recorded', err));
        } else deliver(entryId, step);
      }
    })()
      // A store that cannot be read or written (a failing disk) stops the lane: reported, never an
      // unhandled rejection (the scan itself stays in the journal, unacknowledged or resumable).
      .catch((err: unknown) => reportFault(deps, 'the scan lane stopped on an error of the station', err))
      .finally(() => {
        draining = null;
        const last = working;
        working = null;
        try {
          if (last !== null) o.changed(last);
        } catch (err) {
          reportFault(deps, 'the scan lane stopped on an error of the station', err);
        }
        if (again) void drain();
      });
    return draining;
  }

  return {
    drain,
    deliver,
    /** The first outcome of a received scan, to come. */
    outcomeOf: (entryId: number): Promise<ScanOutcome> =>
      new Promise<ScanOutcome>((resolve) => waiters.set(entryId, resolve)),
    /** The entry of the scan running now, or null. */
    working: () => working,
    stopped: () => stopped,
    busy: () => draining !== null,
    /** A scan is on its way to its label: the lane runs one, or a received scan has not had its first outcome. */
    inWork: () => draining !== null || waiters.size > 0,
    start(): void {
      stopped = false;
      void drain();
    },
    /** Stops taking the next scan and waits (bounded) for the one in flight. */
    async stop(boundMs: number, beforeWait: () => void): Promise<void> {
      stopped = true;
      beforeWait();
      wakeAt(null);
      let t: NodeJS.Timeout | undefined;
      await Promise.race([draining ?? Promise.resolve(), new Promise((r) => (t = setTimeout(r, boundMs)))]);
      clearTimeout(t);
    },
    /** Waits until no scan can run now (tests, benchmarks). */
    idle: async (): Promise<void> => {
      while (draining) await draining;
    },
  };
}

export type ScanLane = ReturnType<typeof createScanLane>;
