/**
 * The audit trail: what the station did with a parcel and who did it, read from the journal
 * (entries, their steps and weights), the print jobs linked to them (each outcome in a job's
 * history, at its printer) and the desk actions. Nothing is written here: every fact already has
 * its table; this puts them in one time line.
 *
 * Who: a journal entry's steps are the operator's who began it (migration 16: a scan is the
 * scanning operator's even when the background closes it after a sign-out), its print jobs too;
 * a desk action carries its own operator.
 */
import type { JobAction, OperatorSummary } from '../../shared/contract/operators';
import { unfoldJobEvents } from './jobHistory';
import { unfoldJournalSteps } from './journalHistory';
import type { TrailStep, TrailStepKind } from '../../shared/contract/audit';
import type { JobState } from '../../shared/contract/printing';
import type { JournalOutcome } from '../../shared/errors/codes';
import type { Db } from './database';
import type { JournalSource } from './journalRepo';

interface EntryRow {
  id: number;
  account_id: string;
  source: JournalSource;
  want: 'close_and_print' | 'print';
  code: string | null;
  raw_code: string | null;
  delivery_id: number | null;
  outcome: JournalOutcome | null;
  operator_id: number | null;
  desk: string | null;
  created_at: string;
  /** What the scan log says came of the entry's scan (a rescan: `reprinted`, `skipped`, …). */
  scan_outcome: string | null;
  /** When the entry's scan was made (a batch's: when the parcel was scanned into the batch). */
  scanned_at: string | null;
}

interface StepRow {
  entry_id: number;
  at: string;
  step: string;
  reason_code: string | null;
}

interface WeightRow {
  entry_id: number;
  package_index: number;
  kg: string | null;
  source: 'scale' | 'skipped' | 'timeout';
  at: string;
}

interface TrailJobEventRow {
  entry_id: number;
  job_id: number;
  printer_id: string | null;
  printer_name: string | null;
  at: string;
  state: JobState;
  reason_code: string | null;
  reason: string | null;
}

interface ActionRow {
  at: string;
  desk: string;
  operator_id: number | null;
  action: 'reprint' | JobAction | 'parcel_cancelled' | 'shipment_cancelled' | 'parcel_held' | 'hold_ended';
  delivery_id: number | null;
  entry_id: number | null;
  job_id: number | null;
  reason_code: string | null;
  note: string | null;
  printer_id: string | null;
  printer_name: string | null;
}

/** The owner of a print job: the entry whose labels it prints, per parcel (a reprint's copy: the reprint's entry). */
export interface JobOwner {
  accountId: string;
  deliveryId: number;
  entryId: number;
}

/** Outcomes of a print worth a line: a job's arrival at a state the worker would ask about. */
const PRINT_OUTCOMES: ReadonlySet<JobState> = new Set([
  'done',
  'spooled',
  'failed',
  'uncertain',
  'unconfirmed',
  'cancelled',
]);

const ENTRY_STEPS: Partial<Record<string, TrailStepKind>> = {
  close_requested: 'close_requested',
  closed: 'closed',
  queued: 'label_queued',
  weight_asked: 'weight_asked',
  weight_accepted: 'weight_accepted',
  label_verified: 'label_verified',
  label_mismatch: 'label_mismatch',
};

const WEIGHED: Record<string, TrailStepKind> = {
  weight_updated: 'weight_corrected',
  within_tolerance: 'weight_within_tolerance',
  not_prepared: 'weight_not_sent',
};

const blank = {
  code: null,
  source: null,
  jobId: null,
  printerId: null,
  printer: null,
  outcome: null,
  reasonCode: null,
  note: null,
  packageNumber: null,
  kg: null,
} satisfies Partial<TrailStep>;

const ENTRY_COLUMNS = `e.id, e.account_id, e.source, e.want, e.code, s.raw_code, e.delivery_id, e.outcome, e.operator_id, e.desk,
  e.created_at, s.outcome AS scan_outcome, s.scanned_at`;

