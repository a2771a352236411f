/**
 * Proof-of-packing photos (migration 18): one row per JPEG in the data folder, linked to the scan's
 * journal entry. Which parcel a photo shows is the entry's account and delivery, read through it.
 */
import type { PhotoKind } from '../../shared/contract/camera';
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';

export interface PhotoRow {
  id: number;
  entryId: number;
  scanId: number;
  kind: PhotoKind;
  takenAt: string;
  file: string;
  bytes: number;
  width: number;
  height: number;
  desk: string;
  operatorName: string | null;
}

/** A photo to store: its row without the id, and the operator by id (the row reads back the name). */
export type NewPhoto = Omit<PhotoRow, 'id' | 'operatorName'> & { operatorId: number | null };

const SELECT = `SELECT p.id, p.entry_id AS entryId, p.scan_id AS scanId, p.kind, p.taken_at AS takenAt, p.file,
  p.bytes, p.width, p.height, p.desk, o.name AS operatorName
  FROM photos p LEFT JOIN operators o ON o.id = p.operator_id`;

export function createPhotosRepo(db: Db) {
  // A photo's row allows no side effect: it rides on the next sync (lazyCommit.ts). A power
  // cut before that leaves its file without a row, which retention removes with the old files.
  const lazy = createLazyCommit(db);
  // A scan's own entry (source 'scan'); a reprint of it from the scan screen keeps the same scan id.
  const entryOfScan = db.prepare<[number], { id: number }>(
    'SELECT id FROM journal_entries WHERE scan_id = ? ORDER BY id LIMIT 1',
  );
  const insert =
    db.prepare(`INSERT INTO photos (entry_id, scan_id, kind, taken_at, file, bytes, width, height, desk, operator_id)
    VALUES (@entryId, @scanId, @kind, @takenAt, @file, @bytes, @width, @height, @desk, @operatorId)`);
  const ofDelivery = db.prepare<[string, number], PhotoRow>(
    `${SELECT} JOIN journal_entries e ON e.id = p.entry_id
     WHERE e.account_id = ? AND e.delivery_id = ? ORDER BY p.taken_at, p.id`,
  );
  const one = db.prepare<[number], PhotoRow>(`${SELECT} WHERE p.id = ?`);
  const accountOf = db.prepare<[number], { account_id: string }>(
    'SELECT e.account_id FROM photos p JOIN journal_entries e ON e.id = p.entry_id WHERE p.id = ?',
  );
  const named = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM photos WHERE file = ?');
  const usage = db.prepare<[], { n: number; bytes: number | null }>(
    'SELECT COUNT(*) AS n, SUM(bytes) AS bytes FROM photos',
  );
  return {
    /** The journal entry of a scan the station received, or null for a scan it does not know. */
    entryOfScan(scanId: number): number | null {
      return entryOfScan.get(scanId)?.id ?? null;
    },
    insert(p: NewPhoto): number {
      return lazy(() => Number(insert.run(p).lastInsertRowid));
    },
    ofDelivery(accountId: string, deliveryId: number): PhotoRow[] {
      return ofDelivery.all(accountId, deliveryId);
    },
    get(id: number): (PhotoRow & { accountId: string }) | null {
      const row = one.get(id);
      return row ? { ...row, accountId: accountOf.get(id)!.account_id } : null;
    },
    /** Whether a photo row names this file (relative to the data folder). */
    named(file: string): boolean {
      return named.get(file) !== undefined;
    },
    /** How many photos the data folder holds and their size (Status). */
    usage(): { count: number; bytes: number } {
      const u = usage.get()!;
      return { count: u.n, bytes: u.bytes ?? 0 };
    },
  };
}

export type PhotosRepo = ReturnType<typeof createPhotosRepo>;
