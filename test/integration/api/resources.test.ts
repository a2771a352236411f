import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, type TransportQuery } from '../../../electron/api/index';
import { startProxy } from './proxy';
import { adminPost, openSession, shipment, type Session } from './support';

let s: Session;
beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => s?.sb.close());

const query: TransportQuery = {
  sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
  recipient: { type: 'address', address: { street: 'Dlouhá 12', city: 'Praha', postalCode: '11000', state: 'CZ' } },
  value: '1500',
  valueCurrency: 'CZK',
  packages: [{ weight: '2,5', length: 30, width: 20, height: 10 }],
};

describe('GET /api/ (spec: unversioned test resource with ETag)', () => {
  it('answers ok with an ETag, then not-modified for that ETag, without a token', async () => {
    const first = await s.client.ping();
    expect(first.status).toBe('ok');
    expect(first.etag).toBeTruthy();
    expect(await s.client.ping({ etag: first.etag })).toMatchObject({ status: 'not-modified', etag: first.etag });
  });
});

describe('transport search (spec "GET /api/v3/transports")', () => {
  it('sends GET with a JSON body and reads transports with exact decimal prices', async () => {
    const [result] = await s.client.searchTransports([
      query,
      {
        ...query,
        recipient: {
          type: 'address',
          address: { street: 'Hlavní 1', city: 'Bratislava', postalCode: '81101', state: 'SK' },
        },
      },
    ]);
    expect(result!.delivery).toBe(0);
    expect(result!.transports.length).toBeGreaterThan(0);
    const np = result!.transports.find((t) => t.agent.code === 'NP');
    expect(np).toBeDefined();
    expect(np!.price?.total).toMatch(/^\d+(\.\d+)?$/);
    expect(typeof np!.deliveryType.dimensionsRequired).toBe('boolean');
    expect(s.log.lines.some((l) => l.includes('"method":"GET"') && l.includes('/api/v3/transports'))).toBe(true);
  });

  it('falls back to POST with X-HTTP-Method-Override: GET when GET with a body is refused, and remembers it', async () => {
    const proxy = await startProxy(s.sb.url, (req, body) =>
      req.method === 'GET' && req.url?.startsWith('/api/v3/transports') && body.length > 0
        ? { status: 400, body: '{"code":400,"status":"error","message":"GET with a body"}' }
        : null,
    );
    try {
      const via = await openSession({ sandbox: s.sb, baseUrl: proxy.url });
      const first = await via.client.searchTransports([query]);
      expect(first[0]!.transports.length).toBeGreaterThan(0);
      await via.client.searchTransports([query]);
      expect(proxy.count('GET', '/api/v3/transports')).toBe(1);
      expect(proxy.count('POST', '/api/v3/transports')).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('maps a 422 to the index of the failing query', async () => {
    const bad = { ...query, packages: [{ weight: 'heavy', length: 1, width: 1, height: 1 }] };
    const err = await s.client.searchTransports([query, bad]).catch((e) => e);
    expect(err).toBeInstanceOf(TypeError); // the client refuses a non-decimal before sending
    const err2 = await s.client.searchTransports([query, { ...query, packages: [] }]).catch((e) => e);
    expect(err2).toBeInstanceOf(ServiceError);
    expect(err2.status).toBe(422);
    expect(err2.errors[0].index).toBe(1);
  });
});

describe('collection places (spec "GET /api/v2/collection-places")', () => {
  it('lists the active places of the company', async () => {
    const places = await s.client.getCollectionPlaces();
    const ids = places.map((p) => p.identificator);
    expect(ids).toContain('WH-PRAHA');
    expect(places.every((p) => p.name && p.city && p.postalCode && p.state)).toBe(true);
  });
});

describe('traces (spec "GET /api/v3/deliveries/traces")', () => {
  it('returns traces of closed shipments and 422 for an unclosed one', async () => {
    const [d, open] = await s.client.insertDeliveries([shipment(), shipment()]);
    const [g] = await s.client.closeDeliveries([
      { deliveryId: d!.deliveryId, agent: 'NP', sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } },
    ]);
    expect(g!.outcome.status).toBe('closed');
    await adminPost(s.sb, 'clock/advance', { seconds: 2 * 24 * 3600 });
    const traces = await s.client.getTraces([d!.deliveryId]);
    expect(traces).toHaveLength(1);
    expect(traces[0]!.deliveryId).toBe(d!.deliveryId);
    expect(Array.isArray(traces[0]!.traces)).toBe(true);
    const err = await s.client.getTraces([open!.deliveryId]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(422);
  });
});
