/**
 * The journal of "close and print": one row per shipment a path wants closed and/or printed,
 * its step, and the print jobs it produced (journal_jobs). Each step change is one transaction
 * with its history row (journal_steps); what acts on a step awaits the write-ahead log's sync
 * first (./walSync.ts), so a step is on the disk before the side effect it allows.
 */
import { REPLACED_BY_NEW_JOB, type LabelRoute } from '../../shared/contract/printing';
import type { ScanOutcome as LogOutcome } from '../../shared/contract/shipments';
import { codeOf, type Code, type DeskNoteCode, type JournalOutcome } from '../../shared/errors/codes';
import type { Db } from './database';
import type { DeskWho } from '../../shared/contract/operators';
import { unfoldJournalSteps, type JournalStepRow } from './journalHistory';
import { createLazyCommit } from './lazyCommit';
import type { ScanLogRepo } from './scanLogRepo';

/** A value made on first use, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** The reasons of a job a new print took over, as an SQL list (codes of the registry: no quoting to escape). */
const REPLACED_SQL = `(${REPLACED_BY_NEW_JOB.map((c) => `'${c}'`).join(', ')})`;

export type JournalSource = 'scan' | 'batch' | 'shipments' | 'new_shipment' | 'reprint';
export type JournalStep = 'received' | 'resolved' | 'close_requested' | 'closed' | 'queued' | 'ended';
/** Steps of the desk kept in an entry's history without moving its state (weighing, label check). */
export type DeskStep =
  'weighed' | 'weight_asked' | 'weight_accepted' | 'label_expected' | 'label_verified' | 'label_mismatch';
/** close-and-print: a prepared shipment to close, then print; print: a closed shipment's labels (again). */
export type JournalWant = 'close_and_print' | 'print';

export interface JournalEntry {
  id: number;
  accountId: string;
  source: JournalSource;
  scanId: number | null;
  code: string | null;
  deliveryId: number | null;
  want: JournalWant;
  /** The route the worker chose for this print; null: the routing rules. */
  route: LabelRoute | null;
  step: JournalStep;
  /** Why an entry ended (not_found, rejected, not_printed...), or why it waits. */
  outcome: JournalOutcome | null;
  reasonCode: Code | null;
  reason: string | null;
  attempts: number;
  /** A waiting entry runs again at this time (null: when its cause is gone: login, the service back). */
  nextRetryAt: string | null;
  createdAt: string;
  /** Who began the entry (the operator signed in when it was scanned or asked for); null: nobody signed in. */
  operatorId: number | null;
  /** The desk's name when it began. */
  desk: string | null;
}

/** A scan as the line receives it (named without the desk scanner's affixes; `rawCode` as typed, when it differs). */
export interface ReceivedScan {
  accountId: string;
  code: string;
  rawCode: string | null;
  at: Date;
  /** The sending page's name for the scan (scan.submit's `ref`), or null. */
  pageRef?: string | null;
}

interface LatestScanRow {
  scan_id: number;
  code: string | null;
  step: JournalStep;
  reason_code: string | null;
  delivery_id: number | null;
  outcome: string;
  message: string | null;
  job_ids: string;
}

/** A scan at the desk as the journal and the scan log left it. */
export interface LatestScan {
  scanId: number;
  code: string;
  step: JournalStep;
  reasonCode: string | null;
  deliveryId: number | null;
  logOutcome: LogOutcome;
  message: string | null;
  jobIds: number[];
}

export interface NewEntry {
  accountId: string;
  source: JournalSource;
  scanId?: number | null;
  code?: string | null;
  deliveryId: number;
  want: JournalWant;
  route?: LabelRoute | null;
}

export interface StepChange {
  /** The step allows no side effect (`closed`: what follows reads labels; the jobs' commit is synced before a byte): a lazy commit (./lazyCommit.ts). */
  noSideEffect?: boolean;
  deliveryId?: number;
  outcome?: JournalOutcome | null;
  reasonCode?: Code | null;
  reason?: string | null;
}

