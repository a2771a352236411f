/**
 * The retention's SQL: what each kind of old data is, when a row of it may go, and one slice of
 * its removal. Every kind walks its table in id order (ids grow with time) from a cursor, looks at
 * a bounded number of rows, and stops at the first row inside its window — unless that row's time
 * is later than now: a desk clock once set ahead stamped it, and the rows after it (stamped once
 * the clock was right) are older, so it is kept and the walk goes on past it. A slice is one
 * transaction that also moves the cursor, so a crash anywhere loses nothing and repeats nothing:
 * the next run starts from the last committed slice.
 *
 * Never removed, whatever their age: anything unfinished (a journal entry before `queued`, a scan
 * still `pending`/`queued`, a print job not in a final state), uncertain or unconfirmed (jobs
 * `uncertain`, `unconfirmed`, `failed`; a label check never verified), and anything a kept row
 * still refers to. Those rows hold the cursor: the next run looks at them again.
 *
 * The kinds are one list (RETENTION_KINDS), in the order foreign keys need (a desk action before
 * the journal entry and the print job it names, a journal entry before its scan and its jobs).
 * The camera's photos follow the labels' window; a journal entry or scan a kept photo names stays.
 *
 * The shipment cache (`shipments`, last): a shipment the service can no longer change, not stored
 * again within the labels window, that no unfinished work names, leaves; a later scan fetches it
 * again.
 */
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';
import { unpackBytes, type PackedBytes } from './packedBytes';
import { joinLabelParts } from './printJobsRepo';
import { foldJobEvents, unfoldJobEvents, type JobEventRow } from './jobHistory';
import { foldJournalSteps, unfoldJournalSteps, type JournalStepRow } from './journalHistory';

/** Which setting a kind follows: `labels` (label bytes, kept labels, photos, the shipment cache) or `history` (journal, scans, desk actions). */
export type RetentionWindow = 'labels' | 'history';

export interface SliceResult {
  /** Rows removed (or, for label bytes, emptied) in this slice. */
  removed: number;
  /** The kind has nothing more to look at before its window (or its table ends). */
  done: boolean;
}

export interface RetentionKind {
  name: string;
  window: RetentionWindow;
  /**
   * Walks from its table's start every run, without a persisted cursor: for rows that do not
   * leave in id order (a shipment that stays in transit for months must not hold back the ones
   * after it, and one that is delivered later must still be looked at).
   */
  fromStart?: boolean;
  /** At most this many rows a slice, below the run's own figure: for rows that cost more to remove. */
  maxRowsPerSlice?: number;
  /**
   * Builds the kind's statements on a database; `slice` looks at up to `limit` rows after the
   * cursor (`cutoff` and `now` as ISO times of the station's clock).
   */
  prepare(
    db: Db,
  ): (
    cutoff: string,
    after: number,
    limit: number,
    now: string,
  ) => { removed: number; lastSeen: number; firstKept: number | null; done: boolean };
}

/** A journal entry (alias `e`) whose scan is settled: its labels queued or it ended, and no label waits. */
const SETTLED_ENTRY = `(e.step IN ('queued', 'ended') AND coalesce(e.outcome, '') <> 'waiting')`;
/** A scan in the log still in work (the `scan_log_open` index's condition). */
const OPEN_SCAN = `('pending', 'queued')`;

/** Print job states after which nothing happens to a job by itself and its label was printed or given up by a person. */
const FINAL_JOB = `('done', 'spooled', 'cancelled')`;

/**
 * A generic walk: rows after `after` in id order, each judged by `keep` (true: stays, holds the
 * cursor) or removed by `remove`; stops at the first row whose time is inside the window and not
 * later than now. A row stamped later than now (the desk clock was ahead when it was written) is
 * kept, holding the cursor so a later run looks at it again, and the walk goes on: ids grow with
 * the rows' real order, not with a clock that was once wrong. (Once the clock catches up with such
 * a row it is inside the window and stops the walk again until it ages out: the rows after it go
 * at most as much later as the clock was ahead, and never later than the window's length.)
 */
