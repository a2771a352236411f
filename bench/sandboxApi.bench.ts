/**
 * The sandbox's API under load, on loopback, driven by autocannon:
 * - insert of 100 shipments per request and a search returning 100: requests/s, p50/p99 latency;
 * - PDF labels for 100 closed shipments and ZPL for 100 closed shipments: time per request and
 *   bytes (the PDF before base64, and the whole response).
 * Each run is bounded (a few seconds). The sandbox runs in this process, in memory.
 */
import autocannon from 'autocannon';
import { startSandbox } from '../sandbox/index';

type Result = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
};

const NP_ITEM = {
  agent: 'NP',
  deliveryType: 'NP-DOOR',
  value: 1500,
  valueCurrency: 'CZK',
  cod: 1234.5,
  codCurrency: 'CZK',
  variableSymbol: '2024001',
  ticketNote: 'Křehké, nestohovat',
  sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
  recipient: {
    type: 'address',
    firstname: 'Jana',
    surname: 'Nováková',
    phone: '+420 601 234 567',
    address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
  },
  packages: [{ weight: 2.3 }],
};
const hundred = () => Array.from({ length: 100 }, (_, i) => ({ ...NP_ITEM, externalId: `B-${i}` }));

function load(o: {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: o.url,
        method: o.method ?? 'GET',
        headers: o.headers,
        body: o.body,
        connections: o.connections,
        duration: o.seconds,
      },
      (err: Error | null, result: Result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function checked(name: string, r: Result): Result {
  if (r.non2xx > 0 || r.errors > 0 || r.requests.total === 0)
    throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.requests.total} requests`);
  return r;
}

export async function run(): Promise<Record<string, number>> {
  const sb = await startSandbox({ port: 0, seed: 'none' });
  try {
    const admin = (path: string, body: unknown) =>
      fetch(`${sb.url}/_sandbox/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    await admin('licence', { limit: null });
    const token = String(
      (await admin('tokens', { clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope }))
        .access_token,
    );
    const headers = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    };
    const call = async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(sb.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return { json: JSON.parse(text) as { data: T }, bytes: Buffer.byteLength(text) };
    };

    // 100 closed shipments for the label runs (one carrier, one place: one close request).
    const inserted = await call<{ deliveryId: number }[]>('POST', '/api/v3/deliveries', { deliveries: hundred() });
    const ids = inserted.json.data.map((d) => d.deliveryId);
    await call('PATCH', '/api/v3/deliveries', { deliveries: ids.map((deliveryId) => ({ deliveryId, closed: true })) });

    const insert = checked(
      'insert',
      await load({
        url: `${sb.url}/api/v3/deliveries`,
        method: 'POST',
        headers,
        body: JSON.stringify({ deliveries: hundred() }),
        connections: 4,
        seconds: 4,
      }),
    );
    const search = checked(
      'search',
      await load({
        url: `${sb.url}/api/v3/deliveries?agent=NP&valueCurrency=CZK`,
        headers,
        connections: 4,
        seconds: 4,
      }),
    );
    const one = await call<unknown[]>('GET', `/api/v3/deliveries?agent=NP&valueCurrency=CZK`);
    if (one.json.data.length !== 100) throw new Error(`search returned ${one.json.data.length}, not 100`);

    const idList = ids.join(',');
    const pdf = checked(
      'tickets',
      await load({
        url: `${sb.url}/api/v3/deliveries/tickets?deliveryId=${idList}`,
        headers,
        connections: 1,
        seconds: 5,
      }),
    );
    const pdfOne = await call<{ size: number }>('GET', `/api/v3/deliveries/tickets?deliveryId=${idList}`);
    // National Post: ZPL in its default size, 10x17 (spec "GET /api/v3/deliveries/zpl").
    const zpl = checked(
      'zpl',
      await load({ url: `${sb.url}/api/v3/deliveries/zpl?deliveryId=${idList}`, headers, connections: 1, seconds: 4 }),
    );
    const zplOne = await call<{ zplCodes: string[] }[]>('GET', `/api/v3/deliveries/zpl?deliveryId=${idList}`);
    const zplBytes = zplOne.json.data.reduce((n, d) => n + d.zplCodes.reduce((m, z) => m + Buffer.byteLength(z), 0), 0);

    return {
      'insert100.requestsPerSecond': insert.requests.average,
      'insert100.shipmentsPerSecond': insert.requests.average * 100,
      'insert100.p50Ms': insert.latency.p50,
      'insert100.p99Ms': insert.latency.p99,
      'search100.requestsPerSecond': search.requests.average,
      'search100.p50Ms': search.latency.p50,
      'search100.p99Ms': search.latency.p99,
      'ticketsPdf100.meanMs': pdf.latency.average,
      'ticketsPdf100.p50Ms': pdf.latency.p50,
      'ticketsPdf100.pdfBytes': pdfOne.json.data.size,
      'ticketsPdf100.responseBytes': pdfOne.bytes,
      'zpl100.meanMs': zpl.latency.average,
      'zpl100.p50Ms': zpl.latency.p50,
      'zpl100.zplBytes': zplBytes,
      'zpl100.responseBytes': zplOne.bytes,
    };
  } finally {
    await sb.close();
  }
}
