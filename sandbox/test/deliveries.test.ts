/**
 * Spec "POST/GET/PUT/PATCH/DELETE /api/v3/deliveries", "Delivery: response fields", "States and
 * transitions", "Errors", "Limits": the shipment lifecycle over HTTP, each method in all three formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDeliveries } from '../domain/index';
import type { Sandbox } from '../index';
import { admin, api, FORMATS, MEDIA, num, rawRequest, start, tokenFor, type Fmt } from './support';

let sb: Sandbox;
let token: string;
let otherToken: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
  otherToken = await tokenFor(sb, 'other');
});
afterAll(() => sb.close());

let serial = 0;
/** A fresh, valid NP shipment from the Prague collection place (demo item 0 with a new externalId). */
function npItem(extra: Record<string, unknown> = {}): Record<string, unknown> {
  serial += 1;
  return { ...(demoDeliveries()[0] as Record<string, unknown>), externalId: `T-${serial}`, ...extra };
}

async function insert(items: Record<string, unknown>[], fmt: Fmt = 'json'): Promise<number[]> {
  const r = await api(sb, 'POST', '/api/v3/deliveries', { fmt, token, body: { deliveries: items } });
  if (r.status !== 201) throw new Error(`insert: ${r.status} ${r.text}`);
  return r.body.data.map((d: { deliveryId: unknown }) => num(d.deliveryId));
}

const get = (ids: number[], fmt: Fmt = 'json', extra = '') =>
  api(sb, 'GET', `/api/v3/deliveries?deliveryId=${ids.join(',')}${extra}`, { fmt, token });

