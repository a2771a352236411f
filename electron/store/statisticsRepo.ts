/**
 * What the desk statistics read (electron/statistics/): the journal's entries begun in a time
 * range with the moments of their steps and their carrier, the label jobs they produced, the
 * reprints of desk_actions and the operators' names. Read only; times are ISO strings (UTC), so a
 * range is a string comparison the journal_entries_created and desk_actions_at indexes answer.
 */
import type { JournalOutcome } from '../../shared/errors/codes';
import type { Db } from './database';
import { unfoldJournalSteps } from './journalHistory';
import type { JournalSource, JournalWant } from './journalRepo';

export interface StatEntry {
  id: number;
  operatorId: number | null;
  source: JournalSource;
  want: JournalWant;
  outcome: JournalOutcome | null;
  createdAt: string;
  /** The parcel the entry was about, once it was found (null: never found). */
  deliveryId: number | null;
  /** The shipment's carrier: the cache's `agent`, or the one the retention kept on the entry when the row left; null when neither knows. */
  carrier: string | null;
  /** The first time the entry reached `closed` (the service closed it), null if never. */
  closedAt: string | null;
  /** When its label jobs were committed to the print queue (labels fetched or taken from the store). */
  queuedAt: string | null;
}

export interface StatJob {
  entryId: number;
  jobId: number;
  state: string;
  reasonCode: string | null;
  copies: number;
  /** The package labels the job prints once (its package barcodes: one ZPL label or PDF label each). */
  packageLabels: number;
  finishedAt: string | null;
}

export interface StatReprint {
  operatorId: number | null;
  reasonCode: string | null;
}

interface EntryRow {
  id: number;
  operator_id: number | null;
  source: JournalSource;
  want: JournalWant;
  outcome: JournalOutcome | null;
  created_at: string;
  delivery_id: number | null;
  carrier: string | null;
  closed_at: string | null;
  queued_at: string | null;
  /** The entry's steps folded past the labels window (migration 30), null while they are rows. */
  folded_steps: string | null;
}

/** The first time the entry reached `step`, from its step rows' own first (`fromRows`) and its folded steps. */
function firstAt(r: EntryRow, step: 'closed' | 'queued', fromRows: string | null): string | null {
  if (r.folded_steps === null) return fromRows;
  const times = unfoldJournalSteps(r.folded_steps, r.created_at)
    .filter((s) => s.step === step)
    .map((s) => s.at);
  if (fromRows !== null) times.push(fromRows);
  // ISO times of one clock sort as strings (the SQL's min(at) over the rows).
  return times.length ? times.reduce((a, b) => (b < a ? b : a)) : null;
}

export function createStatisticsRepo(db: Db) {
  const entries = db.prepare<[string, string], EntryRow>(
    `SELECT e.id, e.operator_id, e.source, e.want, e.outcome, e.created_at, e.delivery_id, coalesce(s.agent, e.carrier) AS carrier,
       (SELECT min(at) FROM journal_steps st WHERE st.entry_id = e.id AND st.step = 'closed') AS closed_at,
       (SELECT min(at) FROM journal_steps st WHERE st.entry_id = e.id AND st.step = 'queued') AS queued_at,
       h.steps AS folded_steps
     FROM journal_entries e
     LEFT JOIN journal_history h ON h.entry_id = e.id
     LEFT JOIN shipments s ON s.account_id = e.account_id AND s.delivery_id = e.delivery_id
     WHERE e.created_at >= ? AND e.created_at < ?
     ORDER BY e.id`,
  );
  const jobs = db.prepare<
    [string, string],
    {
      entry_id: number;
      job_id: number;
      state: string;
      reason_code: string | null;
      copies: number;
      package_labels: number;
      finished_at: string | null;
    }
  >(
    `SELECT jj.entry_id, p.id AS job_id, p.state, p.reason_code, p.copies, json_array_length(p.barcodes) AS package_labels, p.finished_at
     FROM journal_entries e JOIN journal_jobs jj ON jj.entry_id = e.id JOIN print_jobs p ON p.id = jj.job_id
     WHERE e.created_at >= ? AND e.created_at < ?
     ORDER BY jj.entry_id, p.id`,
  );
  const reprints = db.prepare<[string, string], { operator_id: number | null; reason_code: string | null }>(
    `SELECT operator_id, reason_code FROM desk_actions WHERE action = 'reprint' AND at >= ? AND at < ? ORDER BY id`,
  );
  const holds = db.prepare<[string, string], { operator_id: number | null }>(
    `SELECT operator_id FROM desk_actions WHERE action = 'parcel_held' AND at >= ? AND at < ? ORDER BY id`,
  );
  const operators = db.prepare<[], { id: number; name: string }>('SELECT id, name FROM operators ORDER BY id');

  return {
    /** Entries begun from `from` (inclusive) to `to` (exclusive). */
    entries: (from: Date, to: Date): StatEntry[] =>
      entries.all(from.toISOString(), to.toISOString()).map((r) => ({
        id: r.id,
        operatorId: r.operator_id,
        source: r.source,
        want: r.want,
        outcome: r.outcome,
        createdAt: r.created_at,
        deliveryId: r.delivery_id,
        carrier: r.carrier,
        closedAt: firstAt(r, 'closed', r.closed_at),
        queuedAt: firstAt(r, 'queued', r.queued_at),
      })),
    /** The print jobs of those entries (a job shared by several entries is listed for each). */
    jobs: (from: Date, to: Date): StatJob[] =>
      jobs.all(from.toISOString(), to.toISOString()).map((r) => ({
        entryId: r.entry_id,
        jobId: r.job_id,
        state: r.state,
        reasonCode: r.reason_code,
        copies: r.copies,
        packageLabels: r.package_labels,
        finishedAt: r.finished_at,
      })),
    /** Reprints recorded at the desk in the range, with who asked and why. */
    reprints: (from: Date, to: Date): StatReprint[] =>
      reprints
        .all(from.toISOString(), to.toISOString())
        .map((r) => ({ operatorId: r.operator_id, reasonCode: r.reason_code })),
    /** Parcels put on the problem shelf in the range, with who held them. */
    holds: (from: Date, to: Date): { operatorId: number | null }[] =>
      holds.all(from.toISOString(), to.toISOString()).map((r) => ({ operatorId: r.operator_id })),
    /** Every operator ever registered (removed ones keep their name for the history). */
    operatorNames: (): Map<number, string> => new Map(operators.all().map((o) => [o.id, o.name])),
  };
}

export type StatisticsRepo = ReturnType<typeof createStatisticsRepo>;
