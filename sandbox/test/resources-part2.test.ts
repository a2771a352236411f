/**
 * Spec "GET /api/v2/collection-places", "GET /api/v3/transports", "GET /api/v3/deliveries/traces"
 * (the HTTP side; the domain's own tests cover the pricing model and the tracking timeline).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDeliveries } from '../domain/index';
import type { Sandbox } from '../index';
import http from 'node:http';
import { admin, api, decodeResponse, FORMATS, MEDIA, encodeRequest, num, start, tokenFor, type Fmt } from './support';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const transportItem = {
  value: 1500,
  valueCurrency: 'CZK',
  sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
  recipient: { type: 'address', address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' } },
  packages: [{ weight: '2,5', length: 30, width: 20, height: 10 }],
};

function getWithBody(url: string, fmt: Fmt, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          accept: MEDIA[fmt],
          'content-type': MEDIA[fmt],
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('GET /api/v2/collection-places', () => {
  it.each(FORMATS)(
    'Collection places: 200 "Active collection places successfully fetched", active places only, every field (%s)',
    async (fmt) => {
      const r = await api(sb, 'GET', '/api/v2/collection-places', { fmt, token });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Active collection places successfully fetched');
      const ids = r.body.data.map((p: { identificator: string }) => p.identificator);
      expect(ids).toContain('WH-PRAHA');
      expect(ids).not.toContain('OLD-PLZEN');
      expect(Object.keys(r.body.data[0]).sort()).toEqual([
        'city',
        'contactPerson',
        'email',
        'identificator',
        'name',
        'phone',
        'postalCode',
        'state',
        'street',
      ]);
    },
  );

  it('Collection places: needs the collection-places scope', async () => {
    const t = await tokenFor(sb, 'demo', 'deliveries');
    expect((await api(sb, 'GET', '/api/v2/collection-places', { token: t })).status).toBe(403);
  });
});

describe('GET /api/v3/transports', () => {
  it.each(FORMATS)(
    'Transports: GET with a body answers one item per shipment with its delivery index (%s)',
    async (fmt) => {
      // fetch cannot send a body with GET; node:http can, as the spec's clients do.
      const r = await getWithBody(
        `${sb.url}/api/v3/transports`,
        fmt,
        encodeRequest(fmt, { deliveries: [transportItem, transportItem] }),
      );
      expect(r.status).toBe(200);
      const body = decodeResponse(fmt, r.text);
      expect(body.message).toBe('Transports successfully found');
      expect(body.data.map((d: { delivery: unknown }) => num(d.delivery))).toEqual([0, 1]);
      expect(body.data[0].transports.length).toBeGreaterThan(0);
    },
  );

  it('Transports: package dimensions are always required here (422)', async () => {
    const item = { ...transportItem, packages: [{ weight: 1 }] };
    const r = await getWithBody(`${sb.url}/api/v3/transports`, 'json', JSON.stringify({ deliveries: [item] }));
    expect(r.status).toBe(422);
    expect(JSON.parse(r.text).errors[0].field).toMatch(/^\[0\]\.packages/);
  });

  it('Transports: POST with X-HTTP-Method-Override: GET works like GET with a body; without the header it is refused', async () => {
    const body = JSON.stringify({ deliveries: [transportItem] });
    const headers = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    };
    const res = await fetch(`${sb.url}/api/v3/transports`, {
      method: 'POST',
      headers: { ...headers, 'x-http-method-override': 'GET' },
      body,
    });
    const json = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(json.message).toBe('Transports successfully found');
    expect(json.data[0].delivery).toBe(0);
    expect(json.data[0].transports.length).toBeGreaterThan(0);
    const t = json.data[0].transports[0];
    expect(t.agent.code).toBeTruthy();
    expect(typeof t.deliveryType.phoneRequired).toBe('boolean');
    expect((await fetch(`${sb.url}/api/v3/transports`, { method: 'POST', headers, body })).status).toBe(405);
  });

  it('Transports: needs the transports scope', async () => {
    const t = await tokenFor(sb, 'demo', 'deliveries');
    expect(
      (
        await api(sb, 'POST', '/api/v3/transports', {
          token: t,
          body: { deliveries: [transportItem] },
          headers: { 'x-http-method-override': 'GET' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('GET /api/v3/deliveries/traces', () => {
  async function closedShipment(): Promise<number> {
    const ins = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: { deliveries: [demoDeliveries()[0] as Record<string, unknown>] },
    });
    const id = ins.body.data[0].deliveryId as number;
    const closed = await api(sb, 'PATCH', '/api/v3/deliveries', {
      token,
      body: { deliveries: [{ deliveryId: id, closed: true }] },
    });
    expect(closed.status).toBe(200);
    return id;
  }

  it.each(FORMATS)(
    'Traces: 200 "Traces successfully retrieved" with deliveryId, lastChecked and traces (%s)',
    async (fmt) => {
      const id = await closedShipment();
      const r = await api(sb, 'GET', `/api/v3/deliveries/traces?deliveryId=${id}`, { fmt, token });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Traces successfully retrieved');
      expect(num(r.body.data[0].deliveryId)).toBe(id);
      expect('lastChecked' in r.body.data[0]).toBe(true);
    },
  );

  it('Traces: the shipment moves along with the sandbox clock and the traces grow', async () => {
    const id = await closedShipment();
    const before = await api(sb, 'GET', `/api/v3/deliveries/traces?deliveryId=${id}`, { token });
    await admin(sb, 'clock/advance', { seconds: 10 * 24 * 3600 });
    // Ten days later the old access token has expired (3600 s): a fresh one, as a client would refresh.
    token = await tokenFor(sb);
    const after = await api(sb, 'GET', `/api/v3/deliveries/traces?deliveryId=${id}`, { token });
    expect(after.body.data[0].traces.length).toBeGreaterThan(before.body.data[0].traces.length);
    expect(after.body.data[0].lastChecked).toMatch(/[+-]\d\d:\d\d$/);
    const state = (await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${id}&fields=deliveryState`, { token })).body
      .data[0].deliveryState;
    expect([3, 5]).toContain(state);
  });

  it("Traces: 422 for an unclosed shipment or a missing deliveryId, 404 unknown, 403 another company's", async () => {
    expect((await api(sb, 'GET', '/api/v3/deliveries/traces?deliveryId=1001', { token })).status).toBe(422);
    expect((await api(sb, 'GET', '/api/v3/deliveries/traces', { token })).status).toBe(422);
    expect((await api(sb, 'GET', '/api/v3/deliveries/traces?deliveryId=999999', { token })).status).toBe(404);
    expect((await api(sb, 'GET', '/api/v3/deliveries/traces?deliveryId=1020', { token })).status).toBe(403);
  });
});
