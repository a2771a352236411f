/**
 * The batch list on the disk (migration 12), in the order the codes were collected. The item is
 * kept as the contract's BatchItem (what the list shows); its scan log row by id.
 */
import type { BatchItem } from '../../shared/contract/workflows';
import type { Db } from './database';

export interface StoredBatchItem {
  item: BatchItem;
  scanId: number | null;
}

export function createBatchItemsRepo(db: Db) {
  const all = db.prepare<[], { scan_id: number | null; item: string }>(
    'SELECT scan_id, item FROM batch_items ORDER BY position',
  );
  const upsert = db.prepare(
    `INSERT INTO batch_items (code, scan_id, item) VALUES (@code, @scanId, @item)
     ON CONFLICT (code) DO UPDATE SET item = excluded.item, scan_id = coalesce(excluded.scan_id, scan_id)`,
  );
  const remove = db.prepare('DELETE FROM batch_items WHERE code = ?');
  return {
    list: (): StoredBatchItem[] => all.all().map((r) => ({ item: JSON.parse(r.item) as BatchItem, scanId: r.scan_id })),
    /** A collected code: its scan log row (`record`) and its place in the list, in one commit. */
    collect(item: BatchItem, record: () => number): number {
      return db.transaction(() => {
        const scanId = record();
        upsert.run({ code: item.code, scanId, item: JSON.stringify(item) });
        return scanId;
      })();
    },
    remove(codes: string[]): void {
      db.transaction(() => codes.forEach((c) => remove.run(c)))();
    },
    /** The list as it is now, in one commit (after a close: what stays, with its reasons). */
    replace(list: StoredBatchItem[]): void {
      db.transaction(() => {
        db.prepare('DELETE FROM batch_items').run();
        for (const x of list) upsert.run({ code: x.item.code, scanId: x.scanId, item: JSON.stringify(x.item) });
      })();
    },
  };
}

export type BatchItemsRepo = ReturnType<typeof createBatchItemsRepo>;
