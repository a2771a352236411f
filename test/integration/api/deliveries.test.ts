import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/api/index';
import { openSession, shipment, type Session } from './support';

let s: Session;
beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => s?.sb.close());

describe('insert and search (spec "POST /api/v3/deliveries", "GET /api/v3/deliveries")', () => {
  it('inserts several shipments in one request and returns them with ids, state 0 and exact decimals', async () => {
    const items = [
      shipment({ value: '1250.50', packages: [{ weight: '2.3' }] }),
      shipment({ value: '99.9', cod: '99.90', codCurrency: 'CZK', variableSymbol: '20240001' }),
    ];
    const out = await s.client.insertDeliveries(items);
    expect(out).toHaveLength(2);
    expect(out.map((d) => d.externalId)).toEqual(items.map((i) => i.externalId));
    for (const d of out) {
      expect(d.deliveryId).toBeGreaterThan(0);
      expect(d.deliveryState).toBe(0);
      expect(d.closed).toBeNull();
    }
    expect(Number(out[0]!.value)).toBe(1250.5);
    expect(out[0]!.packages[0]!.weight).toBe('2.3');
    expect(Number(out[1]!.cod)).toBe(99.9);
    // Spec: a COD amount makes the response list the extra service `cod`.
    expect(out[1]!.extraServices.map((e) => e.code)).toContain('cod');
    const posts = s.log.lines.filter((l) => l.includes('"method":"POST"') && l.includes('/api/v3/deliveries'));
    expect(posts).toHaveLength(1);
  });

  it('rejects an invalid item with a 422 whose errors point at that shipment, and inserts none', async () => {
    const good = shipment();
    const bad = shipment({
      recipient: { type: 'address', surname: 'X', address: { street: 'A 1', city: 'B', postalCode: '1', state: 'CZ' } },
    });
    const err = await s.client.insertDeliveries([good, bad]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.kind).toBe('http');
    expect(err.status).toBe(422);
    expect(err.errors.length).toBeGreaterThan(0);
    expect(err.errors.every((e: { index: number | null }) => e.index === 1)).toBe(true);
    expect(err.errors[0].externalId).toBe(bad.externalId);
    const found = await s.client.searchDeliveries({ filters: { externalId: good.externalId! } });
    expect(found.status === 'ok' && found.deliveries).toEqual([]);
  });

  it('gives the service message in Czech when the UI is Czech (accept-language)', async () => {
    s.language.current = 'cs';
    try {
      const bad = shipment({ packages: [] });
      const err = await s.client.insertDeliveries([bad]).catch((e) => e);
      expect(err).toBeInstanceOf(ServiceError);
      s.language.current = 'en';
      const errEn = await s.client.insertDeliveries([bad]).catch((e) => e);
      expect(err.message).not.toBe(errEn.message);
      expect(err.errors[0].message).not.toBe(errEn.errors[0].message);
    } finally {
      s.language.current = 'en';
    }
  });

  it('searches by filters and returns only the requested fields', async () => {
    const [d] = await s.client.insertDeliveries([shipment({ ticketNote: 'fragile glass' })]);
    const r = await s.client.searchDeliveries({
      filters: { externalId: d!.externalId! },
      fields: ['deliveryId', 'externalId', 'deliveryState'],
    });
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.deliveries).toEqual([{ deliveryId: d!.deliveryId, externalId: d!.externalId, deliveryState: 0 }]);
  });

  it('answers "not-modified" for a stored ETag when nothing changed, and new data after a change (ETag 304 reuse)', async () => {
    const [d] = await s.client.insertDeliveries([shipment()]);
    const q = { deliveryIds: [d!.deliveryId] };
    const first = await s.client.searchDeliveries(q);
    expect(first.status).toBe('ok');
    const etag = first.status === 'ok' ? first.etag : null;
    expect(etag).toBeTruthy();
    const again = await s.client.searchDeliveries(q, { etag });
    expect(again).toEqual({ status: 'not-modified', etag });
    await s.client.cancelDeliveries([d!.deliveryId]);
    const after = await s.client.searchDeliveries(q, { etag });
    expect(after.status).toBe('ok');
    expect(after.status === 'ok' && after.deliveries[0]!.deliveryState).toBe(10);
  });

  it('treats "none of the requested shipments found" (404) as an empty result', async () => {
    const r = await s.client.searchDeliveries({ deliveryIds: [987654321] });
    expect(r).toEqual({ status: 'ok', deliveries: [], etag: null });
  });
});

describe('edit and cancel (spec "PUT", "DELETE")', () => {
  it('edits a prepared shipment with If-Match from a GET, and refuses a stale ETag with 412', async () => {
    const [d] = await s.client.insertDeliveries([shipment()]);
    const got = await s.client.searchDeliveries({ deliveryIds: [d!.deliveryId] });
    const etag = got.status === 'ok' ? got.etag! : '';
    const item = { ...shipment({ externalId: d!.externalId! }), deliveryId: d!.deliveryId, ticketNote: 'edited once' };
    const [edited] = await s.client.editDeliveries([item], { ifMatch: etag });
    expect(edited!.ticketNote).toBe('edited once');
    const err = await s.client
      .editDeliveries([{ ...item, ticketNote: 'edited twice' }], { ifMatch: etag })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(412);
    const now = await s.client.getDeliveriesByIds([d!.deliveryId]);
    expect(now[0]!.ticketNote).toBe('edited once');
  });

  it('maps an edit validation error to the deliveryId of its item', async () => {
    const [a, b] = await s.client.insertDeliveries([shipment(), shipment()]);
    const ok = { ...shipment(), deliveryId: a!.deliveryId };
    const bad = { ...shipment({ packages: [] }), deliveryId: b!.deliveryId };
    const err = await s.client.editDeliveries([ok, bad]).catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.errors[0].index).toBe(1);
    expect(err.errors[0].deliveryId).toBe(b!.deliveryId);
  });

  it('cancels shipments (state 10) and refuses to cancel them again with 422', async () => {
    const [d] = await s.client.insertDeliveries([shipment()]);
    await s.client.cancelDeliveries([d!.deliveryId]);
    const [now] = await s.client.getDeliveriesByIds([d!.deliveryId]);
    expect(now!.deliveryState).toBe(10);
    const err = await s.client.cancelDeliveries([d!.deliveryId]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(422);
    expect(err.errors[0]?.deliveryId ?? d!.deliveryId).toBe(d!.deliveryId);
  });
});