function walk<R extends { id: number; at: string }>(
  select: (after: number, limit: number) => R[],
  verdict: (row: R, cutoff: string) => 'remove' | 'keep' | 'pass',
  remove: (row: R) => void,
  /** Runs once the slice's rows are removed (before its commit). */
  finish?: () => void,
) {
  return (cutoff: string, after: number, limit: number, now: string) => {
    const rows = select(after, limit);
    let removed = 0;
    let lastSeen = after;
    let firstKept: number | null = null;
    // A row inside the window (and not ahead of now) ends the walk; otherwise a short page does.
    let done = rows.length < limit;
    for (const row of rows) {
      if (row.at >= cutoff && row.at <= now) {
        done = true;
        break;
      }
      if (row.at >= cutoff) {
        if (firstKept === null) firstKept = row.id;
        lastSeen = row.id;
        continue;
      }
      const v = verdict(row, cutoff);
      if (v === 'remove') {
        remove(row);
        removed++;
      } else if (v === 'keep' && firstKept === null) firstKept = row.id;
      lastSeen = row.id;
    }
    finish?.();
    return { removed, lastSeen, firstKept, done };
  };
}

/**
 * The label bytes of a printed job (the job's row stays, with its history, until the history
 * window): rows of print_job_bytes, deleted whole so their pages are freed (migration 21).
 */
const labelBytes: RetentionKind = {
  name: 'labelBytes',
  window: 'labels',
  prepare(db) {
    const select = db.prepare<[number, number], { id: number; at: string; state: string; finished_at: string | null }>(
      `SELECT j.id, j.created_at AS at, j.state, j.finished_at FROM print_job_bytes b JOIN print_jobs j ON j.id = b.job_id
       WHERE b.job_id > ? ORDER BY b.job_id LIMIT ?`,
    );
    const del = db.prepare('DELETE FROM print_job_bytes WHERE job_id = ?');
    return walk(
      (a, l) => select.all(a, l),
      (r, cutoff) =>
        ['done', 'spooled'].includes(r.state) && r.finished_at !== null && r.finished_at < cutoff ? 'remove' : 'keep',
      (r) => del.run(r.id),
    );
  },
};

/**
 * One copy of a printed label (migration 28): a done ZPL job of one whole shipment whose bytes are
 * the kept label's parts, byte for byte, loses its own copy and is linked to the label instead; a
 * reprint or a preview reads the label (printJobsRepo.payload). Not by age: every done job, as soon
 * as a run sees it (the job printed, so the label saved with it is on the disk: its lazy commit went
 * with the job's `sending` one). A job still at work holds the cursor; any other job (a PDF, one
 * package's label, a label fetched again since, a protocol) keeps its bytes and is passed.
 */
const sharedLabelBytes: RetentionKind = {
  name: 'sharedLabelBytes',
  window: 'labels',
  prepare(db) {
    const select = db.prepare<
      [number, number],
      { id: number; at: string; state: string; format: string | null; label_ref: string | null } & PackedBytes
    >(
      `SELECT j.id, j.created_at AS at, j.state, j.format, j.label_ref, b.bytes, b.size
       FROM print_job_bytes b JOIN print_jobs j ON j.id = b.job_id WHERE b.job_id > ? ORDER BY b.job_id LIMIT ?`,
    );
    // The shipment's kept ZPL labels, newest first (a job names no account: the index by deliveryId
    // holds no account either, migration 32).
    const labelsOf = db.prepare<[number], { id: number }>(
      `SELECT d.id FROM label_shipments s JOIN label_documents d ON d.id = s.document_id
       WHERE s.delivery_id = ? AND d.format = 'zpl' ORDER BY d.id DESC`,
    );
    const partsOf = db.prepare<[number], PackedBytes>(
      'SELECT bytes, size FROM label_parts WHERE document_id = ? ORDER BY position',
    );
    const link = db.prepare('INSERT INTO print_job_labels (job_id, document_id, size) VALUES (?, ?, ?)');
    const del = db.prepare('DELETE FROM print_job_bytes WHERE job_id = ?');
    const sameLabel = new Map<number, number>();
    return (_cutoff, after, limit, now) =>
      walk(
        (a, l) => select.all(a, l),
        (r) => {
          if (!['done', 'spooled', 'cancelled'].includes(r.state)) return 'keep';
          const shipment = r.format === 'zpl' ? /^zpl:(\d+)$/.exec(r.label_ref ?? '') : null;
          if (!shipment || r.state === 'cancelled') return 'pass';
          const bytes = unpackBytes(r);
          const doc = labelsOf
            .all(Number(shipment[1]))
            .find((d) => joinLabelParts(partsOf.all(d.id).map(unpackBytes)).equals(bytes));
          if (!doc) return 'pass';
          sameLabel.set(r.id, doc.id);
          return 'remove';
        },
        (r) => {
          link.run(r.id, sameLabel.get(r.id)!, r.size ?? r.bytes.length);
          del.run(r.id);
          sameLabel.delete(r.id);
        },
        // Every done job, whatever its age: the walk's window ends now.
      )(now, after, limit, now);
  },
};

