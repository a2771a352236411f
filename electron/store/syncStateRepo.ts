/**
 * Where the shipment sync stands per account: the cursor (deliveryId>) reached by the walk, and
 * the ETag of every page fetched, so the next walk sends If-None-Match and a page that did not
 * change costs a 304 (spec "GET /api/v3/deliveries").
 */
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';

export interface SyncPage {
  /** The page's cursor: it holds shipments with deliveryId > afterDeliveryId. */
  afterDeliveryId: number;
  etag: string;
  /** The highest deliveryId the page held: the next page's cursor. */
  lastDeliveryId: number;
  itemCount: number;
}

export function createSyncStateRepo(db: Db) {
  const selectPage = db.prepare<
    [string, string],
    { after_delivery_id: number; etag: string; last_delivery_id: number; item_count: number }
  >(
    'SELECT after_delivery_id, etag, last_delivery_id, item_count FROM sync_pages WHERE account_id = ? AND page_key = ?',
  );
  const putPage = db.prepare(
    `INSERT INTO sync_pages (account_id, page_key, after_delivery_id, etag, last_delivery_id, item_count, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, page_key) DO UPDATE SET after_delivery_id = excluded.after_delivery_id, etag = excluded.etag,
       last_delivery_id = excluded.last_delivery_id, item_count = excluded.item_count, fetched_at = excluded.fetched_at`,
  );
  const selectCovering = db.prepare<[string, number, number], { after_delivery_id: number }>(
    `SELECT after_delivery_id FROM sync_pages WHERE account_id = ? AND after_delivery_id < ? AND last_delivery_id >= ?
     ORDER BY after_delivery_id DESC LIMIT 1`,
  );
  const deletePage = db.prepare('DELETE FROM sync_pages WHERE account_id = ? AND page_key = ?');
  const selectState = db.prepare<[string], { cursor: number; last_complete_at: string | null }>(
    'SELECT cursor, last_complete_at FROM sync_state WHERE account_id = ?',
  );
  const putCursor = db.prepare(
    `INSERT INTO sync_state (account_id, cursor) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET cursor = excluded.cursor`,
  );
  const putComplete = db.prepare(
    `INSERT INTO sync_state (account_id, cursor, last_complete_at) VALUES (?, 0, ?)
     ON CONFLICT (account_id) DO UPDATE SET cursor = 0, last_complete_at = excluded.last_complete_at`,
  );

  const lazyCommit = createLazyCommit(db);

  return {
    page(accountId: string, pageKey: string): SyncPage | null {
      const row = selectPage.get(accountId, pageKey);
      return row
        ? {
            afterDeliveryId: row.after_delivery_id,
            etag: row.etag,
            lastDeliveryId: row.last_delivery_id,
            itemCount: row.item_count,
          }
        : null;
    },
    savePage(accountId: string, pageKey: string, page: SyncPage, now: Date): void {
      putPage.run(
        accountId,
        pageKey,
        page.afterDeliveryId,
        page.etag,
        page.lastDeliveryId,
        page.itemCount,
        now.toISOString(),
      );
    },
    /**
     * The cursor of a known page holding `deliveryId` (the nearest one below it), so a walk that
     * must revisit `deliveryId` starts on an earlier walk's page boundary and its ETag can match.
     */
    pageCursorCovering(accountId: string, deliveryId: number): number | null {
      return selectCovering.get(accountId, deliveryId, deliveryId)?.after_delivery_id ?? null;
    },
    forgetPage(accountId: string, pageKey: string): void {
      deletePage.run(accountId, pageKey);
    },
    /** The cursor of an interrupted walk (0 when the last walk completed or none ran). */
    cursor(accountId: string): { cursor: number; lastCompleteAt: string | null } {
      const row = selectState.get(accountId);
      return { cursor: row?.cursor ?? 0, lastCompleteAt: row?.last_complete_at ?? null };
    },
    saveCursor(accountId: string, cursor: number): void {
      putCursor.run(accountId, cursor);
    },
    markComplete(accountId: string, now: Date): void {
      putComplete.run(accountId, now.toISOString());
    },
    /**
     * Runs fn in one transaction: what it writes commits together or not at all. A lazy commit
     * (./lazyCommit.ts): the cursor and page ETags are a bookmark in a cache, and a tail a power
     * cut takes costs only pages fetched again.
     */
    inTransaction<T>(fn: () => T): T {
      return lazyCommit(fn);
    },
  };
}

export type SyncStateRepo = ReturnType<typeof createSyncStateRepo>;
