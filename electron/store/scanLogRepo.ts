/**
 * The scan log: every scan at the desk, written when it arrives (outcome 'pending') and updated as
 * the scan's work finishes, so a crash mid-scan still leaves a trace of the scan.
 */
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';
import type { MatchedBy, ScanLogEntry, ScanOutcome } from '../../shared/contract/shipments';

interface ScanRow {
  id: number;
  account_id: string;
  code: string;
  raw_code: string | null;
  scanned_at: string;
  outcome: string;
  delivery_id: number | null;
  matched_by: string | null;
  message: string | null;
}

function fromRow(r: ScanRow): ScanLogEntry {
  return {
    id: r.id,
    accountId: r.account_id,
    code: r.code,
    rawCode: r.raw_code,
    scannedAt: r.scanned_at,
    outcome: r.outcome as ScanOutcome,
    deliveryId: r.delivery_id,
    matchedBy: r.matched_by as MatchedBy | null,
    message: r.message,
  };
}

export interface NewScan {
  accountId: string;
  code: string;
  rawCode?: string | null;
  scannedAt: Date;
  /** The sending page's own name for this scan (migration 33), asked for by `byPageRef`. */
  pageRef?: string | null;
  outcome?: ScanOutcome;
  deliveryId?: number | null;
  matchedBy?: MatchedBy | null;
  message?: string | null;
}

export interface ScanUpdate {
  outcome: ScanOutcome;
  deliveryId?: number | null;
  matchedBy?: MatchedBy | null;
  message?: string | null;
}

/**
 * How far back a page's reference is looked for: a page asks once its socket is back, within
 * minutes, and a desk scans ~2,000 a day (a busy hour's burst is well inside).
 */
const PAGE_REF_SCANS = 5_000;

export function createScanLogRepo(db: Db) {
  const lazyCommit = createLazyCommit(db);
  const insert = db.prepare(
    `INSERT INTO scan_log (account_id, code, raw_code, scanned_at, outcome, delivery_id, matched_by, message, page_ref)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The last PAGE_REF_SCANS scans only, by id (the primary key): a page asks within minutes.
  const selectByPageRef = db.prepare<[number, string], { id: number }>(
    `SELECT id FROM scan_log WHERE id > (SELECT COALESCE(MAX(id), 0) FROM scan_log) - ? AND page_ref = ?
     ORDER BY id DESC LIMIT 1`,
  );
  const update = db.prepare(
    `UPDATE scan_log SET outcome = @outcome,
       delivery_id = CASE WHEN @setDelivery THEN @deliveryId ELSE delivery_id END,
       matched_by = CASE WHEN @setMatched THEN @matchedBy ELSE matched_by END,
       message = CASE WHEN @setMessage THEN @message ELSE message END
     WHERE id = @id`,
  );
  const selectOne = db.prepare<[number], ScanRow>('SELECT * FROM scan_log WHERE id = ?');
  const selectRecent = db.prepare<[string, number, number], ScanRow>(
    'SELECT * FROM scan_log WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
  );
  const selectCounts = db.prepare<[string, string], { outcome: string; n: number }>(
    'SELECT outcome, COUNT(*) AS n FROM scan_log WHERE account_id = ? AND scanned_at >= ? GROUP BY outcome',
  );
  const selectForShipment = db.prepare<[string, number], ScanRow>(
    'SELECT * FROM scan_log WHERE account_id = ? AND delivery_id = ? ORDER BY id DESC LIMIT 100',
  );

  const repo = {
    record(scan: NewScan): number {
      const info = insert.run(
        scan.accountId,
        scan.code,
        scan.rawCode ?? null,
        scan.scannedAt.toISOString(),
        scan.outcome ?? 'pending',
        scan.deliveryId ?? null,
        scan.matchedBy ?? null,
        scan.message ?? null,
        scan.pageRef ?? null,
      );
      return Number(info.lastInsertRowid);
    },
    /** Sets the outcome; fields left out keep their value. A lazy commit: an outcome told to the log allows no side effect. */
    update(id: number, u: ScanUpdate): void {
      lazyCommit(() =>
        update.run({
          id,
          outcome: u.outcome,
          setDelivery: u.deliveryId !== undefined ? 1 : 0,
          deliveryId: u.deliveryId ?? null,
          setMatched: u.matchedBy !== undefined ? 1 : 0,
          matchedBy: u.matchedBy ?? null,
          setMessage: u.message !== undefined ? 1 : 0,
          message: u.message ?? null,
        }),
      );
    },
    /** Several outcomes in one lazy commit (./lazyCommit.ts: an outcome told to the log allows no side effect). */
    updateAll(list: { id: number; update: ScanUpdate }[]): void {
      lazyCommit(() => list.forEach((x) => repo.update(x.id, x.update)));
    },
    get(id: number): ScanLogEntry | null {
      const row = selectOne.get(id);
      return row ? fromRow(row) : null;
    },
    /** Newest first; pass the last id seen as beforeId for the next page. */
    recent(accountId: string, limit = 100, beforeId = Number.MAX_SAFE_INTEGER): ScanLogEntry[] {
      return selectRecent.all(accountId, beforeId, limit).map(fromRow);
    },
    /** How many scans since `since`, by outcome (the station screen's counters for the day). */
    countsSince(accountId: string, since: Date): Partial<Record<ScanOutcome, number>> {
      return Object.fromEntries(selectCounts.all(accountId, since.toISOString()).map((r) => [r.outcome, r.n]));
    },
    /** The scan a page sent as `ref`, among the last PAGE_REF_SCANS scans: its number, or null (it never arrived). */
    byPageRef(ref: string): number | null {
      return selectByPageRef.get(PAGE_REF_SCANS, ref)?.id ?? null;
    },
    forShipment: (accountId: string, deliveryId: number): ScanLogEntry[] =>
      selectForShipment.all(accountId, deliveryId).map(fromRow),
  };
  return repo;
}

export type ScanLogRepo = ReturnType<typeof createScanLogRepo>;