/**
 * One row's history folded: `table`'s rows of the row (`key` = its id) packed into its `history`
 * row, after those an earlier fold kept there (a change after that fold), then deleted. Table and
 * column names come from this file only, never from input.
 */
function folder<T>(
  db: Db,
  o: {
    rows: string;
    table: string;
    key: string;
    history: string;
    column: string;
    pack(rows: T[], createdAt: string): string;
    unpack(folded: string, createdAt: string): T[];
  },
) {
  const rowsOf = db.prepare<[number], T>(o.rows);
  const foldedOf = db.prepare<[number], { folded: string }>(
    `SELECT ${o.column} AS folded FROM ${o.history} WHERE ${o.key} = ?`,
  );
  const fold = db.prepare(
    `INSERT INTO ${o.history} (${o.key}, ${o.column}) VALUES (?, ?) ON CONFLICT (${o.key}) DO UPDATE SET ${o.column} = excluded.${o.column}`,
  );
  const del = db.prepare(`DELETE FROM ${o.table} WHERE ${o.key} = ?`);
  return (r: { id: number; at: string }) => {
    const before = foldedOf.get(r.id);
    const all = [...(before ? o.unpack(before.folded, r.at) : []), ...rowsOf.all(r.id)];
    fold.run(r.id, o.pack(all, r.at));
    del.run(r.id);
  };
}

/**
 * A print job's history past the labels window folded into one row (migration 29, store/jobHistory.ts):
 * a job in a final state that finished before the window has its event rows replaced by one
 * `print_job_history` row holding the same events (one it has already, from a change after an
 * earlier fold, gets the new ones after its own). The job and its folded history stay until the
 * history window (kind `printJobs`).
 */
const jobEvents: RetentionKind = {
  name: 'jobEvents',
  window: 'labels',
  prepare(db) {
    const select = db.prepare<
      [number, number],
      { id: number; at: string; final: number; finished_at: string | null; events: number }
    >(
      `SELECT j.id, j.created_at AS at, j.state IN ${FINAL_JOB} AS final, j.finished_at,
         EXISTS (SELECT 1 FROM print_job_events ev WHERE ev.job_id = j.id) AS events
       FROM print_jobs j WHERE j.id > ? ORDER BY j.id LIMIT ?`,
    );
    const foldJob = folder<JobEventRow>(db, {
      rows: 'SELECT at, state, reason_code, reason FROM print_job_events WHERE job_id = ? ORDER BY rowid',
      table: 'print_job_events',
      key: 'job_id',
      history: 'print_job_history',
      column: 'events',
      pack: foldJobEvents,
      unpack: unfoldJobEvents,
    });
    return walk(
      (a, l) => select.all(a, l),
      (r, cutoff) => {
        if (!r.final) return 'keep';
        if (!r.events) return 'pass';
        return r.finished_at !== null && r.finished_at < cutoff ? 'remove' : 'keep';
      },
      foldJob,
    );
  },
};

