/** The end-of-day tables (migration 008) on a real SQLite file: protocols keep their PDF and shipments; pick-up orders merge per day. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { createEndOfDayRepo } from '../../../electron/store/endOfDayRepo';

function repo() {
  const db = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'eod-')), 'station.db'));
  return { db, eod: createEndOfDayRepo(db) };
}

describe('end-of-day store', () => {
  it('keeps a protocol with its PDF and shipments, per account, newest first', () => {
    const { eod } = repo();
    const now = new Date('2026-05-04T16:00:00Z');
    const pdf = Buffer.from('%PDF-1.4 protocol');
    eod.saveProtocol(
      'a',
      {
        collectionProtocolId: 7,
        agent: 'NP',
        collectionPlace: 'WH-PRAHA',
        created: '2026-05-04T18:00:00+02:00',
        deliveries: [3, 1, 3],
        pdf,
      },
      now,
    );
    eod.saveProtocol(
      'a',
      {
        collectionProtocolId: 9,
        agent: 'PPR',
        collectionPlace: 'WH-BRNO',
        created: '2026-05-04T18:05:00+02:00',
        deliveries: [5],
        pdf,
      },
      now,
    );
    eod.saveProtocol(
      'b',
      {
        collectionProtocolId: 8,
        agent: 'NP',
        collectionPlace: 'WH-PRAHA',
        created: '2026-05-04T18:00:00+02:00',
        deliveries: [2],
        pdf,
      },
      now,
    );

    expect(eod.protocols('a').map((p) => p.collectionProtocolId)).toEqual([9, 7]);
    expect(eod.protocol('a', 7)?.deliveryIds).toEqual([1, 3]);
    expect(eod.protocolPdf('a', 7)?.equals(pdf)).toBe(true);
    expect([...eod.coveredByProtocol('a', [1, 2, 3, 4])]).toEqual([1, 3]);
    eod.setProtocolJob('a', 7, 42);
    expect(eod.protocol('a', 7)?.lastJobId).toBe(42);
  });

  it('stores one pick-up order per carrier, place and day, adding the shipments of every close that returned it', () => {
    const { eod } = repo();
    const now = new Date('2026-05-04T10:00:00Z');
    eod.savePickupOrder(
      'a',
      { agent: 'NP', collectionPlace: 'WH-PRAHA', scheduled: '2026-05-05', deliveryIds: [10] },
      now,
    );
    eod.savePickupOrder(
      'a',
      { agent: 'NP', collectionPlace: 'WH-PRAHA', scheduled: '2026-05-05', deliveryIds: [12, 10] },
      now,
    );
    eod.savePickupOrder(
      'a',
      { agent: 'PPR', collectionPlace: 'WH-PRAHA', scheduled: '2026-05-06', deliveryIds: [11] },
      now,
    );
    const orders = eod.pickupOrders('a');
    expect(orders.map((o) => `${o.agent}:${o.scheduled}:${o.deliveryIds.join(',')}`)).toEqual([
      'PPR:2026-05-06:11',
      'NP:2026-05-05:10,12',
    ]);
    expect(eod.pickupOrders('a', '2026-05-06')).toHaveLength(1);
    expect(eod.pickupOrders('b')).toEqual([]);
  });

  it("a shift's closes each add their shipment to the day's order, never rewriting its list", () => {
    // Every close of the day returns the same order: its list grew with each scan, and each close
    // parsed, sorted and wrote it back whole (140 kB at 20,000 scans), holding the core's loop.
    const { db, eod } = repo();
    const now = new Date('2026-05-04T10:00:00Z');
    const order = { agent: 'NP', collectionPlace: 'Sklad Říčany', scheduled: '2026-05-05' };
    for (let id = 5000; id >= 1; id--) eod.savePickupOrder('a', { ...order, deliveryIds: [id] }, now);
    const [saved] = eod.pickupOrders('a');
    expect(saved?.deliveryIds).toHaveLength(5000);
    expect(saved?.deliveryIds.slice(0, 3)).toEqual([1, 2, 3]);
    // The order's own row stays the size of one order, on one page, whatever the day's count.
    const pages = db.prepare("SELECT count(*) FROM dbstat WHERE name = 'pickup_orders'").pluck().get();
    expect(pages).toBe(1);
  });
});
