import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, type CloseRequestItem, type Delivery } from '../../../electron/api/index';
import { adminPost, openSession, shipment, type Session } from './support';

let s: Session;
beforeAll(async () => {
  s = await openSession();
});
afterEach(async () => {
  await fetch(`${s.sb.url}/_sandbox/faults`, { method: 'DELETE' });
});
afterAll(async () => s?.sb.close());

const asCloseItem = (d: Delivery): CloseRequestItem => ({
  deliveryId: d.deliveryId,
  agent: d.agent,
  sender: {
    type: 'collectionPlace',
    collectionPlace: d.sender.collectionPlace ?? (d.sender as { identificator?: string }).identificator,
  },
});

describe('closing (spec "PATCH /api/v3/deliveries", Limits: one carrier and one collection place per request)', () => {
  it('groups shipments by carrier + collection place, one PATCH per group, and returns each group closed', async () => {
    const inserted = await s.client.insertDeliveries([
      shipment(),
      shipment(),
      shipment({
        agent: 'PPR',
        deliveryType: 'PPR-BUSINESS',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      }),
    ]);
    const items: CloseRequestItem[] = [
      {
        deliveryId: inserted[0]!.deliveryId,
        agent: 'NP',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
      },
      {
        deliveryId: inserted[2]!.deliveryId,
        agent: 'PPR',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
      },
      {
        deliveryId: inserted[1]!.deliveryId,
        agent: 'NP',
        sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
      },
    ];
    const before = s.log.lines.filter((l) => l.includes('"method":"PATCH"')).length;
    const groups = await s.client.closeDeliveries(items);
    expect(s.log.lines.filter((l) => l.includes('"method":"PATCH"') && l.includes('"status"')).length - before).toBe(2);
    expect(groups.map((g) => [g.agent, g.collectionPlace, g.deliveryIds.length])).toEqual([
      ['NP', 'WH-PRAHA', 2],
      ['PPR', 'WH-BRNO', 1],
    ]);
    for (const g of groups) {
      expect(g.outcome.status).toBe('closed');
      if (g.outcome.status !== 'closed') continue;
      expect(g.outcome.confirmedBy).toBe('response');
      expect(Array.isArray(g.outcome.collectionOrders)).toBe(true);
      for (const d of g.outcome.deliveries) {
        expect(d.deliveryState).toBe(1);
        expect(d.deliveryNumber).toBeTruthy();
        expect(d.closed).toBeTruthy();
        expect(d.packages[0]!.barcode).toBeTruthy();
      }
    }
  });

  it('reports a group the carrier rejects as rejected, with errors mapped to the deliveryId, and closes nothing of it', async () => {
    const [ok, bad] = await s.client.insertDeliveries([
      shipment(),
      shipment({
        recipient: {
          type: 'address',
          surname: 'REJECT',
          email: 'r@example.com',
          address: { street: 'Dlouhá 1', city: 'Praha', postalCode: '11000', state: 'CZ' },
        },
      }),
    ]);
    const [group] = await s.client.closeDeliveries([ok!, bad!].map(asCloseItem));
    expect(group!.outcome.status).toBe('rejected');
    if (group!.outcome.status !== 'rejected') return;
    expect(group!.outcome.error.status).toBe(422);
    expect(group!.outcome.error.errors.some((e) => e.deliveryId === bad!.deliveryId)).toBe(true);
    const now = await s.client.getDeliveriesByIds([ok!.deliveryId, bad!.deliveryId]);
    expect(now.map((d) => d.deliveryState)).toEqual([0, 0]);
  });

  it('refuses to close a cancelled shipment (422), per group', async () => {
    const [d] = await s.client.insertDeliveries([shipment()]);
    await s.client.cancelDeliveries([d!.deliveryId]);
    const [group] = await s.client.closeDeliveries([asCloseItem(d!)]);
    expect(group!.outcome.status).toBe('rejected');
    expect(group!.outcome.status === 'rejected' && group!.outcome.error).toBeInstanceOf(ServiceError);
  });

  it('never resends a close whose connection dropped: a search shows it was not closed', async () => {
    const [d] = await s.client.insertDeliveries([shipment()]);
    await adminPost(s.sb, 'faults', { path: '/api/v3/deliveries', method: 'PATCH', reset: true, count: 1 });
    const patchesBefore = s.log.lines.filter((l) => l.includes('"method":"PATCH"')).length;
    const [group] = await s.client.closeDeliveries([asCloseItem(d!)]);
    expect(group!.outcome.status).toBe('not_closed');
    expect(group!.outcome.status === 'not_closed' && group!.outcome.error.kind).toBe('network');
    // One attempt logged, no retry.
    expect(s.log.lines.filter((l) => l.includes('"method":"PATCH"')).length - patchesBefore).toBe(1);
    const [now] = await s.client.getDeliveriesByIds([d!.deliveryId]);
    expect(now!.deliveryState).toBe(0);
  });

  it('a close that timed out but went through is reported closed, confirmed by search, never sent twice', async () => {
    // The sandbox waits 300 ms and then closes; the client gives up after 150 ms and checks 1.5 s later.
    const slow = await openSession({ sandbox: s.sb, timeoutMs: 150, verifyDelayMs: 1500 });
    const [d] = await slow.client.insertDeliveries([shipment()]);
    await adminPost(s.sb, 'faults', { path: '/api/v3/deliveries', method: 'PATCH', latencyMs: 300, count: 1 });
    const [group] = await slow.client.closeDeliveries([asCloseItem(d!)]);
    expect(group!.outcome.status).toBe('closed');
    if (group!.outcome.status !== 'closed') return;
    expect(group!.outcome.confirmedBy).toBe('search');
    expect(group!.outcome.deliveries[0]!.deliveryNumber).toBeTruthy();
    expect(slow.log.lines.filter((l) => l.includes('"method":"PATCH"')).length).toBe(1);
  });
});

describe('insert with a lost answer (never a blind retry)', () => {
  it('a dropped connection before the service handled it: outcome not-applied, nothing inserted', async () => {
    const item = shipment();
    await adminPost(s.sb, 'faults', { path: '/api/v3/deliveries', method: 'POST', reset: true, count: 1 });
    const err = await s.client.insertDeliveries([item]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.kind).toBe('network');
    expect(err.outcome).toBe('not-applied');
    expect(await s.client.getDeliveriesByExternalIds([item.externalId!])).toEqual([]);
  });

  it('a timeout after which the service still inserted: the shipments are found by externalId and returned', async () => {
    const slow = await openSession({ sandbox: s.sb, timeoutMs: 150, verifyDelayMs: 1500 });
    const items = [shipment(), shipment()];
    await adminPost(s.sb, 'faults', { path: '/api/v3/deliveries', method: 'POST', latencyMs: 300, count: 1 });
    const out = await slow.client.insertDeliveries(items);
    expect(out.map((d) => d.externalId)).toEqual(items.map((i) => i.externalId));
    expect(out.every((d) => d.deliveryId > 0 && d.deliveryState === 0)).toBe(true);
    expect(slow.log.lines.filter((l) => l.includes('"method":"POST"') && l.includes('/api/v3/deliveries')).length).toBe(
      1,
    );
  });
});
