/**
 * Robustness fuzz suite (seeded, bounded, loopback): malformed and hostile requests in the three
 * formats against every API route. Asserts that no answer is a 5xx, that every API answer parses
 * in the requested format and conforms to the OpenAPI description (openapiCheck.ts: described
 * status, media type and body schema), and that afterwards every stored shipment still reads in
 * JSON, XML and form. The seed is printed; SANDBOX_FUZZ_SEED=<n> replays a run, SANDBOX_FUZZ_REQUESTS=<n> sets
 * its size (default 10,500).
 */
import http from 'node:http';
import { XMLBuilder, XMLValidator } from 'fast-xml-parser';
import qs from 'qs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Sandbox } from '../index';
import { openApiProblems } from './openapiCheck';
import { decodeResponse, FORMATS, MEDIA, rawRequest, start, tokenFor, type Fmt } from './support';
import { fuzzSeed, prng } from './seededRandom';
import { items } from './shipments';

const SEED = fuzzSeed();
const REQUESTS = Number(process.env.SANDBOX_FUZZ_REQUESTS ?? 10_500);
const PARALLEL = 8;

const rnd = prng(SEED);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
const chance = (p: number) => rnd() < p;

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'then',
];
const deep = (n: number): unknown => (n === 0 ? 1 : chance(0.5) ? [deep(n - 1)] : { a: deep(n - 1) });

/** Values meant to break something: numbers at and past the limits, bad Unicode, markup, nesting. */
function hostileValue(): unknown {
  switch (int(24)) {
    case 0:
      return `1${'0'.repeat(int(500))}`;
    case 1:
      return '123456789012345678901234.55';
    case 2:
      return pick([1e21, 1e-7, -0, 1.005, 99999999.99, 100000000, Number.MAX_SAFE_INTEGER, 0.1 + 0.2]);
    case 3:
      return `a\ud800b`;
    case 4:
      return '\udc00';
    case 5:
      return '😀 Příliš žluťoučký kůň & <b>"x"</b> \'y\'';
    case 6:
      return '\u0000\u0001\u0008\u000b\u001f\r\n\t';
    case 7:
      return 'x'.repeat(pick([300, 4001, 20_000]));
    case 8:
      return deep(int(40));
    case 9:
      return Object.fromEntries([[pick(PROTO_KEYS), pick([1, 'x', {}, []])]]);
    case 10:
      return [];
    case 11:
      return {};
    case 12:
      return null;
    case 13:
      return pick([true, false]);
    case 14:
      return '';
    case 15:
      return '   ';
    case 16:
      return pick(['2,5', '2.5', '0,001', '-1', '1e3', '0x10', 'NaN', 'Infinity', '٣']);
    case 17:
      return pick(['<root>', ']]>', '<![CDATA[x]]>', '&amp;', '&#xD800;', '&x;', '%00', '%ZZ', '%ED%A0%80']);
    case 18:
      return Array.from({ length: int(60) }, () => ({ weight: pick([1, '2,3', -1, 'x']) }));
    case 19:
      return pick(['CZK', 'czk', 'XXX', 'NP', 'NP-DOOR', 'WH-PRAHA', 'address', 'pickUpPlace', 'collectionPlace']);
    case 20:
      return int(2_000_000_000) - 1_000_000_000;
    case 21:
      return pick(['1001', '1002,1003', '>1000', '<', '1,,2', '0', '999999999999999999']);
    case 22:
      return '\u202e\u200b\ufeff\ufffe';
    default:
      return `${int(1000)}`;
  }
}

/** A copy of `value` with one value somewhere replaced (or a key added) by a hostile one. */
function mutate(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 4 || chance(0.25)) return hostileValue();
  if (Array.isArray(value)) {
    const copy = [...value];
    if (copy.length === 0 || chance(0.1)) copy.push(hostileValue());
    else copy[int(copy.length)] = mutate(copy[int(copy.length)], depth + 1);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (keys.length === 0 || chance(0.15))
    copy[chance(0.5) ? pick(PROTO_KEYS) : pick(['x', 'deliveryId', 'closed', 'agent', '0', ''])] = hostileValue();
  else if (chance(0.1)) delete copy[pick(keys)];
  else {
    const k = pick(keys);
    copy[k] = mutate(copy[k], depth + 1);
  }
  return copy;
}