/**
 * A kind whose every row goes by its age alone (nothing unfinished lives there): `table`'s rows
 * in id order, timed by `atColumn`. Names come from this file only, never from input.
 */
function byAge(name: string, window: RetentionWindow, table: string, atColumn: string): RetentionKind {
  return {
    name,
    window,
    prepare(db) {
      const select = db.prepare<[number, number], { id: number; at: string }>(
        `SELECT id, ${atColumn} AS at FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`,
      );
      const del = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
      return walk(
        (a, l) => select.all(a, l),
        () => 'remove',
        (r) => del.run(r.id),
      );
    },
  };
}

/**
 * A settled journal entry's steps past the labels window folded into one row (migration 30,
 * store/journalHistory.ts): an entry whose labels were queued or that ended, with no label waiting,
 * no print job still at work and no label check unverified, last changed before the window, has its
 * step rows replaced by one `journal_history` row holding the same steps (one it has already, from
 * a note after an earlier fold, gets the new ones after its own). An entry still open holds the
 * cursor and keeps its rows: the journal's recovery reads them. The entry and its folded steps stay
 * until the history window (kind `journal`).
 */
const journalSteps: RetentionKind = {
  name: 'journalSteps',
  window: 'labels',
  prepare(db) {
    const select = db.prepare<
      [number, number],
      { id: number; at: string; updated_at: string; settled: number; steps: number }
    >(
      `SELECT e.id, e.created_at AS at, e.updated_at,
         (${SETTLED_ENTRY}
          AND NOT EXISTS (SELECT 1 FROM journal_jobs jj JOIN print_jobs j ON j.id = jj.job_id
                          WHERE jj.entry_id = e.id AND j.state NOT IN ${FINAL_JOB})
          AND NOT EXISTS (SELECT 1 FROM label_checks c WHERE c.entry_id = e.id AND c.verified_at IS NULL)) AS settled,
         EXISTS (SELECT 1 FROM journal_steps st WHERE st.entry_id = e.id) AS steps
       FROM journal_entries e WHERE e.id > ? ORDER BY e.id LIMIT ?`,
    );
    const foldEntry = folder<JournalStepRow>(db, {
      rows: 'SELECT at, step, reason_code FROM journal_steps WHERE entry_id = ? ORDER BY rowid',
      table: 'journal_steps',
      key: 'entry_id',
      history: 'journal_history',
      column: 'steps',
      pack: foldJournalSteps,
      unpack: unfoldJournalSteps,
    });
    return walk(
      (a, l) => select.all(a, l),
      (r, cutoff) => {
        if (!r.settled) return 'keep';
        if (!r.steps) return 'pass';
        return r.updated_at < cutoff ? 'remove' : 'keep';
      },
      foldEntry,
    );
  },
};

/**
 * Labels kept for reprints (a reprint of a shipment whose labels are gone fetches them again). A
 * label a print job prints from (migration 28) stays as long as the job's own bytes would
 * (labelBytes): until the job is done or spooled for longer than the window; a job still waiting,
 * held or uncertain (queued from the label it links since it was kept) keeps it.
 */
const keptLabels: RetentionKind = {
  name: 'keptLabels',
  window: 'labels',
  prepare(db) {
    const select = db.prepare<[string, number, number], { id: number; at: string; in_use: number }>(
      `SELECT d.id, d.fetched_at AS at, EXISTS (SELECT 1 FROM print_job_labels l JOIN print_jobs j ON j.id = l.job_id
         WHERE l.document_id = d.id AND NOT (j.state IN ('done', 'spooled') AND j.finished_at < ?)) AS in_use
       FROM label_documents d WHERE d.id > ? ORDER BY d.id LIMIT ?`,
    );
    const del = db.prepare('DELETE FROM label_documents WHERE id = ?');
    return (cutoff, after, limit, now) =>
      walk(
        (a, l) => select.all(cutoff, a, l),
        (r) => (r.in_use ? 'keep' : 'remove'),
        (r) => del.run(r.id),
      )(cutoff, after, limit, now);
  },
};

