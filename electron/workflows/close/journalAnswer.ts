/**
 * The close-and-print machine's answer for entries no step moved in this run: `queued` (their
 * jobs as they are), or `ended` (not printed, with its reason, else missing with what it ended on).
 * Nothing is sent.
 */
import type { JournalEntry } from '../../store/journalRepo';
import type { StepCtx } from './entryMoves';

export function journalAnswer(ctx: StepCtx, entries: JournalEntry[]): void {
  const { deps, session, results } = ctx;
  const journal = deps.repos.journal;
  for (const e of entries) {
    if (results.has(e.id)) continue;
    const cur = journal.get(e.id)!;
    const s = deps.repos.shipments.get(session.accountId, cur.deliveryId ?? -1);
    if (cur.step === 'queued' && s)
      results.set(e.id, { kind: 'queued', shipment: s, jobs: journal.jobIdsOf(e.id).map((j) => deps.queue.get(j)) });
    else if (s && cur.outcome === 'not_printed')
      results.set(e.id, {
        kind: 'not_printed',
        shipment: s,
        error: { code: cur.reasonCode ?? 'not_printed', message: cur.reason ?? '' },
      });
    else
      results.set(e.id, {
        kind: 'missing',
        error: {
          code: cur.reasonCode ?? 'unexpected',
          message: cur.reason ?? `The journal entry ${e.id} ended (${cur.outcome ?? cur.step}).`,
        },
      });
  }
}
