/**
 * Print jobs: the durable queue's rows and their history. Every state change is one
 * transaction that also appends to print_job_events, so the queue screen can show what happened.
 */
import type { JobDocument, JobState, JobView } from '../../shared/contract/printing';
import type { Db } from './database';
import type { CounterMark } from '../printing/printerDriver';
import { createLazyCommit } from './lazyCommit';
import { packBytes, unpackBytes, type PackedBytes } from './packedBytes';
import { unfoldJobEvents } from './jobHistory';
import { printerReasonOf, type PrinterReasonCode } from '../../shared/errors/codes';

/** Every job prints (the column stays in the schema of migration 2). */
export type JobKind = 'print';

export interface NewPrintJob {
  kind: 'print';
  printerId: string;
  format: 'zpl' | 'pdf';
  /** The exact bytes the service returned (ZPL text or PDF); printer settings are applied at send time. */
  payload: Buffer;
  /** The service's ZPL size (cm at 300 dpi), needed to convert for 203/600-dpi printers. */
  labelSize?: string | null;
  /**
   * What the job prints, for support and for the screen's name of the job (documentOf):
   * `zpl:<id>`/`pdf:<ids>` labels, `protocol:<id>`, `demo:pick-list`, `test:<printer id>`.
   */
  labelRef?: string | null;
  title: string;
  deliveryIds?: number[];
  barcodes?: string[];
  copies?: number;
  reprintOf?: number | null;
  /**
   * ZPL: the label kept a moment ago (labelsRepo.save) whose parts, joined by a line break, are
   * `payload` byte for byte: the job is linked to it (migration 28) instead of keeping a copy, so
   * the label's bytes are deflated and stored once.
   */
  labelDocumentId?: number | null;
}

export interface JobStateChange {
  reasonCode?: PrinterReasonCode | null;
  reason?: string | null;
  nextRetryAt?: string | null;
  delivered?: boolean;
  attempt?: boolean;
  /** The change allows no side effect (every byte already left: `sent`, `done`): a lazy commit (./lazyCommit.ts). */
  noSideEffect?: boolean;
  /** With `sending`: the printer's label counter before the job (see CounterMark). */
  counter?: CounterMark;
}

interface JobRow {
  id: number;
  kind: JobKind;
  printer_id: string | null;
  format: 'zpl' | 'pdf' | null;
  label_ref: string | null;
  label_size: string | null;
  title: string;
  delivery_ids: string;
  barcodes: string;
  copies: number;
  state: JobState;
  attempts: number;
  /** As stored: an older version's code may be one this version does not know (printerReasonOf). */
  reason_code: string | null;
  reason: string | null;
  next_retry_at: string | null;
  delivered: number;
  reprint_of: number | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  bytes: number;
}

export interface StoredJob extends JobView {
  labelSize: string | null;
  labelRef: string | null;
}

const COLUMNS = `id, kind, printer_id, format, label_ref, label_size, title, delivery_ids, barcodes, copies,
  state, attempts, reason_code, reason, next_retry_at, delivered, reprint_of, created_at, updated_at, finished_at,
  coalesce((SELECT coalesce(b.size, length(b.bytes)) FROM print_job_bytes b WHERE b.job_id = print_jobs.id),
    (SELECT l.size FROM print_job_labels l WHERE l.job_id = print_jobs.id), 0) AS bytes`;

/**
 * A lane still has work in two states: queued, or failed with a retry time of its own. Its next job: the lowest id among its queued jobs and its failed jobs with a retry time,
 * each found at the front of the lane index (printer_id, state, id). Written as one `OR` with
 * `ORDER BY id` it read and sorted every job the printer ever had (a station's whole history,
 * before each label, so each label cost more as the history grew).
 */
export const LANE_HEAD_SQL = `SELECT ${COLUMNS} FROM print_jobs WHERE id = (SELECT min(id) FROM (
  SELECT * FROM (SELECT id FROM print_jobs WHERE printer_id = @printerId AND state = 'queued' AND kind = 'print' ORDER BY id LIMIT 1)
  UNION ALL
  SELECT * FROM (SELECT id FROM print_jobs WHERE printer_id = @printerId AND state = 'failed' AND next_retry_at IS NOT NULL AND kind = 'print' ORDER BY id LIMIT 1)))`;

