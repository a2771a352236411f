/**
 * End of day: the collection protocols this station created (with their PDF, so a reprint works
 * offline) and the pick-up orders closes returned. Per account, like every other table.
 */
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';

export interface StoredProtocol {
  collectionProtocolId: number;
  agent: string;
  collectionPlace: string;
  created: string;
  deliveryIds: number[];
  lastJobId: number | null;
}

export interface StoredPickupOrder {
  agent: string;
  collectionPlace: string;
  scheduled: string;
  receivedAt: string;
  deliveryIds: number[];
}

interface ProtocolRow {
  protocol_id: number;
  agent: string;
  collection_place: string;
  created: string;
  last_job_id: number | null;
}

export function createEndOfDayRepo(db: Db) {
  const lazyCommit = createLazyCommit(db);
  const insertProtocol = db.prepare(
    `INSERT INTO collection_protocols (account_id, protocol_id, agent, collection_place, created, pdf, stored_at)
     VALUES (@accountId, @id, @agent, @place, @created, @pdf, @now)
     ON CONFLICT (account_id, protocol_id) DO UPDATE SET agent = excluded.agent, collection_place = excluded.collection_place,
       created = excluded.created, pdf = excluded.pdf, stored_at = excluded.stored_at`,
  );
  const deleteProtocolShipments = db.prepare(
    'DELETE FROM collection_protocol_shipments WHERE account_id = ? AND protocol_id = ?',
  );
  const insertProtocolShipment = db.prepare(
    'INSERT INTO collection_protocol_shipments (account_id, protocol_id, delivery_id) VALUES (?, ?, ?)',
  );
  const selectProtocols = db.prepare<[string, number], ProtocolRow>(
    `SELECT protocol_id, agent, collection_place, created, last_job_id FROM collection_protocols
     WHERE account_id = ? ORDER BY protocol_id DESC LIMIT ?`,
  );
  const selectProtocol = db.prepare<[string, number], ProtocolRow>(
    'SELECT protocol_id, agent, collection_place, created, last_job_id FROM collection_protocols WHERE account_id = ? AND protocol_id = ?',
  );
  const selectPdf = db.prepare<[string, number], { pdf: Buffer }>(
    'SELECT pdf FROM collection_protocols WHERE account_id = ? AND protocol_id = ?',
  );
  const selectShipments = db.prepare<[string, number], { delivery_id: number }>(
    'SELECT delivery_id FROM collection_protocol_shipments WHERE account_id = ? AND protocol_id = ? ORDER BY delivery_id',
  );
  const selectCovered = db.prepare<{ account: string; ids: string }, { delivery_id: number }>(
    `SELECT delivery_id FROM collection_protocol_shipments WHERE account_id = @account
       AND delivery_id IN (SELECT value FROM json_each(@ids))
     UNION
     SELECT delivery_id FROM protocol_elsewhere_shipments WHERE account_id = @account
       AND delivery_id IN (SELECT value FROM json_each(@ids))`,
  );
  const insertElsewhere = db.prepare(
    'INSERT OR IGNORE INTO protocol_elsewhere_shipments (account_id, delivery_id, noted_at) VALUES (?, ?, ?)',
  );
  const setJob = db.prepare('UPDATE collection_protocols SET last_job_id = ? WHERE account_id = ? AND protocol_id = ?');

  const selectOrder = db.prepare<[string, string, string, string], { id: number }>(
    'SELECT id FROM pickup_orders WHERE account_id = ? AND agent = ? AND collection_place = ? AND scheduled = ?',
  );
  const insertOrder = db.prepare<[string, string, string, string, string], { id: number }>(
    'INSERT INTO pickup_orders (account_id, agent, collection_place, scheduled, received_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const touchOrder = db.prepare('UPDATE pickup_orders SET received_at = ? WHERE id = ?');
  const insertOrderShipment = db.prepare(
    'INSERT OR IGNORE INTO pickup_order_shipments (order_id, delivery_id) VALUES (?, ?)',
  );
  const selectOrders = db.prepare<
    [string, string, number],
    { id: number; agent: string; collection_place: string; scheduled: string; received_at: string }
  >(
    'SELECT * FROM pickup_orders WHERE account_id = ? AND scheduled >= ? ORDER BY scheduled DESC, agent, collection_place LIMIT ?',
  );
  const selectOrderShipments = db.prepare<[number], number>(
    'SELECT delivery_id FROM pickup_order_shipments WHERE order_id = ? ORDER BY delivery_id',
  );
  selectOrderShipments.pluck();

  const toProtocol = (accountId: string, r: ProtocolRow): StoredProtocol => ({
    collectionProtocolId: r.protocol_id,
    agent: r.agent,
    collectionPlace: r.collection_place,
    created: r.created,
    deliveryIds: selectShipments.all(accountId, r.protocol_id).map((s) => s.delivery_id),
    lastJobId: r.last_job_id,
  });

  return {
    saveProtocol: db.transaction(
      (
        accountId: string,
        p: {
          collectionProtocolId: number;
          agent: string;
          collectionPlace: string;
          created: string;
          deliveries: number[];
          pdf: Buffer;
        },
        now: Date,
      ) => {
        insertProtocol.run({
          accountId,
          id: p.collectionProtocolId,
          agent: p.agent,
          place: p.collectionPlace,
          created: p.created,
          pdf: p.pdf,
          now: now.toISOString(),
        });
        deleteProtocolShipments.run(accountId, p.collectionProtocolId);
        for (const d of new Set(p.deliveries)) insertProtocolShipment.run(accountId, p.collectionProtocolId, d);
      },
    ),
    protocol(accountId: string, id: number): StoredProtocol | null {
      const r = selectProtocol.get(accountId, id);
      return r ? toProtocol(accountId, r) : null;
    },
    protocolPdf: (accountId: string, id: number): Buffer | null => selectPdf.get(accountId, id)?.pdf ?? null,
    /** Newest first. */
    protocols: (accountId: string, limit = 200): StoredProtocol[] =>
      selectProtocols.all(accountId, limit).map((r) => toProtocol(accountId, r)),
    /** Shipments a protocol made on another desk covers (the service refused one for them). */
    markCoveredElsewhere: db.transaction((accountId: string, deliveryIds: number[], now: Date) => {
      for (const id of deliveryIds) insertElsewhere.run(accountId, id, now.toISOString());
    }),
    /** Which of these shipments a protocol already covers: one stored here, or one made elsewhere. */
    coveredByProtocol: (accountId: string, deliveryIds: number[]): Set<number> =>
      new Set(selectCovered.all({ account: accountId, ids: JSON.stringify(deliveryIds) }).map((r) => r.delivery_id)),
    setProtocolJob: (accountId: string, id: number, jobId: number) => void setJob.run(jobId, accountId, id),

    /**
     * Stores a pick-up order; the same carrier, place and day again adds its shipments to the one row.
     * A lazy commit (./lazyCommit.ts): it allows no side effect, and the sync before the next
     * step of the same close acts (its print jobs) takes it to the disk.
     */
    savePickupOrder: (
      accountId: string,
      o: { agent: string; collectionPlace: string; scheduled: string; deliveryIds: number[] },
      now: Date,
    ) =>
      lazyCommit(() => {
        // One row per shipment: a close adds its own, never rewrites the day's list (migration 26).
        const row = selectOrder.get(accountId, o.agent, o.collectionPlace, o.scheduled);
        if (row) touchOrder.run(now.toISOString(), row.id);
        const id =
          row?.id ?? insertOrder.get(accountId, o.agent, o.collectionPlace, o.scheduled, now.toISOString())!.id;
        for (const d of new Set(o.deliveryIds)) insertOrderShipment.run(id, d);
      }),
    /** Orders scheduled on or after `fromDay` (YYYY-MM-DD), latest day first. */
    pickupOrders: (accountId: string, fromDay = '0000-00-00', limit = 200): StoredPickupOrder[] =>
      selectOrders.all(accountId, fromDay, limit).map((r) => ({
        agent: r.agent,
        collectionPlace: r.collection_place,
        scheduled: r.scheduled,
        receivedAt: r.received_at,
        deliveryIds: selectOrderShipments.all(r.id),
      })),
  };
}

export type EndOfDayRepo = ReturnType<typeof createEndOfDayRepo>;