describe('POST /api/v3/deliveries (insert)', () => {
  it.each(FORMATS)(
    'POST: 201 "Deliveries successfully created" with Location and ETag, state 0, source 3 "API" (%s)',
    async (fmt) => {
      const r = await api(sb, 'POST', '/api/v3/deliveries', { fmt, token, body: { deliveries: [npItem(), npItem()] } });
      expect(r.status).toBe(201);
      expect(r.body.message).toBe('Deliveries successfully created');
      const ids = r.body.data.map((d: { deliveryId: unknown }) => num(d.deliveryId));
      expect(r.headers.get('location')).toBe(`${sb.url}/api/v3/deliveries?deliveryId=${ids.join(',')}`);
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
      expect(num(r.body.data[0].deliveryState)).toBe(0);
      expect(r.body.data[0].deliveryStateName).toBe('Připravená');
      expect(num(r.body.data[0].source)).toBe(3);
      expect(r.body.data[0].sourceName).toBe('API');
      // The Location answers with exactly these shipments.
      const back = await fetch(r.headers.get('location')!, { headers: { authorization: `Bearer ${token}` } });
      expect(
        ((await back.json()) as { data: Array<{ deliveryId: number }> }).data.map(
          (d: { deliveryId: number }) => d.deliveryId,
        ),
      ).toEqual(ids);
    },
  );

  it('Delivery response: phone spaces removed, implicit cod service with empty arguments ([] in JSON), collection-place sender expanded', async () => {
    const [id] = await insert([
      npItem({
        cod: '250.5',
        codCurrency: 'CZK',
        variableSymbol: '77',
        recipient: { ...(npItem().recipient as object), phone: '+420 601 111 222' },
      }),
    ]);
    const d = (await get([id!])).body.data[0];
    expect(d.recipient.phone).toBe('+420601111222');
    expect(d.cod).toBe(250.5);
    expect(d.extraServices).toContainEqual({ code: 'cod', arguments: [] });
    expect(d.sender).toMatchObject({
      type: 'collectionPlace',
      collectionPlace: 'WH-PRAHA',
      contactPerson: 'Petr Svoboda',
    });
    expect(d.sender.address).toMatchObject({ city: 'Praha 10' });
  });

  it('POST: 422 with errors (message, field with the [index] of the failing shipment, value); nothing is inserted', async () => {
    const ext = `ALL-OR-NOTHING-${Date.now()}`;
    const r = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: {
        deliveries: [
          npItem({ externalId: ext }),
          npItem({ externalId: ext, extraServices: [{ code: 'no_such_service' }] }),
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.length).toBeGreaterThan(0);
    expect(r.body.errors[0].field).toMatch(/^\[1\]\.extraServices/);
    expect(r.body.errors[0].value).toBe('no_such_service');
    expect((await api(sb, 'GET', `/api/v3/deliveries?externalId=${ext}`, { token })).status).toBe(404);
  });

  it('POST: a body without a deliveries list gets 422 with a clear message', async () => {
    for (const body of [{}, { deliveries: [] }, { something: 1 }]) {
      const r = await api(sb, 'POST', '/api/v3/deliveries', { token, body });
      expect(r.status).toBe(422);
      expect(r.body.message).toContain('deliveries');
    }
  });

  it('POST: fields selects keys of the response', async () => {
    const r = await api(sb, 'POST', '/api/v3/deliveries?fields=deliveryId,deliveryState,nonsense', {
      token,
      body: { deliveries: [npItem()] },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.data[0]).sort()).toEqual(['deliveryId', 'deliveryState']);
  });

  it('POST: 403 when the licence limit is reached (nothing inserted)', async () => {
    const sb2 = await start();
    try {
      const t = await tokenFor(sb2);
      const existing = (await api(sb2, 'GET', '/api/v3/deliveries?deliveryId=>0', { token: t })).body.data
        .length as number;
      await admin(sb2, 'licence', { limit: existing + 1 });
      const over = await api(sb2, 'POST', '/api/v3/deliveries', {
        token: t,
        body: { deliveries: [npItem(), npItem()] },
      });
      expect(over.status).toBe(403);
      expect(over.body).toMatchObject({ code: 403, status: 'error' });
      expect(
        (await api(sb2, 'POST', '/api/v3/deliveries', { token: t, body: { deliveries: [npItem()] } })).status,
      ).toBe(201);
      expect(
        (await api(sb2, 'POST', '/api/v3/deliveries', { token: t, body: { deliveries: [npItem()] } })).status,
      ).toBe(403);
      await admin(sb2, 'licence', { limit: null });
      expect(
        (await api(sb2, 'POST', '/api/v3/deliveries', { token: t, body: { deliveries: [npItem()] } })).status,
      ).toBe(201);
    } finally {
      await sb2.close();
    }
  });
});

describe('GET /api/v3/deliveries (search)', () => {
  it.each(FORMATS)(
    'GET: 200 "Deliveries successfully retrieved" with only the found ones when some ids are unknown (%s)',
    async (fmt) => {
      const r = await get([1001, 999_999, 1003], fmt);
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Deliveries successfully retrieved');
      expect(r.body.data.map((d: { deliveryId: unknown }) => num(d.deliveryId))).toEqual([1001, 1003]);
    },
  );

  it("GET: 404 when none of the requested shipments is found (another company's count as not found)", async () => {
    expect((await get([999_999])).status).toBe(404);
    expect((await get([1020])).status).toBe(404);
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1020', { token: otherToken })).status).toBe(200);
  });

  it('GET: fields returns only the requested keys; unknown names are ignored; order does not matter', async () => {
    const r = await get([1001], 'json', '&fields=sender,deliveryId,bogus');
    expect(Object.keys(r.body.data[0]).sort()).toEqual(['deliveryId', 'sender']);
  });

  it('GET: ETag, and 304 with an empty body for the same filter and fields when nothing changed', async () => {
    const [id] = await insert([npItem()]);
    const first = await get([id!]);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${id}`, {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Other fields: a different representation, so no 304.
    const withFields = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${id}&fields=deliveryId`, {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(withFields.status).toBe(200);
    // A change: no 304 either.
    await api(sb, 'DELETE', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: id }] } });
    expect(
      (await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${id}`, { token, headers: { 'if-none-match': etag } }))
        .status,
    ).toBe(200);
  });

  it('GET: at most 100 shipments are returned (ascending deliveryId, page on with deliveryId>)', async () => {
    const sb2 = await start({ seed: 'none' });
    try {
      const t = await tokenFor(sb2);
      const items = Array.from({ length: 105 }, () => npItem());
      const r = await api(sb2, 'POST', '/api/v3/deliveries', { token: t, body: { deliveries: items } });
      expect(r.status).toBe(201);
      const page1 = await api(sb2, 'GET', '/api/v3/deliveries?agent=NP&fields=deliveryId', { token: t });
      expect(page1.body.data).toHaveLength(100);
      const ids = page1.body.data.map((d: { deliveryId: number }) => d.deliveryId);
      expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
      const page2 = await api(sb2, 'GET', `/api/v3/deliveries?agent=NP&fields=deliveryId&deliveryId=>${ids[99]}`, {
        token: t,
      });
      expect(page2.body.data).toHaveLength(5);
    } finally {
      await sb2.close();
    }
  });

  it('GET filter rules 1, 3-4: criteria combine with AND; enumeration with commas; > and < prefixes; ranges with key[]', async () => {
    const byAgent = await api(sb, 'GET', '/api/v3/deliveries?agent=PPR,BOX&deliveryId=<1020&fields=agent', { token });
    expect(new Set(byAgent.body.data.map((d: { agent: string }) => d.agent))).toEqual(new Set(['PPR', 'BOX']));
    const range = await api(
      sb,
      'GET',
      `/api/v3/deliveries?deliveryId[]=${encodeURIComponent('>1002')}&deliveryId[]=${encodeURIComponent('<1006')}&fields=deliveryId`,
      { token },
    );
    expect(range.body.data.map((d: { deliveryId: number }) => d.deliveryId)).toEqual([1003, 1004, 1005]);
    const and = await api(
      sb,
      'GET',
      '/api/v3/deliveries?agent=NP&recipient.surname=Nováková&deliveryId=<1010&fields=deliveryId',
      { token },
    );
    expect(and.body.data.map((d: { deliveryId: number }) => d.deliveryId)).toEqual([1001]);
  });

  it('GET: 414 for a URL longer than about 8000 bytes, with a body not in the requested format', async () => {
    const ids = Array.from({ length: 1700 }, (_, i) => 100_000 + i).join(',');
    const r = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${ids}`, { token, fmt: 'xml' });
    expect(r.status).toBe(414);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const shorter = Array.from({ length: 700 }, (_, i) => 100_000 + i).join(',');
    expect((await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${shorter}`, { token })).status).toBe(404);
  });
});

describe("Requests past the HTTP parser's limits", () => {
  it('GET: a URL past the 64 KiB header limit answers 431 with a plain-text reason naming both limits', async () => {
    const ids = Array.from({ length: 12_000 }, (_, i) => 100_000 + i).join(',');
    const r = await rawRequest(`${sb.url}/api/v3/deliveries?deliveryId=${ids}`, 'GET', {
      accept: MEDIA.xml,
      authorization: `Bearer ${token}`,
    });
    expect(r.status).toBe(431);
    expect(r.contentType).toMatch(/^text\/plain/);
    expect(r.text).toContain('64 KiB');
    expect(r.text).toContain('8000 bytes');
  });

  it('GET: headers past the 64 KiB limit answer 431 with a plain-text reason', async () => {
    const r = await rawRequest(`${sb.url}/api/v3/deliveries?deliveryId=1001`, 'GET', {
      authorization: `Bearer ${token}`,
      'x-padding': 'x'.repeat(70_000),
    });
    expect(r.status).toBe(431);
    expect(r.contentType).toMatch(/^text\/plain/);
    expect(r.text).toContain('64 KiB');
  });
});

describe('PUT /api/v3/deliveries (edit)', () => {
  it.each(FORMATS)('PUT: 200 "Deliveries successfully edited", full replacement (%s)', async (fmt) => {
    const [id] = await insert([npItem()]);
    const r = await api(sb, 'PUT', '/api/v3/deliveries', {
      fmt,
      token,
      body: { deliveries: [npItem({ deliveryId: id, ticketNote: `edited-${fmt}`, packages: [{ weight: '3,5' }] })] },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Deliveries successfully edited');
    const d = (await get([id!])).body.data[0];
    expect(d.ticketNote).toBe(`edited-${fmt}`);
    expect(d.packages).toEqual([expect.objectContaining({ weight: 3.5 })]);
  });

  it('PUT: If-Match with the ETag of a GET without fields -> 200; after a change -> 412 and nothing is edited', async () => {
    const [id] = await insert([npItem()]);
    const etag = (await get([id!])).headers.get('etag')!;
    const ok = await api(sb, 'PUT', '/api/v3/deliveries', {
      token,
      body: { deliveries: [npItem({ deliveryId: id, ticketNote: 'first' })] },
      headers: { 'if-match': etag },
    });
    expect(ok.status).toBe(200);
    const stale = await api(sb, 'PUT', '/api/v3/deliveries', {
      token,
      body: { deliveries: [npItem({ deliveryId: id, ticketNote: 'second' })] },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 412, status: 'error' });
    expect((await get([id!])).body.data[0].ticketNote).toBe('first');
  });

  it('PUT: same validation as insert plus deliveryId (422 with [index] fields)', async () => {
    const noId = await api(sb, 'PUT', '/api/v3/deliveries', { token, body: { deliveries: [npItem()] } });
    expect(noId.status).toBe(422);
    expect(noId.body.errors.map((e: { field: string }) => e.field)).toContain('[0].deliveryId');
  });

  it('PUT: a closed or cancelled shipment cannot be edited (422)', async () => {
    const [a, b] = await insert([npItem(), npItem()]);
    await api(sb, 'PATCH', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: a, closed: true }] } });
    await api(sb, 'DELETE', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: b }] } });
    for (const id of [a, b]) {
      const r = await api(sb, 'PUT', '/api/v3/deliveries', {
        token,
        body: { deliveries: [npItem({ deliveryId: id })] },
      });
      expect(r.status).toBe(422);
    }
  });

  it("PUT: an unknown shipment -> 404, another company's -> 403", async () => {
    expect(
      (await api(sb, 'PUT', '/api/v3/deliveries', { token, body: { deliveries: [npItem({ deliveryId: 999_999 })] } }))
        .status,
    ).toBe(404);
    expect(
      (await api(sb, 'PUT', '/api/v3/deliveries', { token, body: { deliveries: [npItem({ deliveryId: 1020 })] } }))
        .status,
    ).toBe(403);
  });
});

describe('PATCH /api/v3/deliveries (close)', () => {
  it.each(FORMATS)(
    'PATCH: 200 "Deliveries successfully closed!" sets state 1, deliveryNumber, package barcodes, closed; data.collectionOrders (%s)',
    async (fmt) => {
      const [a, b] = await insert([npItem(), npItem({ packages: [{ weight: 1 }, { weight: 2 }] })]);
      const r = await api(sb, 'PATCH', '/api/v3/deliveries', {
        fmt,
        token,
        body: {
          deliveries: [
            { deliveryId: a, closed: true },
            { deliveryId: b, closed: true },
          ],
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Deliveries successfully closed!');
      // XML cannot tell one object from a list of one: the test parser reads every <data> as a list.
      const data = Array.isArray(r.body.data) ? r.body.data[0] : r.body.data;
      const ds = data.deliveries;
      expect(ds).toHaveLength(2);
      for (const d of ds) {
        expect(num(d.deliveryState)).toBe(1);
        expect(d.deliveryNumber).toBeTruthy();
        expect(d.closed).toBeTruthy();
        for (const p of d.packages) expect(p.barcode).toBeTruthy();
        // After closing a collection-place sender is shown by type and collectionPlace only.
        expect(d.sender).toEqual({ type: 'collectionPlace', collectionPlace: 'WH-PRAHA' });
      }
      // WH-PRAHA has a collection type for NP: one pick-up order for the next working day.
      const orders = Array.isArray(data.collectionOrders) ? data.collectionOrders : [data.collectionOrders];
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
      expect(orders[0].scheduled).toMatch(/^\d{4}-\d\d-\d\d$/);
    },
  );

  it('PATCH: all shipments must share one carrier and one collection place (422)', async () => {
    const [np] = await insert([npItem()]);
    const [ppr] = await insert([demoDeliveries()[3] as Record<string, unknown>]);
    const r = await api(sb, 'PATCH', '/api/v3/deliveries', {
      token,
      body: {
        deliveries: [
          { deliveryId: np, closed: true },
          { deliveryId: ppr, closed: true },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toMatch(/^\[1\]/);
    expect(num((await get([np!])).body.data[0].deliveryState)).toBe(0);
  });

  it('PATCH: closed or cancelled shipments cannot be closed again (422)', async () => {
    const [a, b] = await insert([npItem(), npItem()]);
    await api(sb, 'PATCH', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: a, closed: true }] } });
    await api(sb, 'DELETE', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: b }] } });
    for (const id of [a, b])
      expect(
        (
          await api(sb, 'PATCH', '/api/v3/deliveries', {
            token,
            body: { deliveries: [{ deliveryId: id, closed: true }] },
          })
        ).status,
      ).toBe(422);
  });

  it("PATCH: 404 for an unknown shipment, 403 for another company's, 422 without closed = true", async () => {
    expect(
      (
        await api(sb, 'PATCH', '/api/v3/deliveries', {
          token,
          body: { deliveries: [{ deliveryId: 999_999, closed: true }] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(sb, 'PATCH', '/api/v3/deliveries', {
          token,
          body: { deliveries: [{ deliveryId: 1020, closed: true }] },
        })
      ).status,
    ).toBe(403);
    const [id] = await insert([npItem()]);
    const r = await api(sb, 'PATCH', '/api/v3/deliveries', {
      token,
      body: { deliveries: [{ deliveryId: id, closed: false }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe('[0].closed');
  });

  it('PATCH: the carrier rejects a documented magic value (recipient surname REJECT) with 422 and its messages, in Czech on request', async () => {
    const [id] = await insert([npItem({ recipient: { ...(npItem().recipient as object), surname: 'REJECT' } })]);
    const r = await api(sb, 'PATCH', '/api/v3/deliveries', {
      token,
      body: { deliveries: [{ deliveryId: id, closed: true }] },
      headers: { 'accept-language': 'cs' },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toMatch(/^\[0\]\.recipient\.surname/);
    expect(r.body.errors[0].message).toMatch(/odmítl/);
    expect(num((await get([id!])).body.data[0].deliveryState)).toBe(0);
  });

  it('PATCH: the carrierReject fault makes the next close fail with 422, once', async () => {
    const [id] = await insert([npItem()]);
    await admin(sb, 'faults', { path: '/api/v3/deliveries', method: 'PATCH', carrierReject: true, count: 1 });
    const body = { deliveries: [{ deliveryId: id, closed: true }] };
    expect((await api(sb, 'PATCH', '/api/v3/deliveries', { token, body })).status).toBe(422);
    expect((await api(sb, 'PATCH', '/api/v3/deliveries', { token, body })).status).toBe(200);
  });
});

describe('DELETE /api/v3/deliveries (cancel)', () => {
  it.each(FORMATS)(
    'DELETE: 200 "Deliveries successfully canceled" without data; state 10 "Zrušená" (%s)',
    async (fmt) => {
      const [id] = await insert([npItem()]);
      const r = await api(sb, 'DELETE', '/api/v3/deliveries', {
        fmt,
        token,
        body: { deliveries: [{ deliveryId: id }] },
      });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Deliveries successfully canceled');
      expect(r.body.data).toBeUndefined();
      const d = (await get([id!])).body.data[0];
      expect(d.deliveryState).toBe(10);
      expect(d.deliveryStateName).toBe('Zrušená');
    },
  );

  it('DELETE: closed or cancelled shipments cannot be cancelled (422); unknown ones are 422 too (the spec lists only 422)', async () => {
    const [a, b] = await insert([npItem(), npItem()]);
    await api(sb, 'PATCH', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: a, closed: true }] } });
    await api(sb, 'DELETE', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: b }] } });
    for (const id of [a, b, 999_999, 1020]) {
      const r = await api(sb, 'DELETE', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: id }] } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe('[0].deliveryId');
    }
  });
});