/**
 * The lane's queued jobs after one, in lane order, up to the first failed job with a retry time of
 * its own (it holds the jobs behind it, so it ends a burst): one range of the lane index, bounded
 * by that job's id, itself found at the front of the index. One `OR` read and sorted every waiting
 * job of the printer, for each burst (a batch of 500 read some 60,000 rows); the two states' fronts
 * merged by `IN (… UNION ALL …)` built and sorted a list before every label.
 */
export const LANE_AFTER_SQL = `SELECT ${COLUMNS} FROM print_jobs
  WHERE printer_id = @printerId AND state = 'queued' AND kind = 'print' AND id > @afterId
    AND id < coalesce((SELECT id FROM print_jobs WHERE printer_id = @printerId AND state = 'failed'
      AND next_retry_at IS NOT NULL AND kind = 'print' AND id > @afterId ORDER BY id LIMIT 1), 9223372036854775807)
  ORDER BY id LIMIT @limit`;

/**
 * Printers with a lane head, found printer by printer (a skip over the lane index: a station has
 * a few printers and any number of jobs); a DISTINCT over pending jobs read every waiting job on
 * each tick of the queue (many, while a printer that is off keeps its labels waiting).
 */
export const BUSY_LANES_SQL = `WITH RECURSIVE printers(id) AS (
    SELECT (SELECT min(printer_id) FROM print_jobs)
    UNION ALL
    SELECT (SELECT min(printer_id) FROM print_jobs WHERE printer_id > printers.id) FROM printers WHERE printers.id IS NOT NULL)
  SELECT id AS printer_id FROM printers WHERE id IS NOT NULL AND EXISTS (
    SELECT 1 FROM print_jobs WHERE printer_id = printers.id AND state = 'queued' AND kind = 'print'
    UNION ALL
    SELECT 1 FROM print_jobs WHERE printer_id = printers.id AND state = 'failed' AND next_retry_at IS NOT NULL AND kind = 'print')`;

/** How one package's label names itself (`zpl:<deliveryId>#<n>/<count>`, electron/workflows/packageLabel.ts). */
export const packageLabelRef = (deliveryId: number, n: number, count: number) => `zpl:${deliveryId}#${n}/${count}`;

/** The package a label reference names, or null (every label of its shipments). */
export function packageOfLabelRef(labelRef: string | null): { number: number; of: number } | null {
  const m = /^zpl:\d+#(\d+)\/(\d+)$/.exec(labelRef ?? '');
  return m ? { number: Number(m[1]), of: Number(m[2]) } : null;
}

/** What a job prints, from its reference: the screen names it in its language (the title is English). */
export function documentOf(labelRef: string | null, deliveryIds: number[]): JobDocument {
  const pkg = packageOfLabelRef(labelRef);
  if (pkg) return { kind: 'labels', package: pkg };
  const [kind, rest = ''] = (labelRef ?? '').split(/:(.*)/s, 2) as [string, string?];
  if (kind === 'protocol' && /^\d+$/.test(rest)) return { kind: 'protocol', protocolId: Number(rest) };
  if (kind === 'demo' && rest === 'pick-list') return { kind: 'pickList' };
  if (kind === 'commands' && rest === 'sheet') return { kind: 'commandSheet' };
  if (kind === 'test' && rest) return { kind: 'testPrint', printerId: rest };
  if (kind === 'zpl' || kind === 'pdf' || deliveryIds.length) return { kind: 'labels' };
  return { kind: 'other' };
}

function toJob(r: JobRow): StoredJob {
  const deliveryIds = JSON.parse(r.delivery_ids) as number[];
  return {
    id: r.id,
    kind: r.kind,
    printerId: r.printer_id,
    format: r.format,
    title: r.title,
    document: documentOf(r.label_ref, deliveryIds),
    deliveryIds,
    barcodes: JSON.parse(r.barcodes) as string[],
    copies: r.copies,
    state: r.state,
    attempts: r.attempts,
    reasonCode: printerReasonOf(r.reason_code),
    reason: r.reason,
    nextRetryAt: r.next_retry_at,
    delivered: r.delivered === 1,
    reprintOf: r.reprint_of,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    bytes: r.bytes,
    labelSize: r.label_size,
    labelRef: r.label_ref,
  };
}

const FINAL: JobState[] = ['done', 'spooled', 'cancelled'];

const LINE_BREAK = Buffer.from('\n');
/** A ZPL job's bytes from its label's parts, byte for byte as zplPrintJobs joins them (a line break between). */
export const joinLabelParts = (parts: Buffer[]): Buffer =>
  Buffer.concat(parts.flatMap((p, i) => (i ? [LINE_BREAK, p] : [p])));