const xmlBuilder = new XMLBuilder({ suppressEmptyNode: true });
function encode(fmt: Fmt, body: unknown): string {
  try {
    if (fmt === 'json') return JSON.stringify(body) ?? '';
    if (fmt === 'xml') return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ root: body })}`;
    return qs.stringify(body, { encodeValuesOnly: true });
  } catch {
    return typeof body === 'string' ? body : '';
  }
}

/** Bodies that are not the result of encoding at all. */
function garbageBody(fmt: Fmt): string {
  switch (int(14)) {
    case 0:
      return '{"deliveries":[{"a":' + '['.repeat(2000 + int(20_000));
    case 1:
      return `{"deliveries":[{"value":${'['.repeat(10_000)}1${']'.repeat(10_000)}}]}`;
    case 2:
      return '<?xml version="1.0"?><!DOCTYPE root [<!ENTITY x SYSTEM "file:///etc/passwd">]><root>&x;</root>';
    case 3:
      return '<!DOCTYPE root [<!ENTITY % p "x"> %p;]><root/>';
    case 4:
      return `<root>${'<a>'.repeat(250)}1${'</a>'.repeat(250)}</root>`;
    case 5:
      return `<root><deliveries><${pick(['__proto__', 'constructor', 'prototype'])}>1</${pick(['__proto__', 'constructor', 'prototype'])}></deliveries></root>`;
    case 6:
      return Array.from({ length: 200 + int(3000) }, (_, i) => `deliveries[${i}][${pick(PROTO_KEYS)}]=1`).join('&');
    case 7:
      return `a${'[b]'.repeat(50 + int(500))}=1&${'['.repeat(100)}=x&]]]=y&%=%&&&=&`;
    case 8:
      return Buffer.from(Array.from({ length: int(500) }, () => int(256))).toString('latin1');
    case 9:
      return '\ufeff{"deliveries":[]}';
    case 10:
      return fmt === 'json' ? '[1,2,3]' : fmt === 'xml' ? '<notroot/>' : 'deliveries=1&deliveries[0]=2&deliveries[x]=3';
    case 11:
      return '<root><deliveries>' + '<packages><weight>1</weight></packages>'.repeat(60) + '</deliveries></root>';
    case 12:
      return 'deliveries[0][deliveryId]=1001&deliveries[0][closed]=1&deliveries[0][closed]=0&deliveries[1e9][x]=1';
    default:
      return '"\\ud800"';
  }
}

const ROUTES: Array<{ method: string; path: string; body: boolean; query?: () => string }> = [
  { method: 'GET', path: '/api/', body: false },
  { method: 'POST', path: '/api/v3/deliveries', body: true },
  { method: 'PUT', path: '/api/v3/deliveries', body: true },
  { method: 'PATCH', path: '/api/v3/deliveries', body: true },
  { method: 'DELETE', path: '/api/v3/deliveries', body: true },
  { method: 'GET', path: '/api/v3/deliveries', body: false, query: searchQuery },
  { method: 'GET', path: '/api/v3/deliveries/tickets', body: false, query: idQuery },
  { method: 'GET', path: '/api/v3/deliveries/zpl', body: false, query: idQuery },
  { method: 'GET', path: '/api/v3/deliveries/traces', body: false, query: idQuery },
  { method: 'GET', path: '/api/v3/transports', body: true },
  { method: 'POST', path: '/api/v3/transports', body: true },
  { method: 'GET', path: '/api/v1/collection-places', body: false },
  { method: 'POST', path: '/api/v2/collection-protocols', body: true },
  { method: 'GET', path: '/api/v2/collection-protocols', body: false, query: () => `id=${queryValue()}` },
];

/** A hostile value as query text (its JSON when it is not a string), percent-encoded as well as it can be. */
function queryValue(): string {
  const v = hostileValue();
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80');
  }
}

const ids = () => Array.from({ length: 1 + int(4) }, () => 1000 + int(40)).join(',');
function idQuery(): string {
  const parts = [`deliveryId=${chance(0.8) ? ids() : queryValue()}`];
  if (chance(0.3)) parts.push(`${pick(['position', 'printFormat', 'size', ...PROTO_KEYS])}=${queryValue()}`);
  return parts.join('&');
}
function searchQuery(): string {
  const keys = [
    'deliveryId',
    'agent',
    'value',
    'value[]',
    'packages.weight',
    'recipient[surname]',
    'created',
    'closed',
    'ticketNote',
    'fields',
    'externalId',
    ...PROTO_KEYS,
    'x[y][z]',
    '%5B%5D',
    '=',
    '',
  ];
  return Array.from({ length: 1 + int(3) }, () => {
    const v = chance(0.5)
      ? pick(['>1000', '<2000', '1001,1002', 'NP', '2,5', `>${'9'.repeat(300)}`, '%', '%E0%A4%A', '%ED%A0%80', '>', ''])
      : queryValue();
    return `${encodeURIComponent(pick(keys)).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`;
  }).join('&');
}

const VALID_ITEMS = [items.NP(1), items.PPR(), items.RGX(), items.BOX(), items.SHP()];
function requestBody(): unknown {
  const base = pick([
    () => ({ deliveries: [pick(VALID_ITEMS)] }),
    () => ({ deliveries: [{ ...pick(VALID_ITEMS), deliveryId: 1000 + int(40) }] }),
    () => ({ deliveries: [{ deliveryId: 1000 + int(40), closed: true }] }),
    () => ({ deliveries: [{ deliveryId: 1000 + int(40) }] }),
    () => ({ agent: pick(['NP', 'PPR', 'X']), collectionPlace: 'WH-PRAHA' }),
  ])();
  // A quarter of the bodies stay valid, so some hostile-but-acceptable data gets stored.
  if (chance(0.25)) return base;
  let body: unknown = base;
  for (let i = 0, n = 1 + int(3); i < n; i++) body = mutate(body);
  return body;
}

const CHECK_OPENAPI = process.env.SANDBOX_OPENAPI_CHECK !== '0';

let sb: Sandbox;
let token: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });

const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  rawRequest(sb.url + path, method, headers, body, agent);

/** The answer must be a well-formed envelope in the requested format. */
function parsesAs(fmt: Fmt, text: string): boolean {
  try {
    if (fmt === 'xml' && XMLValidator.validate(text) !== true) return false;
    const body = decodeResponse(fmt, text);
    return body !== null && typeof body === 'object' && body.code !== undefined && body.status !== undefined;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  console.log(`sandbox fuzz: seed ${SEED}, ${REQUESTS} requests (replay with SANDBOX_FUZZ_SEED=${SEED})`);
  sb = await start({ onError: () => {} });
  token = await tokenFor(sb);
});
afterAll(async () => {
  agent.destroy();
  await sb.close();
});

test(`Fuzz: ${REQUESTS} hostile requests over every API route and the three formats: no 5xx, every answer parses in the requested format`, async () => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < REQUESTS && failures.length < 20) {
      const n = next++;
      const route = pick(ROUTES);
      const fmt = pick(FORMATS);
      const headers: Record<string, string> = {
        accept: chance(0.95) ? MEDIA[fmt] : pick([`${MEDIA[fmt]};q=0.9, */*;q=0.1`, MEDIA[fmt].toUpperCase()]),
        authorization: `Bearer ${token}`,
      };
      if (chance(0.1)) headers['accept-language'] = 'cs';
      if (chance(0.05)) headers['if-match'] = pick(['*', '"x"', 'W/"y"', '"', '']);
      if (route.path === '/api/v3/transports' && route.method === 'POST') headers['x-http-method-override'] = 'GET';
      let body: string | undefined;
      if (route.body) {
        const bodyFmt = chance(0.8) ? fmt : pick(FORMATS);
        body = chance(0.15) ? garbageBody(bodyFmt) : encode(bodyFmt, requestBody());
        headers['content-type'] = chance(0.97)
          ? MEDIA[bodyFmt]
          : pick(['text/plain', 'application/json; charset=latin1', 'constructor', '']);
      }
      const query = route.query ? `?${route.query()}` : '';
      const r = await send(route.method, route.path + query, headers, body);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      const what = `#${n} ${route.method} ${route.path}${query.slice(0, 200)} [${fmt}] body=${JSON.stringify((body ?? '').slice(0, 300))}`;
      if (r.status >= 500) failures.push(`${what} -> ${r.status} ${r.text.slice(0, 300)}`);
      else if (
        r.status !== 304 &&
        r.status !== 414 &&
        r.status !== 406 &&
        r.status !== 415 &&
        !(r.contentType.startsWith(MEDIA[fmt]) && parsesAs(fmt, r.text))
      ) {
        if (!(r.status === 406 || headers['content-type'] === 'constructor'))
          failures.push(`${what} -> ${r.status} unparsable ${r.contentType}: ${r.text.slice(0, 300)}`);
      }
      // Every answer is an API answer here (Node's own 400/431 never come: the requests are well
      // formed): it conforms to the OpenAPI description, status, media type and body.
      // SANDBOX_OPENAPI_CHECK=0 turns it off, as for support.ts's api().
      const problems = !CHECK_OPENAPI
        ? []
        : openApiProblems({
            method: route.method,
            url: route.path + query,
            status: r.status,
            contentType: r.contentType,
            text: r.text,
          });
      if (problems.length > 0) failures.push(`${what} -> does not conform: ${problems.join('; ').slice(0, 600)}`);
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  console.log(`sandbox fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  expect(failures, `seed ${SEED}`).toEqual([]);

  // Whatever was accepted stays readable in every format: page through all shipments.
  for (const fmt of FORMATS) {
    let after = 0;
    for (let page = 0; page < 100; page++) {
      const r = await send('GET', `/api/v3/deliveries?deliveryId=>${after}`, {
        accept: MEDIA[fmt],
        authorization: `Bearer ${token}`,
      });
      if (r.status === 404) break;
      expect(r.status, `seed ${SEED}, ${fmt} page after ${after}: ${r.text.slice(0, 300)}`).toBe(200);
      expect(parsesAs(fmt, r.text), `seed ${SEED}, ${fmt}: ${r.text.slice(0, 300)}`).toBe(true);
      const data = decodeResponse(fmt, r.text).data as Array<{ deliveryId: string | number }>;
      after = Math.max(...data.map((d) => Number(d.deliveryId)));
    }
  }
  // ~30-40 s alone; checking every answer against the description adds about a fifth, and beside
  // the rest of the suite on two loaded cores the whole took over 120 s.
}, 240_000);