/** The camera's proof-of-packing photos (their rows; the files go after the run, electron/camera/photoFiles.ts). */
const photos = byAge('photos', 'labels', 'photos', 'taken_at');

/**
 * What a person did at the desk (reprints and their reasons, cancels, sign-ins, holds). The hold of
 * a parcel still on the problem shelf stays, whatever its age; a hold that ended leaves with the
 * action that began it (its shelf_holds row first: it refers to both of its actions).
 */
const deskActions: RetentionKind = {
  name: 'deskActions',
  window: 'history',
  prepare(db) {
    const select = db.prepare<[number, number], { id: number; at: string; on_shelf: number }>(
      `SELECT a.id, a.at,
         EXISTS (SELECT 1 FROM shelf_holds h WHERE h.held_action_id = a.id AND h.ended_action_id IS NULL) AS on_shelf
       FROM desk_actions a WHERE a.id > ? ORDER BY a.id LIMIT ?`,
    );
    const unlink = db.prepare<[number, number]>(
      'DELETE FROM shelf_holds WHERE held_action_id = ? OR ended_action_id = ?',
    );
    const del = db.prepare<[number]>('DELETE FROM desk_actions WHERE id = ?');
    return walk(
      (a, l) => select.all(a, l),
      (r) => (r.on_shelf ? 'keep' : 'remove'),
      (r) => {
        unlink.run(r.id, r.id);
        del.run(r.id);
      },
    );
  },
};

/** Journal entries that ended, with their steps, weights, job links and verified label check. */
const journal: RetentionKind = {
  name: 'journal',
  window: 'history',
  prepare(db) {
    const select = db.prepare<[number, number], { id: number; at: string; updated_at: string; finished: number }>(
      `SELECT e.id, e.created_at AS at, e.updated_at,
         (${SETTLED_ENTRY}
          AND NOT EXISTS (SELECT 1 FROM journal_jobs jj JOIN print_jobs j ON j.id = jj.job_id
                          WHERE jj.entry_id = e.id AND j.state NOT IN ${FINAL_JOB})
          AND NOT EXISTS (SELECT 1 FROM label_checks c WHERE c.entry_id = e.id AND c.verified_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM desk_actions d WHERE d.entry_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM photos p WHERE p.entry_id = e.id)) AS finished
       FROM journal_entries e WHERE e.id > ? ORDER BY e.id LIMIT ?`,
    );
    const children = [
      'journal_steps',
      'journal_history',
      'journal_jobs',
      'journal_weights',
      'journal_weight_updates',
      'label_checks',
    ].map((t) => db.prepare(`DELETE FROM ${t} WHERE entry_id = ?`));
    const del = db.prepare('DELETE FROM journal_entries WHERE id = ?');
    return walk(
      (a, l) => select.all(a, l),
      (r, cutoff) => (r.finished && r.updated_at < cutoff ? 'remove' : 'keep'),
      (r) => {
        for (const c of children) c.run(r.id);
        del.run(r.id);
      },
    );
  },
};

/** Print jobs in a final state, with their history; a job a journal entry, a desk action or a reprint still names stays. */
const printJobs: RetentionKind = {
  name: 'printJobs',
  window: 'history',
  prepare(db) {
    const select = db.prepare<
      [number, number],
      { id: number; at: string; removable: number; finished_at: string | null }
    >(
      `SELECT j.id, j.created_at AS at, j.finished_at,
         (j.state IN ${FINAL_JOB}
          AND NOT EXISTS (SELECT 1 FROM journal_jobs jj WHERE jj.job_id = j.id)
          AND NOT EXISTS (SELECT 1 FROM desk_actions d WHERE d.job_id = j.id)
          AND NOT EXISTS (SELECT 1 FROM print_jobs c WHERE c.reprint_of = j.id)) AS removable
       FROM print_jobs j WHERE j.id > ? ORDER BY j.id LIMIT ?`,
    );
    const events = db.prepare('DELETE FROM print_job_events WHERE job_id = ?');
    const del = db.prepare('DELETE FROM print_jobs WHERE id = ?');
    return walk(
      (a, l) => select.all(a, l),
      (r, cutoff) => (r.removable && r.finished_at !== null && r.finished_at < cutoff ? 'remove' : 'keep'),
      (r) => {
        events.run(r.id);
        del.run(r.id);
      },
    );
  },
};