interface Row {
  id: number;
  account_id: string;
  source: JournalSource;
  scan_id: number | null;
  code: string | null;
  delivery_id: number | null;
  want: JournalWant;
  route: string | null;
  step: JournalStep;
  outcome: JournalOutcome | null;
  reason_code: string | null;
  reason: string | null;
  attempts: number;
  next_retry_at: string | null;
  created_at: string;
  operator_id: number | null;
  desk: string | null;
}

const toEntry = (r: Row): JournalEntry => ({
  id: r.id,
  accountId: r.account_id,
  source: r.source,
  scanId: r.scan_id,
  code: r.code,
  deliveryId: r.delivery_id,
  want: r.want,
  route: r.route ? (JSON.parse(r.route) as LabelRoute) : null,
  step: r.step,
  outcome: r.outcome,
  reasonCode: codeOf(r.reason_code),
  reason: r.reason,
  attempts: r.attempts,
  nextRetryAt: r.next_retry_at,
  createdAt: r.created_at,
  operatorId: r.operator_id,
  desk: r.desk,
});

const UNFINISHED = `step NOT IN ('queued', 'ended')`;

/**
 * What the scan log says of a scan whose entry ended, written in the same commit as the step: an
 * outcome kept only in memory would leave the scan `pending` forever after a crash.
 */
const scanLogOutcome: Record<Exclude<JournalOutcome, 'waiting'>, LogOutcome> = {
  not_found: 'not_found',
  ambiguous: 'ambiguous',
  cancelled: 'cancelled',
  rejected: 'rejected',
  closed_elsewhere: 'already_closed',
  already_closed: 'already_closed',
  /** Held at the weight check: nothing was done with the parcel. */
  held: 'skipped',
  not_printed: 'error',
  error: 'error',
};

/**
 * `who`: the desk and operator now (electron/operators/deskOperator.ts); each new entry keeps them,
 * so a step the background finishes later is still the person's who began it.
 */
