/**
 * The problem shelf (migration 24): a hold is the desk action `parcel_held` (who, desk, time, the
 * reason and the worker's words) and a `shelf_holds` row naming the parcel; a parcel is on the shelf
 * while its row has no `ended_action_id`. A hold and its end are each one commit with their desk
 * action, owed a sync (./walSync.ts): the answer that tells the worker it was held waits for it.
 */
import type { HoldEnd, HoldReason } from '../../shared/contract/shelf';
import type { Db } from './database';
import type { DeskActionsRepo } from './deskActionsRepo';

/** A hold on the shelf as stored, with the name of whoever held it (removed workers keep theirs). */
export interface HoldRow {
  holdId: number;
  accountId: string;
  code: string;
  deliveryId: number | null;
  reason: HoldReason;
  note: string | null;
  heldAt: string;
  desk: string;
  operatorId: number | null;
  operatorName: string | null;
}

interface Row {
  id: number;
  account_id: string;
  code: string;
  delivery_id: number | null;
  reason_code: HoldReason;
  note: string | null;
  at: string;
  desk: string;
  operator_id: number | null;
  operator_name: string | null;
}

const toHold = (r: Row): HoldRow => ({
  holdId: r.id,
  accountId: r.account_id,
  code: r.code,
  deliveryId: r.delivery_id,
  reason: r.reason_code,
  note: r.note,
  heldAt: r.at,
  desk: r.desk,
  operatorId: r.operator_id,
  operatorName: r.operator_name,
});

const HOLDS = `SELECT h.id, h.account_id, h.code, h.delivery_id, a.reason_code, a.note, a.at, a.desk, a.operator_id,
    o.name AS operator_name
  FROM shelf_holds h JOIN desk_actions a ON a.id = h.held_action_id LEFT JOIN operators o ON o.id = a.operator_id`;

export function createShelfRepo(db: Db, deskActions: DeskActionsRepo) {
  const insert = db.prepare<[string, string, number | null, number]>(
    'INSERT INTO shelf_holds (account_id, code, delivery_id, held_action_id) VALUES (?, ?, ?, ?)',
  );
  const onShelf = db.prepare<[string], Row>(
    `${HOLDS} WHERE h.account_id = ? AND h.ended_action_id IS NULL ORDER BY h.id`,
  );
  const get = db.prepare<[number], Row>(`${HOLDS} WHERE h.id = ? AND h.ended_action_id IS NULL`);
  const ofParcel = db.prepare<[string, number, string], Row>(
    `${HOLDS} WHERE h.account_id = ? AND h.ended_action_id IS NULL AND (h.delivery_id = ? OR h.code = ?) ORDER BY h.id LIMIT 1`,
  );
  const ofDeliveries = db.prepare<[string, string], { id: number; delivery_id: number }>(
    `SELECT id, delivery_id FROM shelf_holds
     WHERE account_id = ? AND ended_action_id IS NULL AND delivery_id IN (SELECT value FROM json_each(?))`,
  );
  const setEnded = db.prepare<[number, number]>(
    'UPDATE shelf_holds SET ended_action_id = ? WHERE id = ? AND ended_action_id IS NULL',
  );
  const adopt = db.prepare<[number, number]>(
    'UPDATE shelf_holds SET delivery_id = ? WHERE id = ? AND delivery_id IS NULL',
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM shelf_holds WHERE account_id = ? AND ended_action_id IS NULL',
  );

  /** Ends holds with a `hold_ended` action each (its reason: how); in the caller's commit when it has one. */
  const endHolds = (list: { id: number; deliveryId: number | null; accountId: string }[], how: HoldEnd, at: Date) => {
    for (const h of list) {
      const action = deskActions.record({
        action: 'hold_ended',
        at,
        accountId: h.accountId,
        deliveryId: h.deliveryId,
        reasonCode: how,
      });
      setEnded.run(action, h.id);
    }
  };

  return {
    /**
     * Puts a parcel on the shelf, with `within` (the journal's waiting scans of it ended) in the same
     * commit; returns the hold's id.
     */
    hold: db.transaction(
      (
        h: { accountId: string; code: string; deliveryId: number | null; reason: HoldReason; note: string | null },
        at: Date,
        within?: () => void,
      ): number => {
        const action = deskActions.record({
          action: 'parcel_held',
          at,
          accountId: h.accountId,
          deliveryId: h.deliveryId,
          reasonCode: h.reason,
          note: h.note,
        });
        const id = Number(insert.run(h.accountId, h.code, h.deliveryId, action).lastInsertRowid);
        within?.();
        return id;
      },
    ),
    /** The parcels on the shelf of an account, oldest first. */
    onShelf: (accountId: string): HoldRow[] => onShelf.all(accountId).map(toHold),
    /** A hold still on the shelf, or null. */
    get: (holdId: number): HoldRow | null => {
      const r = get.get(holdId);
      return r ? toHold(r) : null;
    },
    /** The hold on the shelf of this parcel: its shipment, or the code it was held by (held before it was cached). */
    ofParcel: (accountId: string, deliveryId: number | null, code: string): HoldRow | null => {
      const r = ofParcel.get(accountId, deliveryId ?? -1, code);
      return r ? toHold(r) : null;
    },
    /** A hold made by a code the cache did not know names the shipment a later scan of it found. */
    adopt: (holdId: number, deliveryId: number): void => void adopt.run(deliveryId, holdId),
    count: (accountId: string): number => count.get(accountId)?.n ?? 0,
    /** A supervisor takes a hold off the shelf; false when it was no longer there. */
    release: db.transaction((holdId: number, at: Date): boolean => {
      const r = get.get(holdId);
      if (!r) return false;
      endHolds([{ id: r.id, deliveryId: r.delivery_id, accountId: r.account_id }], 'released', at);
      return true;
    }),
    /**
     * The holds of shipments this station closed leave the shelf (`closed`), in one commit; the
     * number that left.
     */
    closed: db.transaction((accountId: string, deliveryIds: number[], at: Date): number => {
      if (!deliveryIds.length) return 0;
      const list = ofDeliveries.all(accountId, JSON.stringify(deliveryIds));
      endHolds(
        list.map((r) => ({ id: r.id, deliveryId: r.delivery_id, accountId })),
        'closed',
        at,
      );
      return list.length;
    }),
  };
}

export type ShelfRepo = ReturnType<typeof createShelfRepo>;