/** The scan log: a scan whose outcome is known and that no kept journal entry or batch line names. */
const scanLog: RetentionKind = {
  name: 'scanLog',
  window: 'history',
  prepare(db) {
    const select = db.prepare<[number, number], { id: number; at: string; removable: number }>(
      `SELECT s.id, s.scanned_at AS at,
         (s.outcome NOT IN ${OPEN_SCAN}
          AND NOT EXISTS (SELECT 1 FROM journal_entries e WHERE e.scan_id = s.id)
          AND NOT EXISTS (SELECT 1 FROM batch_items b WHERE b.scan_id = s.id)
          AND NOT EXISTS (SELECT 1 FROM photos p WHERE p.scan_id = s.id)) AS removable
       FROM scan_log s WHERE s.id > ? ORDER BY s.id LIMIT ?`,
    );
    const del = db.prepare('DELETE FROM scan_log WHERE id = ?');
    return walk(
      (a, l) => select.all(a, l),
      (r) => (r.removable ? 'remove' : 'keep'),
      (r) => del.run(r.id),
    );
  },
};

/**
 * Shipment states the service no longer changes: delivered (3, 5), returned (4, 6) and cancelled
 * (10) (spec "States and transitions": closed and cancelled shipments cannot be edited; from 1 the
 * carrier moves a shipment on to 2-6). Closed-unsent (1) and sent (2) still move: they stay.
 * The list is the one of migration 019's partial index `shipments_final` (the walk reads only it).
 */
const FINAL_SHIPMENT = '(3, 4, 5, 6, 10)';
/** Print job states still at work (the `print_jobs_state` index serves them). */
const OPEN_JOB = `('queued', 'sending', 'sent', 'failed', 'uncertain', 'unconfirmed')`;

/**
 * The shipment cache: a shipment in a final state whose cached record was last stored before the
 * labels window (`synced_at`: the station's own clock; a scan, close or sync that stores it again
 * makes it recent), walked in deliveryId order and stopped at the first one created inside the
 * window. The cache is the desk's working set, not its history: the service keeps every shipment
 * (a scan or a reprint of an older one fetches it again), and at a busy desk a cached shipment with
 * its search row (~2 KB) is the largest part of what a label leaves behind. So it follows the
 * labels window, not the history's: the journal, the scan log and the desk actions keep naming it
 * by its deliveryId, and the entries that name it get its carrier (`journal_entries.carrier`,
 * migration 020) for the statistics.
 * It stays while unfinished work names it: a journal entry before `queued` or with its label
 * waiting, a scan not yet settled, a print job still at work, a line of the batch list; and the
 * account's newest shipment stays (a cache emptied of an account makes the sync walk the service
 * from the start). Collection protocols and kept labels read nothing from the row.
 * Its package barcodes are kept aside (pruned_package_barcodes): the service cannot be searched
 * by package barcode, so the lookup finds the deliveryId there and fetches the shipment by id.
 */