export function createPrintJobsRepo(db: Db) {
  const lazyCommit = createLazyCommit(db);
  const insertJob = db.prepare(`INSERT INTO print_jobs
    (kind, printer_id, format, label_ref, label_size, title, delivery_ids, barcodes, copies, state, reprint_of, created_at, updated_at)
    VALUES (@kind, @printerId, @format, @labelRef, @labelSize, @title, @deliveryIds, @barcodes, @copies, 'queued', @reprintOf, @now, @now)`);
  const insertEvent = db.prepare(
    'INSERT INTO print_job_events (job_id, at, state, reason_code, reason) VALUES (?, ?, ?, ?, ?)',
  );
  const getJob = db.prepare<[number], JobRow>(`SELECT ${COLUMNS} FROM print_jobs WHERE id = ?`);
  // The label bytes live in a table of their own, which the retention empties by deleting rows
  // (migration 21 says why); ZPL deflated (packedBytes.ts).
  const insertBytes = db.prepare('INSERT INTO print_job_bytes (job_id, bytes, size) VALUES (?, ?, ?)');
  // A job of a label just kept: linked to it, when it is still there (a label fetched again may replace it meanwhile).
  const linkLabel = db.prepare(
    'INSERT INTO print_job_labels (job_id, document_id, size) SELECT ?, id, ? FROM label_documents WHERE id = ?',
  );
  const getPayload = db.prepare<[number], PackedBytes>('SELECT bytes, size FROM print_job_bytes WHERE job_id = ?');
  // A done job's bytes may be the kept label's parts instead (migration 28), as zplPrintJobs joined them.
  const getLabelParts = db.prepare<[number], PackedBytes>(
    `SELECT p.bytes, p.size FROM print_job_labels l JOIN label_parts p ON p.document_id = l.document_id
     WHERE l.job_id = ? ORDER BY p.position`,
  );
  const update = db.prepare(`UPDATE print_jobs SET state = @state, reason_code = @reasonCode, reason = @reason,
    next_retry_at = @nextRetryAt, delivered = max(delivered, @delivered), attempts = attempts + @attempt,
    updated_at = @now, finished_at = @finishedAt,
    counter_at = coalesce(@counterAt, counter_at), counter_labels = coalesce(@counterLabels, counter_labels) WHERE id = @id`);
  const counterOf = db.prepare<[number], { counter_at: number | null; counter_labels: number | null }>(
    'SELECT counter_at, counter_labels FROM print_jobs WHERE id = ?',
  );
  const bringForward = db.prepare(
    `UPDATE print_jobs SET next_retry_at = @at, updated_at = @at WHERE id = @id AND state = 'failed' AND next_retry_at > @at`,
  );
  const laneHead = db.prepare<{ printerId: string }, JobRow>(LANE_HEAD_SQL);
  const laneAfter = db.prepare<{ printerId: string; afterId: number; limit: number }, JobRow>(LANE_AFTER_SQL);
  const busyLanes = db.prepare<[], { printer_id: string }>(BUSY_LANES_SQL);
  const events = db.prepare<
    [number],
    { at: string; state: JobState; reason_code: string | null; reason: string | null }
  >('SELECT at, state, reason_code, reason FROM print_job_events WHERE job_id = ? ORDER BY rowid');
  // Past the labels window a job's events are one folded row (migration 29), older than any row after it.
  const folded = db.prepare<[number], { events: string; created_at: string }>(
    'SELECT f.events, j.created_at FROM print_job_history f JOIN print_jobs j ON j.id = f.job_id WHERE f.job_id = ?',
  );

  /**
   * The bytes of jobs this process queued, for the lane that sends them next (it need not read back
   * and inflate what it handed over a moment ago). Taken once; the store stays the truth (a retry,
   * a restart, a preview read it); a job's first change of state ends it. The newest few only: a
   * printer that is off leaves its lane waiting.
   */
  const fresh = new Map<number, Buffer>();
  const FRESH_MAX = 64;
  function keepFresh(id: number, payload: Buffer) {
    fresh.set(id, payload);
    if (fresh.size > FRESH_MAX) fresh.delete(fresh.keys().next().value!);
  }

  /** The job's bytes in the store: its label's (linked) or its own (deflated when ZPL shrinks). */
  function storeBytes(id: number, job: NewPrintJob) {
    if (job.format === 'zpl' && job.labelDocumentId != null) {
      if (linkLabel.run(id, job.payload.length, job.labelDocumentId).changes) return;
    }
    const p = job.format === 'zpl' ? packBytes(job.payload) : { bytes: job.payload, size: null };
    insertBytes.run(id, p.bytes, p.size);
  }

  function record(
    id: number,
    state: JobState,
    now: string,
    reasonCode: PrinterReasonCode | null,
    reason: string | null,
  ) {
    insertEvent.run(id, now, state, reasonCode, reason);
  }

  const repo = {
    insert(job: NewPrintJob, now: Date): StoredJob {
      const at = now.toISOString();
      const [id, stored] = db.transaction(() => {
        const info = insertJob.run({
          kind: 'print',
          printerId: job.printerId,
          format: job.format,
          labelRef: job.labelRef ?? null,
          labelSize: job.labelSize ?? null,
          title: job.title,
          deliveryIds: JSON.stringify(job.deliveryIds ?? []),
          barcodes: JSON.stringify(job.barcodes ?? []),
          copies: job.copies ?? 1,
          reprintOf: job.reprintOf ?? null,
          now: at,
        });
        const id = Number(info.lastInsertRowid);
        storeBytes(id, job);
        record(id, 'queued', at, null, null);
        return [id, toJob(getJob.get(id)!)] as const;
      })();
      // An insert rolled back by an outer transaction leaves its entry, until the next insert takes its id again.
      keepFresh(id, job.payload);
      return stored;
    },

    get(id: number): StoredJob | undefined {
      const row = getJob.get(id);
      return row ? toJob(row) : undefined;
    },

    /** Where the printer's label counter stood before the job, when its printer has one. */
    counterMark(id: number): CounterMark | null {
      const r = counterOf.get(id);
      return r && r.counter_at !== null && r.counter_labels !== null
        ? { counterAt: r.counter_at, labels: r.counter_labels }
        : null;
    },

    payload(id: number): Buffer | null {
      const handed = fresh.get(id);
      if (handed) {
        fresh.delete(id);
        return handed;
      }
      const row = getPayload.get(id);
      if (row) return unpackBytes(row);
      const parts = getLabelParts.all(id);
      return parts.length ? joinLabelParts(parts.map(unpackBytes)) : null;
    },

    /** Moves a job to `state` and appends the change to its history, in one transaction. */
    setState(id: number, state: JobState, now: Date, change: JobStateChange = {}): StoredJob {
      const at = now.toISOString();
      // Handed over only while the job waits for its first turn in the lane.
      fresh.delete(id);
      if (change.noSideEffect)
        return lazyCommit(() => repo.setState(id, state, now, { ...change, noSideEffect: false }));
      return db.transaction(() => {
        update.run({
          id,
          state,
          reasonCode: change.reasonCode ?? null,
          reason: change.reason ?? null,
          nextRetryAt: change.nextRetryAt ?? null,
          delivered: change.delivered ? 1 : 0,
          attempt: change.attempt ? 1 : 0,
          now: at,
          finishedAt: FINAL.includes(state) ? at : null,
          counterAt: change.counter?.counterAt ?? null,
          counterLabels: change.counter?.labels ?? null,
        });
        record(id, state, at, change.reasonCode ?? null, change.reason ?? null);
        return toJob(getJob.get(id)!);
      })();
    },

    /** Runs `fn` in one transaction (nested calls become savepoints). */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },

    /**
     * Runs `fn` in one lazy commit (./lazyCommit.ts): for new jobs, whose first byte waits for
     * their own `sending` commit to be synced (./walSync.ts), which takes this one to the disk with it.
     */
    lazyTransaction<T>(fn: () => T): T {
      return lazyCommit(fn);
    },

    /**
     * A failed job's retry time moved to now (its printer answers again). Not a state change, so
     * no history row; returns the job when it was waiting for a later retry, else undefined.
     */
    /** Puts a waiting job in another printer's lane (at the end of its order by id), queued again. */
    moveToPrinter(id: number, printerId: string, now: Date, reason: string): StoredJob {
      return db.transaction(() => {
        db.prepare('UPDATE print_jobs SET printer_id = ?, next_retry_at = NULL WHERE id = ?').run(printerId, id);
        return repo.setState(id, 'queued', now, { reasonCode: 'moved_by_worker', reason });
      })();
    },

    bringRetryForward(id: number, now: Date): StoredJob | undefined {
      const at = now.toISOString();
      return bringForward.run({ id, at }).changes ? toJob(getJob.get(id)!) : undefined;
    },

    /** The job a printer's lane works on next (order per printer), if any. */
    laneHead(printerId: string): StoredJob | undefined {
      const row = laneHead.get({ printerId });
      return row ? toJob(row) : undefined;
    },

    /** The queued jobs that follow `afterId` in its printer's lane, up to `limit`, stopping at the first that waits for its retry. */
    queuedAfter(printerId: string, afterId: number, limit: number): StoredJob[] {
      return laneAfter.all({ printerId, afterId, limit }).map(toJob);
    },

    lanesWithWork(): string[] {
      return busyLanes.all().map((r) => r.printer_id);
    },

    /**
     * After a crash: a print job found `sending` may or may not have printed, so it becomes
     * `uncertain` (never sent again by itself, never dropped). A `sent` job had every byte
     * accepted: done, unless it was waiting in a printer's buffer to be confirmed (reason
     * `in_printer` or a note of why it had not come out): whether it printed is not known, so it
     * is uncertain too (a label that did not print is never done); such jobs of a printer
     * with a label counter are settled from it at start. On a printer behind the computer's print
     * system (a CUPS queue, the Windows spooler: kinds `zpl-spooler`, `pdf-system`) `sent` means the
     * spooler took it, which says nothing of a label coming out, so it becomes `spooled`.
     */
    recoverAfterCrash(now: Date): { uncertain: number[]; done: number[]; spooled: number[] } {
      return db.transaction(() => {
        const rows = db
          .prepare<
            [],
            { id: number; kind: JobKind; state: JobState; reason_code: string | null; printer_kind: string | null }
          >(
            `SELECT j.id, j.kind, j.state, j.reason_code, json_extract(p.connection, '$.kind') AS printer_kind
               FROM print_jobs j LEFT JOIN printers p ON p.id = j.printer_id
              WHERE j.kind = 'print' AND j.state IN ('sending', 'sent') ORDER BY j.id`,
          )
          .all();
        const out = { uncertain: [] as number[], done: [] as number[], spooled: [] as number[] };
        for (const r of rows) {
          if (r.state === 'sent' && (r.printer_kind === 'zpl-spooler' || r.printer_kind === 'pdf-system')) {
            repo.setState(r.id, 'spooled', now, {
              reasonCode: 'handed_to_spooler',
              reason:
                'The print system took this label before the station stopped; it does not say whether it printed.',
              delivered: true,
            });
            out.spooled.push(r.id);
          } else if (r.state === 'sent' && r.reason_code !== null) {
            repo.setState(r.id, 'uncertain', now, {
              reasonCode: 'interrupted_in_printer',
              reason:
                "The station stopped while this label was in the printer's buffer, before the printer said it came out. Check the printer: reprint only if it did not print.",
              delivered: true,
            });
            out.uncertain.push(r.id);
          } else if (r.state === 'sent') {
            repo.setState(r.id, 'done', now, { reasonCode: 'sent_before_restart', delivered: true });
            out.done.push(r.id);
          } else {
            repo.setState(r.id, 'uncertain', now, {
              reasonCode: 'interrupted_by_restart',
              reason:
                'The station stopped while sending this label. Check the printer: reprint only if it did not print.',
              delivered: true,
            });
            out.uncertain.push(r.id);
          }
        }
        return out;
      })();
    },

    list(opts: { states?: JobState[]; limit: number; beforeId?: number }): StoredJob[] {
      const where: string[] = [];
      const args: unknown[] = [];
      if (opts.states?.length) {
        where.push(`state IN (${opts.states.map(() => '?').join(',')})`);
        args.push(...opts.states);
      }
      if (opts.beforeId) {
        where.push('id < ?');
        args.push(opts.beforeId);
      }
      const sql = `SELECT ${COLUMNS} FROM print_jobs ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`;
      return db
        .prepare<unknown[], JobRow>(sql)
        .all(...args, opts.limit)
        .map(toJob);
    },

    history(id: number) {
      const f = folded.get(id);
      return [...(f ? unfoldJobEvents(f.events, f.created_at) : []), ...events.all(id)].map((e) => ({
        at: e.at,
        state: e.state as JobState,
        reasonCode: printerReasonOf(e.reason_code),
        reason: e.reason,
      }));
    },

    countByState(): Record<string, number> {
      const out: Record<string, number> = {};
      for (const r of db
        .prepare<[], { state: string; n: number }>('SELECT state, count(*) AS n FROM print_jobs GROUP BY state')
        .all()) {
        out[r.state] = r.n;
      }
      return out;
    },
  };
  return repo;
}

export type PrintJobsRepo = ReturnType<typeof createPrintJobsRepo>;