export function createJournalRepo(
  db: Db,
  scanLog: ScanLogRepo,
  who: () => DeskWho = () => ({ desk: '', operator: null }),
) {
  const lazyCommit = createLazyCommit(db);
  const insertRow = db.prepare(`INSERT INTO journal_entries
    (account_id, source, scan_id, code, delivery_id, want, route, step, created_at, updated_at, operator_id, desk)
    VALUES (@accountId, @source, @scanId, @code, @deliveryId, @want, @route, @step, @now, @now, @operatorId, @desk)`);
  const insert = {
    run(e: Record<string, unknown>) {
      const w = who();
      return insertRow.run({ ...e, operatorId: w.operator?.id ?? null, desk: w.desk || null });
    },
  };
  const insertStep = db.prepare('INSERT INTO journal_steps (entry_id, at, step, reason_code) VALUES (?, ?, ?, ?)');
  const getOne = db.prepare<[number], Row>('SELECT * FROM journal_entries WHERE id = ?');
  const setStep = db.prepare(`UPDATE journal_entries SET step = @step,
      delivery_id = coalesce(@deliveryId, delivery_id), outcome = @outcome, reason_code = @reasonCode, reason = @reason,
      next_retry_at = NULL, updated_at = @now WHERE id = @id`);
  const setWait =
    db.prepare(`UPDATE journal_entries SET outcome = 'waiting', reason_code = @reasonCode, reason = @reason,
      next_retry_at = @nextRetryAt, attempts = attempts + 1, updated_at = @now WHERE id = @id`);
  const adopt = db.prepare(`UPDATE journal_entries SET account_id = ? WHERE id = ? AND account_id = ''`);
  const link = db.prepare('INSERT OR IGNORE INTO journal_jobs (entry_id, job_id) VALUES (?, ?)');
  const nextScan = db.prepare<[], Row>(
    `SELECT * FROM journal_entries WHERE source = 'scan' AND ${UNFINISHED} ORDER BY id LIMIT 1`,
  );
  const unfinishedScans = db.prepare<[number], Row>(
    `SELECT * FROM journal_entries WHERE source = 'scan' AND ${UNFINISHED} ORDER BY id LIMIT ?`,
  );
  // Ids first (the partial index answers them alone), rows only of those no runner holds: a batch of
  // 500 being closed is 500 claimed entries, read and parsed whole on every tick of the journal.
  // Named: for `<>` and the order the planner walks the whole table instead, a year's journal
  // (730,000 entries) every second.
  const unfinishedOtherIds = db.prepare<[], { id: number }>(
    `SELECT id FROM journal_entries INDEXED BY journal_unfinished WHERE source <> 'scan' AND ${UNFINISHED} ORDER BY id`,
  );
  const entriesOfJob = db.prepare<[number], { entry_id: number }>('SELECT entry_id FROM journal_jobs WHERE job_id = ?');
  const jobsOfEntry = db.prepare<[number], { job_id: number }>(
    'SELECT job_id FROM journal_jobs WHERE entry_id = ? ORDER BY job_id',
  );
  const jobsOfDelivery = db.prepare<[string, number], { job_id: number }>(
    `SELECT j.job_id FROM journal_jobs j JOIN journal_entries e ON e.id = j.entry_id WHERE e.account_id = ? AND e.delivery_id = ? ORDER BY j.job_id`,
  );
  const stepRows = db.prepare<[number], JournalStepRow>(
    'SELECT at, step, reason_code FROM journal_steps WHERE entry_id = ? ORDER BY rowid',
  );
  // A settled entry's steps past the labels window are folded in one row (migration 30), before any rows.
  // The statements that read them are prepared on first use: the journal also writes a station's
  // entries on a schema from before (the migration tests make their old stations with it).
  const foldedSteps = once(() =>
    db.prepare<[number], { created_at: string; steps: string }>(
      'SELECT e.created_at, h.steps FROM journal_history h JOIN journal_entries e ON e.id = h.entry_id WHERE h.entry_id = ?',
    ),
  );
  const stepsOf = (id: number) => {
    const folded = foldedSteps().get(id);
    const rows = stepRows.all(id);
    return (folded ? [...unfoldJournalSteps(folded.steps, folded.created_at), ...rows] : rows) as {
      at: string;
      step: JournalStep | DeskStep;
      reason_code: string | null;
    }[];
  };
  // A close found by a read after a lost answer (`close_confirmed_by_search`) may be another desk's: not counted.
  // The steps as rows, or folded (a JSON list of [step, at, reasonCode?], store/journalHistory.ts).
  const closedHere = once(() =>
    db.prepare<[string, number, string, number], { n: number }>(
      `SELECT EXISTS (SELECT 1 FROM journal_steps s JOIN journal_entries e ON e.id = s.entry_id
       WHERE e.account_id = ? AND e.delivery_id = ? AND e.want = 'close_and_print' AND s.step = 'closed'
         AND coalesce(s.reason_code, '') <> 'close_confirmed_by_search')
     OR EXISTS (SELECT 1 FROM journal_entries e JOIN journal_history h ON h.entry_id = e.id, json_each(h.steps) f
       WHERE e.account_id = ? AND e.delivery_id = ? AND e.want = 'close_and_print' AND f.value ->> 0 = 'closed'
         AND coalesce(f.value ->> 2, '') <> 'close_confirmed_by_search') AS n`,
    ),
  );
  const closeFoundByRead = once(() =>
    db.prepare<[number, number], { n: number }>(
      `SELECT EXISTS (SELECT 1 FROM journal_steps WHERE entry_id = ? AND step = 'closed' AND reason_code = 'close_confirmed_by_search')
     OR EXISTS (SELECT 1 FROM journal_history h, json_each(h.steps) f
       WHERE h.entry_id = ? AND f.value ->> 0 = 'closed' AND f.value ->> 2 = 'close_confirmed_by_search') AS n`,
    ),
  );

  // Only a scan the workflow has not answered more precisely yet (pending, or waiting as queued).
  const logScan = db.prepare(
    `UPDATE scan_log SET outcome = @outcome, delivery_id = coalesce(delivery_id, @deliveryId), message = coalesce(@message, message)
     WHERE id = (SELECT scan_id FROM journal_entries WHERE id = @id) AND outcome IN ('pending', 'queued')`,
  );
  /**
   * Entries a runner of this process is moving right now (in memory: a restart frees them all).
   * The background resume skips them, so one entry is never run twice at once (two label fetches,
   * two print jobs for one close).
   */
  const claimed = new Set<number>();

  const changeStep = (id: number, step: JournalStep, at: string, c: StepChange) => {
    setStep.run({
      id,
      step,
      deliveryId: c.deliveryId ?? null,
      outcome: c.outcome ?? null,
      reasonCode: c.reasonCode ?? null,
      reason: c.reason ?? null,
      now: at,
    });
    insertStep.run(id, at, step, c.reasonCode ?? null);
    const outcome =
      step === 'queued'
        ? 'queued'
        : step === 'ended'
          ? c.outcome && c.outcome !== 'waiting'
            ? scanLogOutcome[c.outcome]
            : undefined
          : undefined;
    if (outcome) logScan.run({ id, outcome, deliveryId: c.deliveryId ?? null, message: c.reason ?? null });
  };
  // Scans whose labels all came out while nobody was listening (the station stopped before it heard).
  // A scan whose labels were handed to the print system (spooled) is logged as such, not printed.
  // Driven from the scans still open (index scan_log_open), so a start costs what is open, not the history.
  const printedScans = db.prepare(
    `UPDATE scan_log SET outcome = CASE WHEN EXISTS (
         SELECT 1 FROM journal_entries e JOIN journal_jobs j ON j.entry_id = e.id JOIN print_jobs p ON p.id = j.job_id
         WHERE e.scan_id = scan_log.id AND p.state = 'spooled') THEN 'spooled' ELSE 'printed' END
     WHERE outcome IN ('pending', 'queued') AND EXISTS (
       SELECT 1 FROM journal_entries e WHERE e.scan_id = scan_log.id AND e.step = 'queued' AND e.source <> 'reprint'
         AND EXISTS (SELECT 1 FROM journal_jobs j JOIN print_jobs p ON p.id = j.job_id WHERE j.entry_id = e.id AND p.state IN ('done', 'spooled'))
         -- a job a new print of the same labels took over (linked to the entry too) no longer holds the scan back
         AND NOT EXISTS (SELECT 1 FROM journal_jobs j JOIN print_jobs p ON p.id = j.job_id WHERE j.entry_id = e.id AND p.state NOT IN ('done', 'spooled')
           AND NOT (p.state = 'cancelled' AND p.reason_code IN ${REPLACED_SQL})))`,
  );

  // Scans whose label was cancelled in the queue while nobody was listening: not waiting any more.
  const cancelledScans = db.prepare(
    `UPDATE scan_log SET outcome = 'print_cancelled'
     WHERE outcome IN ('pending', 'queued') AND outcome = 'queued' AND EXISTS (
       SELECT 1 FROM journal_entries e JOIN journal_jobs j ON j.entry_id = e.id JOIN print_jobs p ON p.id = j.job_id
       WHERE e.scan_id = scan_log.id AND e.step = 'queued' AND p.state = 'cancelled' AND coalesce(p.reason_code, '') NOT IN ${REPLACED_SQL})`,
  );

  // The desk's latest scans, newest first: the entries from the end of the table (its key), each
  // with its scan log row and its jobs by their keys, so the read stays small however long the history.
  const latestScans = db.prepare<[string, number], LatestScanRow>(
    `SELECT e.scan_id, e.code, e.step, e.reason_code, e.delivery_id, s.outcome, s.message,
       (SELECT json_group_array(j.job_id) FROM journal_jobs j WHERE j.entry_id = e.id) AS job_ids
     FROM journal_entries e JOIN scan_log s ON s.id = e.scan_id
     WHERE e.account_id = ? AND e.source = 'scan' ORDER BY e.id DESC LIMIT ?`,
  );
  // The labels of the desk's latest closes and reprints, newest first; a cancelled one never printed.
  const latestLabels = db.prepare<[string, number], { job_id: number; delivery_id: number | null }>(
    `SELECT p.id AS job_id, min(e.delivery_id) AS delivery_id FROM print_jobs p
       JOIN journal_jobs j ON j.job_id = p.id JOIN journal_entries e ON e.id = j.entry_id
     WHERE e.account_id = ? AND e.source IN ('scan', 'batch', 'reprint') AND p.kind = 'print' AND p.state <> 'cancelled'
     GROUP BY p.id ORDER BY p.id DESC LIMIT ?`,
  );

  const repo = {
    /** A scan as it arrives: its scan log row and its journal entry, in one commit, before the scan is acknowledged. */
    receiveScan(s: ReceivedScan): { scanId: number; entry: JournalEntry } {
      return repo.receiveScans([s])[0]!;
    },

    /**
     * Scans that arrived together (in order): one commit for all, before any is acknowledged.
     * `closeNext` may name the prepared shipment a scan resolved to, inside this commit, when its
     * close is the next thing the station does (a lone scan, the line idle): the entry is then
     * committed as `close_requested` with its `received` and `resolved` steps, and this commit is
     * the one the close request waits for (one disk sync a scan less). Lost before the request
     * left, the entry is reconciled like any `close_requested`: the service is asked first.
     */
    receiveScans(
      list: ReceivedScan[],
      closeNext?: (s: ReceivedScan) => number | null,
    ): { scanId: number; entry: JournalEntry }[] {
      return db.transaction(() =>
        list.map((s) => {
          const at = s.at.toISOString();
          const scanId = scanLog.record({
            accountId: s.accountId,
            code: s.code,
            rawCode: s.rawCode,
            scannedAt: s.at,
            pageRef: s.pageRef,
          });
          const deliveryId = closeNext?.(s) ?? null;
          const step: JournalStep = deliveryId === null ? 'received' : 'close_requested';
          const id = Number(
            insert.run({
              accountId: s.accountId,
              source: 'scan',
              scanId,
              code: s.code,
              deliveryId,
              want: 'close_and_print',
              route: null,
              step,
              now: at,
            }).lastInsertRowid,
          );
          insertStep.run(id, at, 'received', null);
          if (deliveryId !== null) {
            insertStep.run(id, at, 'resolved', null);
            insertStep.run(id, at, 'close_requested', null);
          }
          return { scanId, entry: toEntry(getOne.get(id)!) };
        }),
      )();
    },

    /** The latest `limit` scans of an account at the desk, newest first (the Station screen's recent scans). */
    latestScans(accountId: string, limit: number): LatestScan[] {
      return latestScans.all(accountId, limit).map((r) => ({
        scanId: r.scan_id,
        code: r.code ?? '',
        step: r.step,
        reasonCode: codeOf(r.reason_code),
        deliveryId: r.delivery_id,
        logOutcome: r.outcome as LogOutcome,
        message: r.message,
        jobIds: JSON.parse(r.job_ids) as number[],
      }));
    },
    /** The latest `limit` label jobs of an account's scans, batches and reprints, newest first, none cancelled. */
    latestLabels(accountId: string, limit: number): { jobId: number; deliveryId: number | null }[] {
      return latestLabels.all(accountId, limit).map((r) => ({ jobId: r.job_id, deliveryId: r.delivery_id }));
    },

    /** The scan log catches up with labels that came out before a stop; returns how many scans it updated. */
    settleScanLog: (): number => printedScans.run().changes + cancelledScans.run().changes,

    /**
     * Entries for shipments already known: a prepared one to close (`resolved`), a closed one to
     * print (`closed`). `within` runs in the same commit (the batch list gives its codes up there).
     */
    begin(list: NewEntry[], at: Date, within?: () => void): JournalEntry[] {
      const now = at.toISOString();
      return db.transaction(() => {
        const out = list.map((e) => {
          const step: JournalStep = e.want === 'print' ? 'closed' : 'resolved';
          const id = Number(
            insert.run({
              accountId: e.accountId,
              source: e.source,
              scanId: e.scanId ?? null,
              code: e.code ?? null,
              deliveryId: e.deliveryId,
              want: e.want,
              route: e.route ? JSON.stringify(e.route) : null,
              step,
              now,
            }).lastInsertRowid,
          );
          insertStep.run(id, now, step, null);
          return toEntry(getOne.get(id)!);
        });
        within?.();
        return out;
      })();
    },

    get(id: number): JournalEntry | null {
      const r = getOne.get(id);
      return r ? toEntry(r) : null;
    },

    /** Moves entries to a step in one commit (clears any wait). */
    step(ids: number[], step: JournalStep, at: Date, change: StepChange = {}): void {
      const now = at.toISOString();
      const commit = () => ids.forEach((id) => changeStep(id, step, now, change));
      if (change.noSideEffect) lazyCommit(commit);
      else db.transaction(commit)();
    },

    /**
     * A step of the desk inside the entry's history that does not move its state (weighed, label
     * verified): journal_steps keeps it with the others, in order.
     */
    note(id: number, step: DeskStep, at: Date, reasonCode: DeskNoteCode | null = null): void {
      insertStep.run(id, at.toISOString(), step, reasonCode);
    },

    /** The entry stays at its step and runs again later: at `nextRetryAt`, or when its cause is gone. */
    wait(ids: number[], at: Date, w: { reasonCode: Code; reason: string; nextRetryAt: Date | null }): void {
      const now = at.toISOString();
      db.transaction(() =>
        ids.forEach((id) =>
          setWait.run({
            id,
            reasonCode: w.reasonCode,
            reason: w.reason,
            nextRetryAt: w.nextRetryAt?.toISOString() ?? null,
            now,
          }),
        ),
      )();
    },

    /** A scan made while logged out belongs to the account that runs it. */
    adopt(id: number, accountId: string): void {
      adopt.run(accountId, id);
    },

    /** Links print jobs to their entry and marks it queued: call inside the transaction that inserts the jobs. */
    queued(id: number, jobIds: number[], at: Date): void {
      for (const j of jobIds) link.run(id, j);
      changeStep(id, 'queued', at.toISOString(), {});
    },

    /** The entries a print job belongs to. */
    entriesOfJob: (jobId: number): JournalEntry[] => entriesOfJob.all(jobId).flatMap((r) => repo.get(r.entry_id) ?? []),

    /**
     * The entries that hold `jobId` hold `newJobIds` too: a job replaced by a reprint hands its
     * scan (and every other entry of it) on to the job that prints its labels now.
     */
    follow(jobId: number, newJobIds: number[]): void {
      for (const { entry_id } of entriesOfJob.all(jobId)) for (const j of newJobIds) link.run(entry_id, j);
    },

    /** Waiting entries of a source (all others when 'others') become due now: their cause may be gone. */
    wakeWaiting(source: 'scan' | 'others', at: Date): void {
      db.prepare(
        `UPDATE journal_entries SET next_retry_at = ? WHERE outcome = 'waiting' AND ${UNFINISHED} AND ${source === 'scan' ? "source = 'scan'" : "source <> 'scan'"}`,
      ).run(at.toISOString());
    },

    /** Claims the entries not claimed yet, and returns those (the caller runs them, then releases them). */
    claim(ids: number[]): number[] {
      const mine = ids.filter((id) => !claimed.has(id));
      mine.forEach((id) => claimed.add(id));
      return mine;
    },
    release(ids: number[]): void {
      ids.forEach((id) => claimed.delete(id));
    },

    nextScan(): JournalEntry | null {
      const r = nextScan.get();
      return r ? toEntry(r) : null;
    },
    unfinishedScans: (limit = 1000): JournalEntry[] => unfinishedScans.all(limit).map(toEntry),
    /** Unfinished entries of every path but the scan lane, that no runner holds now. */
    unfinishedOthers: (): JournalEntry[] =>
      unfinishedOtherIds.all().flatMap(({ id }) => {
        const r = claimed.has(id) ? undefined : getOne.get(id);
        return r ? [toEntry(r)] : [];
      }),
    jobIdsOf: (entryId: number): number[] => jobsOfEntry.all(entryId).map((r) => r.job_id),
    jobIdsOfShipment: (accountId: string, deliveryId: number): number[] =>
      jobsOfDelivery.all(accountId, deliveryId).map((r) => r.job_id),
    /** Whether this station closed the shipment (the service's answer to a close it requested said so). */
    closedHere: (accountId: string, deliveryId: number): boolean =>
      closedHere().get(accountId, deliveryId, accountId, deliveryId)!.n > 0,
    /** Whether the entry found its shipment closed by a read (after a lost answer), not by the close's answer. */
    closeFoundByRead: (id: number): boolean => closeFoundByRead().get(id, id)!.n > 0,
    /** The entry's steps in order: folded ones (migration 30) first, then its rows. */
    steps: stepsOf,
  };
  return repo;
}

export type JournalRepo = ReturnType<typeof createJournalRepo>;
