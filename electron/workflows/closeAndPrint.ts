/**
 * The one state machine of "close and print", used by every path that closes or prints (scan,
 * batch, the Shipments screen, New shipment, reprint). Its states are the journal's steps
 * (electron/store/journalRepo.ts); each step is a function of its own in ./close/, committing
 * before the side effect it allows:
 *
 *   close_requested, sent before ──read at the service──▶ closed / resolved again / ended   close/reconcileStep.ts
 *   resolved ──commit close_requested──▶ PATCH close ──▶ closed                              close/closeStep.ts
 *   closed ──labels, routed──▶ queued (jobs + links + step, one commit)                      close/queueStep.ts
 *   queued, ended ──▶ answered from the journal                                             close/journalAnswer.ts
 *
 * A close whose answer was lost stays `close_requested`; the next run reads the shipment at the
 * service first (closed: its labels are fetched and held for the worker's word, as another desk may
 * have closed and printed it; still prepared: close it; cancelled: end) — never a blind second
 * close, never a closed shipment left without its labels or a label printed twice unasked. Trouble that may pass (no
 * answer, logged out) leaves the entry at its step, waiting; an answer that refuses ends it.
 * Each transition is tested in test/unit/workflows/closeAndPrintSteps.test.ts.
 */
import { nextTurn, READS_PER_TURN } from '../base/slices';
import type { JournalEntry } from '../store/journalRepo';
import { closeStep } from './close/closeStep';
import { end, wait, type EntryResult, type StepCtx } from './close/entryMoves';
import { journalAnswer } from './close/journalAnswer';
import { queueStep } from './close/queueStep';
import { reconcileStep } from './close/reconcileStep';
import type { WorkflowError } from './schemas';
import type { Trouble } from './serviceTrouble';
import type { JournalOutcome } from '../../shared/errors/codes';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export type { EntryResult } from './close/entryMoves';

/** The entries as committed now, read in slices (a batch of 500, read after each step). */
async function current(deps: WorkflowDeps, entries: JournalEntry[]): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for (const [i, e] of entries.entries()) {
    if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
    out.push(deps.repos.journal.get(e.id)!);
  }
  return out;
}

/**
 * The entries from their last committed step as far as they go now, step after step.
 * `closeNotSent`: entries committed `close_requested` by the commit that received their scan
 * (journal.receiveScans), whose request this run sends first; any other `close_requested` entry
 * may have been sent before a stop, so the service is asked about it before anything else.
 */
async function runSteps(
  ctx: StepCtx,
  entries: JournalEntry[],
  closeNotSent: ReadonlySet<number>,
): Promise<Map<number, EntryResult>> {
  const before = await current(ctx.deps, entries);
  const requested = before.filter((e) => e.step === 'close_requested');
  // Reconciling moves only `close_requested` entries: the `resolved` ones are as read.
  const again = await reconcileStep(
    ctx,
    requested.filter((e) => !closeNotSent.has(e.id)),
  );
  await closeStep(
    ctx,
    [...before.filter((e) => e.step === 'resolved'), ...requested.filter((e) => closeNotSent.has(e.id)), ...again],
    closeNotSent,
  );
  await queueStep(
    ctx,
    (await current(ctx.deps, entries)).filter((e) => e.step === 'closed' && !ctx.results.has(e.id)),
  );
  journalAnswer(ctx, entries);
  return ctx.results;
}

export function createCloseAndPrint(deps: WorkflowDeps) {
  const journal = deps.repos.journal;

  /**
   * Runs entries of one account from their last committed step as far as they go now. Entries
   * already queued or ended are answered from the journal. One close request per carrier + place
   * (closeShipments), one label request per carrier and route.
   */
  async function run(
    session: WorkflowSession,
    all: JournalEntry[],
    closeNotSent: ReadonlySet<number> = new Set(),
  ): Promise<Map<number, EntryResult>> {
    // Claimed before the first await: the background resume never runs an entry a path is running.
    const mine = new Set(journal.claim(all.map((e) => e.id)));
    try {
      const ctx: StepCtx = { deps, session, results: new Map(), asked: new Map() };
      return await runSteps(
        ctx,
        all.filter((e) => mine.has(e.id)),
        closeNotSent,
      );
    } finally {
      journal.release([...mine]);
    }
  }

  return {
    run,
    wait: (e: JournalEntry, t: Trouble) => wait(deps, e, t),
    /** `deliveryId`: the parcel an entry ended on without resolving it (a rescan), so its trail shows the scan. */
    end: (e: JournalEntry, outcome: JournalOutcome, error: WorkflowError | null, deliveryId?: number) =>
      end(deps, e, outcome, error, deliveryId),
  };
}

export type CloseAndPrint = ReturnType<typeof createCloseAndPrint>;