/**
 * What came of a rescan (a scan of a parcel closed before, the already-closed prompt), from its
 * scan's log line: the worker reprinted it (Enter; the reprint's reason is its own step) or skipped
 * it (Esc); `unanswered` while the prompt was never answered.
 */
function rescanResult(scanOutcome: string | null): 'reprinted' | 'skipped' | 'unanswered' {
  return scanOutcome === 'reprinted' || scanOutcome === 'skipped' ? scanOutcome : 'unanswered';
}
const ACTION_COLUMNS = `a.at, a.desk, a.operator_id, a.action, a.delivery_id, a.entry_id, a.job_id, a.reason_code,
  a.note, j.printer_id, p.name AS printer_name`;
const ACTIONS_ON_PARCELS = `a.action IN ('reprint', 'job_cancelled', 'job_retried', 'job_moved', 'job_marked_printed', 'parcel_cancelled', 'shipment_cancelled', 'parcel_held', 'hold_ended')`;

export function createAuditTrailRepo(db: Db) {
  const entriesOfDelivery = db.prepare<[string, number], EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM journal_entries e LEFT JOIN scan_log s ON s.id = e.scan_id
     WHERE e.account_id = ? AND e.delivery_id = ? ORDER BY e.id`,
  );
  // Entries that began from a day before the range: a step inside the range may belong to an entry
  // begun just before it (a scan before midnight closed after it); journal_entries_created answers it.
  const entriesBegunBetween = db.prepare<[string, string, string], EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM journal_entries e LEFT JOIN scan_log s ON s.id = e.scan_id
     WHERE e.account_id = ? AND e.created_at >= ? AND e.created_at < ? ORDER BY e.id`,
  );
  const stepRows = db.prepare<[string], StepRow>(
    `SELECT entry_id, at, step, reason_code FROM journal_steps
     WHERE entry_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
  );
  // Settled entries past the labels window keep their steps folded in one row (migration 30).
  const foldedSteps = db.prepare<[string], { entry_id: number; created_at: string; steps: string }>(
    `SELECT h.entry_id, e.created_at, h.steps FROM journal_history h JOIN journal_entries e ON e.id = h.entry_id
     WHERE h.entry_id IN (SELECT value FROM json_each(?)) ORDER BY h.entry_id`,
  );
  /** The entries' steps, each entry's in the order they were recorded: folded ones (older) first, then the rows. */
  const stepsOf = (ids: string): StepRow[] => [
    ...foldedSteps
      .all(ids)
      .flatMap(({ entry_id, created_at, steps }) =>
        unfoldJournalSteps(steps, created_at).map((s) => ({ entry_id, ...s })),
      ),
    ...stepRows.all(ids),
  ];
  const weightsOf = db.prepare<[string], WeightRow>(
    `SELECT entry_id, package_index, kg, source, at FROM journal_weights
     WHERE entry_id IN (SELECT value FROM json_each(?)) ORDER BY at, package_index`,
  );
  // A job linked to several entries (a scan follows the reprint's copy that replaced its job) is
  // told once, under the newest of them: the entry that made it.
  const OWNERS = `WITH owner AS (SELECT job_id, max(entry_id) AS entry_id FROM journal_jobs
                    WHERE job_id IN (SELECT job_id FROM journal_jobs WHERE entry_id IN (SELECT value FROM json_each(?)))
                    GROUP BY job_id)`;
  const jobEventRows = db.prepare<[string], TrailJobEventRow>(
    `${OWNERS}
     SELECT o.entry_id, o.job_id, j.printer_id, p.name AS printer_name, ev.at, ev.state, ev.reason_code, ev.reason
     FROM owner o JOIN print_jobs j ON j.id = o.job_id LEFT JOIN printers p ON p.id = j.printer_id
     JOIN print_job_events ev ON ev.job_id = o.job_id
     ORDER BY ev.rowid`,
  );
  // Jobs past the labels window keep their events folded in one row (migration 29).
  const foldedJobEvents = db.prepare<
    [string],
    Omit<TrailJobEventRow, 'at' | 'state' | 'reason_code' | 'reason'> & { created_at: string; events: string }
  >(
    `${OWNERS}
     SELECT o.entry_id, o.job_id, j.printer_id, p.name AS printer_name, j.created_at, f.events
     FROM owner o JOIN print_jobs j ON j.id = o.job_id LEFT JOIN printers p ON p.id = j.printer_id
     JOIN print_job_history f ON f.job_id = o.job_id
     ORDER BY o.job_id`,
  );
  /** The jobs' events in the order they were recorded: folded ones (older) by time, before the rows. */
  function jobEventsOf(ids: string): TrailJobEventRow[] {
    const folded = foldedJobEvents
      .all(ids)
      .flatMap(({ created_at, events, ...job }) =>
        unfoldJobEvents(events, created_at).map((e) => ({ ...job, ...e, state: e.state as JobState })),
      );
    const rows = jobEventRows.all(ids);
    if (!folded.length) return rows;
    // A stable sort: a job's own events stay in their order at equal times.
    return [...folded.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)), ...rows];
  }
  const actionsOfDelivery = db.prepare<[string, number], ActionRow>(
    `SELECT ${ACTION_COLUMNS} FROM desk_actions a LEFT JOIN print_jobs j ON j.id = a.job_id
     LEFT JOIN printers p ON p.id = j.printer_id
     WHERE a.account_id = ? AND a.delivery_id = ? AND ${ACTIONS_ON_PARCELS} ORDER BY a.id`,
  );
  const actionsBetween = db.prepare<[string, string, string], ActionRow>(
    `SELECT ${ACTION_COLUMNS} FROM desk_actions a LEFT JOIN print_jobs j ON j.id = a.job_id
     LEFT JOIN printers p ON p.id = j.printer_id
     WHERE a.account_id = ? AND a.at >= ? AND a.at < ? AND ${ACTIONS_ON_PARCELS} ORDER BY a.id`,
  );
  const operators = db.prepare<[], { id: number; name: string }>('SELECT id, name FROM operators');
  const ownersOfJob = db.prepare<[number], { account_id: string; delivery_id: number; entry_id: number }>(
    `SELECT e.account_id, e.delivery_id, max(e.id) AS entry_id FROM journal_jobs jj
     JOIN journal_entries e ON e.id = jj.entry_id
     WHERE jj.job_id = ? AND e.delivery_id IS NOT NULL GROUP BY e.account_id, e.delivery_id ORDER BY e.delivery_id`,
  );

  function operatorNames(): (id: number | null) => OperatorSummary | null {
    // Removed operators keep their rows (removed_at), so a name is always found for the history.
    const names = new Map(operators.all().map((o) => [o.id, o.name]));
    return (id) => (id === null ? null : { id, name: names.get(id) ?? `#${id}` });
  }

  /** The steps of these entries and of these desk actions, oldest first (ties in the order they were recorded). */
  function assemble(entries: EntryRow[], actions: ActionRow[]): TrailStep[] {
    const who = operatorNames();
    const ids = JSON.stringify(entries.map((e) => e.id));
    const byId = new Map(entries.map((e) => [e.id, e]));
    const out: { step: TrailStep; order: number }[] = [];
    const push = (step: TrailStep) => out.push({ step, order: out.length });
    const ofEntry = (e: EntryRow) => ({ desk: e.desk, operator: who(e.operator_id), deliveryId: e.delivery_id });

    // A person's action first among steps of the same instant: it is their cause (a reprint's entry, a cancelled job).
    for (const a of actions) {
      push({
        ...blank,
        at: a.at,
        step: a.action,
        desk: a.desk,
        operator: who(a.operator_id),
        deliveryId: a.delivery_id,
        jobId: a.job_id,
        printerId: a.printer_id,
        printer: a.printer_name,
        reasonCode: a.reason_code,
        note: a.note,
      });
    }
    for (const e of entries) {
      // A parcel scanned into a batch was scanned then, and closed with the batch later: both are said.
      if (e.source === 'batch' && e.scanned_at)
        push({
          ...blank,
          ...ofEntry(e),
          at: e.scanned_at,
          step: 'scanned',
          code: e.raw_code ?? e.code,
          source: e.source,
        });
      push({
        ...blank,
        ...ofEntry(e),
        at: e.created_at,
        step: e.source === 'scan' ? 'scanned' : 'print_asked',
        code: e.source === 'scan' ? (e.raw_code ?? e.code) : null,
        source: e.source,
      });
    }
    const begun = new Set<number>();
    for (const s of stepsOf(ids)) {
      const e = byId.get(s.entry_id)!;
      // An entry to print a closed parcel begins at `closed` (journalRepo.begin): not a close of its own.
      const first = !begun.has(e.id);
      begun.add(e.id);
      if (first && e.want === 'print' && s.step === 'closed') continue;
      let kind: TrailStepKind | undefined = ENTRY_STEPS[s.step];
      if (s.step === 'weighed') kind = WEIGHED[s.reason_code ?? ''];
      if (s.step === 'ended') {
        // An entry that ended with its labels printed or queued says so by its prints; one that ended otherwise says why.
        if (!e.outcome || e.outcome === 'waiting') continue;
        push({
          ...blank,
          ...ofEntry(e),
          at: s.at,
          step: 'ended',
          outcome: e.outcome,
          reasonCode: e.outcome === 'already_closed' ? rescanResult(e.scan_outcome) : s.reason_code,
        });
        continue;
      }
      if (!kind) continue; // received, resolved, label_expected: the scan and the print say them
      push({
        ...blank,
        ...ofEntry(e),
        at: s.at,
        step: kind,
        reasonCode: s.step === 'label_mismatch' ? s.reason_code : null,
      });
    }
    for (const w of weightsOf.all(ids)) {
      const e = byId.get(w.entry_id)!;
      push({
        ...blank,
        ...ofEntry(e),
        at: w.at,
        step: 'weight_taken',
        outcome: w.source,
        packageNumber: w.package_index + 1,
        kg: w.kg,
      });
    }
    let last: TrailJobEventRow | null = null;
    for (const ev of jobEventsOf(ids)) {
      // A failed job retried by its back-off fails again and again: one line until its state or reason changes.
      const same = last?.job_id === ev.job_id && last.state === ev.state && last.reason_code === ev.reason_code;
      last = ev;
      if (!PRINT_OUTCOMES.has(ev.state) || same) continue;
      const e = byId.get(ev.entry_id);
      if (!e) continue;
      push({
        ...blank,
        ...ofEntry(e),
        at: ev.at,
        step: 'print',
        jobId: ev.job_id,
        printerId: ev.printer_id,
        printer: ev.printer_name,
        outcome: ev.state,
        reasonCode: ev.reason_code,
        note: ev.reason,
      });
    }
    // ISO times of one clock sort as strings; a tie keeps the order the facts were read in.
    return out
      .sort((x, y) => (x.step.at < y.step.at ? -1 : x.step.at > y.step.at ? 1 : x.order - y.order))
      .map((x) => x.step);
  }

  return {
    /** Every step of one parcel of an account, oldest first. */
    ofDelivery(accountId: string, deliveryId: number): TrailStep[] {
      return assemble(entriesOfDelivery.all(accountId, deliveryId), actionsOfDelivery.all(accountId, deliveryId));
    },
    /** Every step of an account's parcels from `from` (inclusive) to `to` (exclusive), oldest first. */
    between(accountId: string, from: Date, to: Date): TrailStep[] {
      const f = from.toISOString();
      const t = to.toISOString();
      const since = new Date(from.getTime() - 86_400_000).toISOString();
      return assemble(entriesBegunBetween.all(accountId, since, t), actionsBetween.all(accountId, f, t)).filter(
        (s) => s.at >= f && s.at < t,
      );
    },
    /** The parcels whose labels a print job holds, each with its account and entry (a job of no parcel: none). */
    ownersOfJob: (jobId: number): JobOwner[] =>
      ownersOfJob.all(jobId).map((r) => ({ accountId: r.account_id, deliveryId: r.delivery_id, entryId: r.entry_id })),
  };
}

export type AuditTrailRepo = ReturnType<typeof createAuditTrailRepo>;