const shipments: RetentionKind = {
  name: 'shipments',
  window: 'labels',
  fromStart: true,
  // A shipment is three tables (its row, its packages, its text index row): ~0.1 ms, and the text
  // index merges now and then; 50 a slice keeps a scan's wait behind one slice short.
  maxRowsPerSlice: 50,
  prepare(db) {
    const select = db.prepare<
      [number, number],
      {
        id: number;
        account_id: string;
        agent: string | null;
        at: string;
        synced_at: string;
        search_rowid: number | null;
        removable: number;
      }
    >(
      `SELECT s.delivery_id AS id, s.account_id, s.agent, coalesce(s.created_day, '') AS at, s.synced_at, s.search_rowid,
         (s.delivery_id < (SELECT max(n.delivery_id) FROM shipments n WHERE n.account_id = s.account_id)
          AND NOT EXISTS (SELECT 1 FROM journal_entries e WHERE e.account_id = s.account_id AND e.delivery_id = s.delivery_id
                          AND NOT ${SETTLED_ENTRY})
          AND NOT EXISTS (SELECT 1 FROM scan_log l WHERE l.account_id = s.account_id AND l.delivery_id = s.delivery_id
                          AND l.outcome IN ${OPEN_SCAN})
          AND NOT EXISTS (SELECT 1 FROM print_jobs j, json_each(j.delivery_ids) i
                          WHERE j.state IN ${OPEN_JOB} AND i.value = s.delivery_id)
          AND NOT EXISTS (SELECT 1 FROM batch_items b WHERE json_extract(b.item, '$.deliveryId') = s.delivery_id)) AS removable
       FROM shipments s INDEXED BY shipments_final
       WHERE s.state IN ${FINAL_SHIPMENT} AND s.delivery_id > ? ORDER BY s.delivery_id LIMIT ?`,
    );
    // `+barcode`: a plain `barcode IS NOT NULL` lets the planner pick the partial barcode index and
    // read every package of the account (0.5 ms a shipment at 3,000) instead of the shipment's own.
    const keepBarcodes = db.prepare(
      `INSERT OR IGNORE INTO pruned_package_barcodes (account_id, barcode, delivery_id)
       SELECT account_id, barcode, delivery_id FROM shipment_packages WHERE account_id = ? AND delivery_id = ? AND +barcode IS NOT NULL`,
    );
    const keepCarrier = db.prepare(
      'UPDATE journal_entries SET carrier = ? WHERE account_id = ? AND delivery_id = ? AND carrier IS NULL',
    );
    const delSearch = db.prepare('DELETE FROM shipment_search WHERE rowid = ?');
    // Its package rows go with it (ON DELETE CASCADE, migration 003).
    const del = db.prepare('DELETE FROM shipments WHERE account_id = ? AND delivery_id = ?');
    // The text index rows go after the slice's shipments: FTS5 writes its pending changes out at
    // every statement savepoint (the delete's count trigger and cascade open one), so deleted
    // between them it wrote (and merged) once per shipment (shipmentsRepo.ts, writeSearchText).
    const searchRowids: number[] = [];
    return walk(
      (a, l) => {
        searchRowids.length = 0; // a slice that failed rolled back its rows: its list goes too
        return select.all(a, l);
      },
      (r, cutoff) => (r.removable && r.synced_at < cutoff ? 'remove' : 'keep'),
      (r) => {
        keepBarcodes.run(r.account_id, r.id);
        if (r.agent !== null) keepCarrier.run(r.agent, r.account_id, r.id);
        if (r.search_rowid !== null) searchRowids.push(r.search_rowid);
        del.run(r.account_id, r.id);
      },
      () => {
        for (const rowid of searchRowids) delSearch.run(rowid);
      },
    );
  },
};

/** Every kind, in the order foreign keys need (see above: a photo before its journal entry and scan). */
export const RETENTION_KINDS: readonly RetentionKind[] = [
  sharedLabelBytes,
  labelBytes,
  jobEvents,
  journalSteps,
  keptLabels,
  photos,
  deskActions,
  journal,
  printJobs,
  scanLog,
  // Last: unfinished work that named a shipment and ended meanwhile lets it go in the same run.
  shipments,
];

const CURSORS_KEY = 'retention.cursors';
const SEARCH_KEY = 'retention.searchIndex';

