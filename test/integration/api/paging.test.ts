import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../../electron/api/index';
import { openSession, shipment, type Session } from './support';

let s: Session;
let inserted: Delivery[];
const marker = `paging-${process.pid}-${Date.now()}`;
const searchLines = () =>
  s.log.lines.filter(
    (l) => l.includes('"method":"GET"') && l.includes('"path":"/api/v3/deliveries"') && l.includes('"status"'),
  );

beforeAll(async () => {
  s = await openSession({ seed: 'none' });
  // 230 shipments with long externalIds, in three insert requests (several per request).
  inserted = [];
  for (let i = 0; i < 3; i++) {
    const items = Array.from({ length: i < 2 ? 100 : 30 }, () =>
      shipment({
        ticketNote: marker,
        externalId: `pg${Date.now()}-${'x'.repeat(36)}-${Math.random().toString(36).slice(2, 10)}`,
      }),
    );
    inserted.push(...(await s.client.insertDeliveries(items)));
  }
});
afterAll(async () => s?.sb.close());

describe('paging and splitting (spec "GET /api/v3/deliveries": 100 results, ~8000-byte URL, filter rule 4)', () => {
  it('pages past 100 with the deliveryId> cursor and gets every shipment exactly once', async () => {
    const before = searchLines().length;
    const pages: Delivery[][] = [];
    for await (const page of s.client.pageDeliveries({ filters: { ticketNote: marker } })) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([100, 100, 30]);
    const ids = pages.flat().map((d) => d.deliveryId);
    expect(new Set(ids).size).toBe(230);
    expect(ids.sort((a, b) => a - b)).toEqual(inserted.map((d) => d.deliveryId).sort((a, b) => a - b));
    expect(searchLines().length - before).toBe(3);
  });

  it('starts after a given deliveryId', async () => {
    const sorted = inserted.map((d) => d.deliveryId).sort((a, b) => a - b);
    const pages: Delivery[][] = [];
    for await (const page of s.client.pageDeliveries(
      { filters: { ticketNote: marker } },
      { afterDeliveryId: sorted[199] },
    ))
      pages.push(page);
    expect(pages.flat().map((d) => d.deliveryId)).toEqual(sorted.slice(200));
  });

  it('splits 230 ids into requests of at most 100 ids', async () => {
    const before = searchLines().length;
    const got = await s.client.getDeliveriesByIds(inserted.map((d) => d.deliveryId));
    expect(got).toHaveLength(230);
    expect(searchLines().length - before).toBe(3);
  });

  it('splits long externalIds so no URL reaches the 414 limit, where one search with all of them gets 414', async () => {
    const ext = inserted.map((d) => d.externalId!);
    expect(ext.join(',').length).toBeGreaterThan(8000);
    const whole = await s.client.searchDeliveries({ filters: { externalId: ext } }).catch((e) => e);
    expect(whole.status).toBe(414);
    const before = searchLines().length;
    const got = await s.client.getDeliveriesByExternalIds(ext);
    expect(got.map((d) => d.externalId).sort()).toEqual([...ext].sort());
    expect(searchLines().length - before).toBe(3);
  });
});