export function createRetentionRepo(db: Db, kinds: readonly RetentionKind[] = RETENTION_KINDS) {
  const lazyCommit = createLazyCommit(db);
  const getCursors = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const putCursors = db.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  const cursors = (): Record<string, number> => {
    const row = getCursors.get(CURSORS_KEY);
    return row ? (JSON.parse(row.value) as Record<string, number>) : {};
  };
  const slices = new Map(kinds.map((k) => [k.name, k.prepare(db)]));
  /** Where each kind's walk of this run stands (the persisted cursor stops at the first kept row). */
  const walking = new Map<string, number>();
  const freelist = db.prepare('PRAGMA freelist_count').pluck();
  const searchRemoved = (): number => {
    const row = getCursors.get(SEARCH_KEY);
    return row ? (JSON.parse(row.value) as { removed: number }).removed : 0;
  };
  // The cache's size from the counts its triggers keep (migration 22), not a count of its rows.
  const cachedShipments = db.prepare('SELECT coalesce(sum(n), 0) FROM shipment_counts').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const mergeSearch = db.prepare(`INSERT INTO shipment_search (shipment_search, rank) VALUES ('merge', -4)`);

  return {
    kinds,
    /** Forgets where this run walked: the next slice of each kind starts at its persisted cursor. */
    beginRun(): void {
      walking.clear();
    },
    /**
     * One slice of one kind, in one transaction (a lazy commit: removing old rows allows no side
     * effect; a power cut that takes the slice leaves the rows, and the next run removes them).
     */
    slice(kind: string, cutoff: string, limit: number, now: Date): SliceResult {
      return lazyCommit(() => {
        const saved = cursors();
        const fromStart = kinds.find((k) => k.name === kind)?.fromStart === true;
        const persisted = fromStart ? 0 : (saved[kind] ?? 0);
        const after = walking.get(kind) ?? persisted;
        const r = slices.get(kind)!(cutoff, after, limit, now.toISOString());
        // A removed shipment's text index rows stay in the index's segments, beside a deletion
        // marker, until the segments holding them are merged, which FTS5's own merges of new
        // segments seldom reach (a year: 312 MB of index for 180,000 shipments, 730,000 made).
        // Counted with the slice, so the merge they call for survives a stop or a crash.
        if (kind === shipments.name && r.removed)
          putCursors.run(SEARCH_KEY, JSON.stringify({ removed: searchRemoved() + r.removed }), now.toISOString());
        walking.set(kind, r.lastSeen);
        // The cursor passes only rows gone for good; a kept row is looked at again next run.
        const held = fromStart || walking.get(`${kind}:held`) === 1;
        if (!held) {
          const next = r.firstKept !== null ? r.firstKept - 1 : r.lastSeen;
          if (r.firstKept !== null) walking.set(`${kind}:held`, 1);
          if (next !== persisted)
            putCursors.run(CURSORS_KEY, JSON.stringify({ ...saved, [kind]: next }), now.toISOString());
        }
        return { removed: r.removed, done: r.done };
      });
    },
    /**
     * A merge of the whole text index is due once the rows removed since the last one reach a
     * quarter of the shipments cached: it rewrites the whole index, so not after every run (a
     * busy desk's 2,000 shipments a day against 180,000 cached: every three weeks or so).
     */
    searchMergeDue(): boolean {
      const removed = searchRemoved();
      return removed > 0 && removed * 4 >= (cachedShipments.get() as number);
    },
    /**
     * One step of that merge (`merge` with a negative page count merges every segment into one,
     * a few pages at a time: a step of 4 pages held the loop 5 ms at the median, 24 ms at most,
     * for 120,000 shipments); false once it is done (SQLite counts fewer than two changes).
     */
    searchMergeStep(now: Date): boolean {
      return lazyCommit(() => {
        const before = totalChanges.get() as number;
        mergeSearch.run();
        if ((totalChanges.get() as number) - before >= 2) return true;
        putCursors.run(SEARCH_KEY, JSON.stringify({ removed: 0 }), now.toISOString());
        return false;
      });
    },
    /** Pages free inside the file (what incremental_vacuum can hand back). */
    freePages: (): number => freelist.get() as number,
    /** Hands back up to `pages` free pages to the file system (an auto-vacuum=INCREMENTAL file). */
    vacuumStep(pages: number): void {
      db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    },
  };
}

export type RetentionRepo = ReturnType<typeof createRetentionRepo>;
