/**
 * The OpenAPI 3.1 description of the sandbox (sandbox/openapi/) is a valid
 * OpenAPI 3.1 document, is served at /openapi.yaml and /openapi.json, names every resource of the
 * spec's resource index with its scope, and real answers of the sandbox in all three formats
 * conform to it. support.ts checks every answer `api()` and `tokenRequest()` receive, in this file
 * and in every other sandbox test, through openapiCheck.ts; the tests here make sure each
 * operation, format and error status is exercised at least once.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chromiumPath, needs } from '../../test/support/services';
import type { Sandbox } from '../index';
import { OPENAPI_FILE, openApiProblems } from './openapiCheck';
import {
  admin,
  api,
  checkAnswersAgainstOpenApi,
  FORMATS,
  num,
  rawRequest,
  start,
  tokenFor,
  tokenRequest,
  type Fmt,
} from './support';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  checkAnswersAgainstOpenApi();
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const repoDoc = () => parse(readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, any>;

describe('the description', () => {
  it('OpenAPI: the description in the repository is a valid OpenAPI 3.1 document whose $refs all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(repoDoc());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref points at something that exists.
    const doc = repoDoc();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('OpenAPI: GET /openapi.yaml and /openapi.json serve it with their content types, servers and OAuth URLs naming this sandbox, no auth', async () => {
    const yamlRes = await fetch(`${sb.url}/openapi.yaml`);
    expect(yamlRes.status).toBe(200);
    expect(yamlRes.headers.get('content-type')).toBe('application/yaml; charset=UTF-8');
    const fromYaml = parse(await yamlRes.text());
    const jsonRes = await fetch(`${sb.url}/openapi.json`);
    expect(jsonRes.status).toBe(200);
    expect(jsonRes.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const fromJson = (await jsonRes.json()) as Record<string, any>;
    expect(fromYaml).toEqual(fromJson);
    expect(fromJson.servers).toEqual([{ url: sb.url, description: 'This sandbox' }]);
    const flow = fromJson.components.securitySchemes.oauth2.flows.authorizationCode;
    expect([flow.authorizationUrl, flow.tokenUrl, flow.refreshUrl]).toEqual([
      `${sb.url}/connect/authorize/`,
      `${sb.url}/connect/token/`,
      `${sb.url}/connect/token/`,
    ]);
    // Apart from those addresses, the served document is the repository's.
    const repo = repoDoc();
    repo.servers = fromJson.servers;
    repo.components.securitySchemes.oauth2.flows.authorizationCode = flow;
    expect(fromJson).toEqual(repo);
    expect((await new Validator().validate(fromJson)).valid).toBe(true);
  });

  it("OpenAPI: every path and method of the spec's resource index is described with its scope, and OAuth with the four scopes", () => {
    const doc = repoDoc();
    // Spec "Resource index" (path, scope, methods) - written out here, not read from the sandbox.
    const index: Array<[string, string | null, string[]]> = [
      ['/api/', null, ['get']],
      ['/api/v3/deliveries', 'deliveries', ['post', 'get', 'patch', 'put', 'delete']],
      ['/api/v3/transports', 'transports', ['get']],
      ['/api/v3/deliveries/tickets', 'deliveries', ['get']],
      ['/api/v3/deliveries/zpl', 'deliveries', ['get']],
      ['/api/v3/deliveries/traces', 'deliveries', ['get']],
      ['/api/v2/collection-protocols', 'collection-protocols', ['post', 'get']],
      ['/api/v2/collection-places', 'collection-places', ['get']],
    ];
    for (const [path, scope, methods] of index) {
      for (const m of methods) {
        const op = doc.paths[path]?.[m];
        expect(op, `${m} ${path}`).toBeDefined();
        expect(op.security, `${m} ${path}`).toEqual(scope ? [{ oauth2: [scope] }] : []);
        // Spec "Common conventions" 1: every answer in the three formats.
        const ok = Object.entries(op.responses).find(([code]) => code.startsWith('2'))![1] as any;
        const content = ok.content ?? {};
        expect(Object.keys(content).sort(), `${m} ${path}`).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
          'application/xml',
        ]);
      }
    }
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe('/connect/authorize/');
    expect(flow.tokenUrl).toBe('/connect/token/');
    expect(Object.keys(flow.scopes).sort()).toEqual([
      'collection-places',
      'collection-protocols',
      'deliveries',
      'transports',
    ]);
    expect(doc.paths['/connect/authorize/'].get).toBeDefined();
    expect(doc.paths['/connect/token/'].post).toBeDefined();
  });

  it('OpenAPI: the check catches answers that do not conform (wrong types, missing envelope keys, an undescribed status)', () => {
    const ok = (text: string, contentType = 'application/json; charset=UTF-8', status = 200) =>
      openApiProblems({ method: 'GET', url: '/api/v2/collection-places', status, contentType, text });
    const place = {
      identificator: 'WH',
      name: 'n',
      email: 'e',
      phone: 'p',
      contactPerson: 'c',
      state: 'CZ',
      city: 'c',
      street: 's',
      postalCode: '11000',
    };
    const good = { code: 200, status: 'success', message: 'm', data: [place] };
    expect(ok(JSON.stringify(good))).toEqual([]);
    expect(ok(JSON.stringify({ ...good, code: '200' }))).not.toEqual([]);
    expect(ok(JSON.stringify({ status: 'success', message: 'm', data: [place] }))).not.toEqual([]);
    expect(ok(JSON.stringify({ ...good, data: [{ ...place, postalCode: 11000 }] }))).not.toEqual([]);
    expect(ok(JSON.stringify(good), 'text/html')).not.toEqual([]);
    expect(ok(JSON.stringify({ code: 409, status: 'error', message: 'm' }), undefined, 409)).not.toEqual([]);
    // XML: a decimal point where the spec writes a decimal comma is not a number.
    const trace = (weight: string) =>
      openApiProblems({
        method: 'GET',
        url: '/api/v3/deliveries?deliveryId=1',
        status: 200,
        contentType: 'application/xml; charset=UTF-8',
        text: `<root><code>200</code><status>success</status><message>m</message><data><deliveryId>1</deliveryId><packages><weight>${weight}</weight></packages></data></root>`,
      });
    expect(trace('2,3')).toEqual([]);
    expect(trace('2.3')).not.toEqual([]);
  });
});

let serial = 0;
function npItem(): Record<string, unknown> {
  serial += 1;
  return {
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    value: '1500.5',
    valueCurrency: 'CZK',
    cod: 200,
    codCurrency: 'CZK',
    variableSymbol: '42',
    externalId: `OAS-${serial}`,
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      firstname: 'Jana',
      surname: 'Nováková',
      phone: '+420 601 234 567',
      email: 'jana@example.cz',
      address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
    },
    packages: [{ weight: '2,3' }, { weight: 1 }],
    extraServices: [{ code: 'email_advice_unload', arguments: { email: 'jana@example.cz' } }],
    ticketNote: 'Křehké',
  };
}

const transportQuery = {
  deliveries: [
    {
      value: 1000,
      valueCurrency: 'CZK',
      sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
      recipient: {
        type: 'address',
        address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
      },
      packages: [{ weight: 2, length: 30, width: 20, height: 10 }],
    },
  ],
};

describe('real answers conform to the description', () => {
  it.each(FORMATS)(
    'OpenAPI: the whole lifecycle answers as described (%s): insert, list, get, edit, close, labels, ZPL, traces, protocol, places, transports, cancel',
    async (fmt: Fmt) => {
      const call = (method: string, path: string, body?: Record<string, unknown>, headers?: Record<string, string>) =>
        api(sb, method, path, { fmt, token, body, headers });
      expect((await call('GET', '/api/')).status).toBe(200);

      const inserted = await call('POST', '/api/v3/deliveries', { deliveries: [npItem(), npItem()] });
      expect(inserted.status).toBe(201);
      const [a, b] = inserted.body.data.map((d: { deliveryId: unknown }) => num(d.deliveryId)) as number[];

      const list = await call('GET', `/api/v3/deliveries?deliveryId=${a},${b}`);
      expect(list.status).toBe(200);
      const etag = list.headers.get('etag')!;
      expect(
        (await call('GET', `/api/v3/deliveries?deliveryId=${a},${b}`, undefined, { 'if-none-match': etag })).status,
      ).toBe(304);
      expect(
        (await call('GET', `/api/v3/deliveries?deliveryId=${a}&fields=deliveryId,packages,recipient`)).status,
      ).toBe(200);
      expect((await call('GET', '/api/v3/deliveries?agent=NP&deliveryState=0')).status).toBe(200);

      const one = await call('GET', `/api/v3/deliveries?deliveryId=${b}`);
      const edited = await call(
        'PUT',
        '/api/v3/deliveries',
        { deliveries: [{ ...npItem(), deliveryId: b, ticketNote: 'upraveno' }] },
        { 'if-match': one.headers.get('etag')! },
      );
      expect(edited.status).toBe(200);

      const closed = await call('PATCH', '/api/v3/deliveries', { deliveries: [{ deliveryId: a, closed: true }] });
      expect(closed.status).toBe(200);
      expect((await call('GET', `/api/v3/deliveries/tickets?deliveryId=${a}&position=2`)).status).toBe(200);
      expect((await call('GET', `/api/v3/deliveries/zpl?deliveryId=${a}`)).status).toBe(200);
      expect((await call('GET', `/api/v3/deliveries/traces?deliveryId=${a}`)).status).toBe(200);

      const protocol = await call('POST', '/api/v2/collection-protocols', { agent: 'NP', collectionPlace: 'WH-PRAHA' });
      expect(protocol.status).toBe(201);
      const protocolId = num([protocol.body.data].flat()[0].collectionProtocolId); // XML: support reads data as a list
      expect((await call('GET', `/api/v2/collection-protocols?collectionProtocolId=${protocolId}`)).status).toBe(200);
      expect((await call('GET', '/api/v2/collection-places')).status).toBe(200);
      expect(
        (await call('POST', '/api/v3/transports', transportQuery, { 'x-http-method-override': 'GET' })).status,
      ).toBe(200);

      expect((await call('DELETE', '/api/v3/deliveries', { deliveries: [{ deliveryId: b }] })).status).toBe(200);
    },
  );

  it.each(FORMATS)(
    'OpenAPI: error answers are the described error envelope (%s): 401, 403, 404, 412, 415, 422, 400, 405, 414',
    async (fmt: Fmt) => {
      const call = (
        method: string,
        path: string,
        o: { body?: Record<string, unknown>; headers?: Record<string, string>; token?: string } = {},
      ) => api(sb, method, path, { fmt, token: o.token ?? token, body: o.body, headers: o.headers });
      expect((await call('GET', '/api/v3/deliveries?deliveryId=1001', { token: 'x'.repeat(40) })).status).toBe(401);
      expect((await api(sb, 'GET', '/api/v2/collection-places', { fmt })).status).toBe(401);
      const placesOnly = await tokenFor(sb, sb.demo.username, 'collection-places');
      expect((await call('GET', '/api/v3/deliveries?deliveryId=1001', { token: placesOnly })).status).toBe(403);
      expect((await call('GET', '/api/v3/deliveries?deliveryId=1020')).status).toBe(404);
      expect((await call('GET', '/api/v3/deliveries/traces?deliveryId=999999')).status).toBe(404);
      expect((await call('GET', '/api/v2/collection-protocols?collectionProtocolId=999999')).status).toBe(404);
      expect(
        (await call('PATCH', '/api/v3/deliveries', { body: { deliveries: [{ deliveryId: 1020, closed: true }] } }))
          .status,
      ).toBe(403);
      const [id] = (await call('POST', '/api/v3/deliveries', { body: { deliveries: [npItem()] } })).body.data.map(
        (d: { deliveryId: unknown }) => num(d.deliveryId),
      );
      expect(
        (
          await call('PUT', '/api/v3/deliveries', {
            body: { deliveries: [{ ...npItem(), deliveryId: id }] },
            headers: { 'if-match': '"stale"' },
          })
        ).status,
      ).toBe(412);
      expect((await call('POST', '/api/v3/deliveries', { body: { deliveries: [{ agent: 'NOPE' }] } })).status).toBe(
        422,
      );
      expect((await call('GET', `/api/v3/deliveries/tickets?deliveryId=${id}`)).status).toBe(422);
      expect((await call('POST', '/api/v2/collection-protocols', { body: { nothing: 'here' } })).status).toBe(422);
      expect(
        (await call('DELETE', '/api/v3/deliveries', { body: { deliveries: [{ deliveryId: 999999 }] } })).status,
      ).toBe(422);
      const raw = await fetch(`${sb.url}/api/v3/deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: contentTypes[fmt], 'content-type': contentTypes[fmt] },
        body: fmt === 'json' ? '{"deliveries": [' : fmt === 'xml' ? '<root><deliveries>' : 'a[b]]]=1&a[=2',
      });
      const rawText = await raw.text();
      expect(
        openApiProblems({
          method: 'POST',
          url: '/api/v3/deliveries',
          status: raw.status,
          contentType: raw.headers.get('content-type'),
          text: rawText,
        }),
      ).toEqual([]);
      expect([400, 422]).toContain(raw.status);
      expect(
        (
          await call('POST', '/api/v3/deliveries', {
            headers: { 'content-type': 'text/csv' },
            body: { deliveries: [{ deliveryId: 1 }] },
          })
        ).status,
      ).toBe(415);
      expect((await call('POST', '/api/v3/transports', { body: transportQuery })).status).toBe(405);
      expect((await call('GET', `/api/v3/deliveries?deliveryId=${'1,'.repeat(5000)}1`)).status).toBe(414);
      expect((await call('GET', '/api/v3/nothing-here')).status).toBe(404);
    },
  );

  it('OpenAPI: 406 for an unsupported Accept is the described JSON error envelope', async () => {
    const r = await api(sb, 'GET', '/api/', { headers: { accept: 'text/csv' } });
    expect(r.status).toBe(406);
  });

  it('OpenAPI: the token endpoint answers as described (tokens, RFC 6749 errors)', async () => {
    const bad = await tokenRequest(sb, { grant_type: 'password', username: 'demo', password: 'x' });
    expect(bad.status).toBe(400);
    const noClient = await tokenRequest(sb, { grant_type: 'authorization_code', code: 'x' }, { auth: null });
    expect(noClient.status).toBe(401);
    const t = await admin(sb, 'tokens', { clientId: sb.demo.clientId, username: 'demo', scope: 'deliveries' });
    const refreshed = await tokenRequest(sb, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(refreshed.status).toBe(200);
  });
});

const contentTypes: Record<Fmt, string> = {
  json: 'application/json',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
};

describe('requests the description forbids', () => {
  type Op = { path: string; method: string; op: Record<string, any> };
  const doc = repoDoc();
  const deref = (s: Record<string, any>): Record<string, any> =>
    typeof s.$ref === 'string'
      ? deref(
          s.$ref
            .replace(/^#\//, '')
            .split('/')
            .reduce<any>((o, k) => o?.[k], doc),
        )
      : s;
  /** The required keys of a schema, through allOf. */
  const requiredOf = (s: Record<string, any>): string[] => {
    const d = deref(s);
    return [...(d.required ?? []), ...((d.allOf ?? []) as Record<string, any>[]).flatMap(requiredOf)];
  };
  const apiOps: Op[] = Object.entries(doc.paths as Record<string, Record<string, any>>)
    .filter(([path]) => path.startsWith('/api/v'))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );

  /** A request each operation accepts; the cases below break one rule of the description at a time. */
  async function validRequest(
    o: Op,
  ): Promise<{ query: Record<string, string>; body?: Record<string, unknown>; headers: Record<string, string> }> {
    const ins = await api(sb, 'POST', '/api/v3/deliveries', { token, body: { deliveries: [npItem()] } });
    const id = num(ins.body.data[0].deliveryId);
    const key = `${o.method} ${o.path}`;
    const headers: Record<string, string> =
      key === 'POST /api/v3/transports' ? { 'x-http-method-override': 'GET' } : {};
    if (
      ['GET /api/v3/deliveries/tickets', 'GET /api/v3/deliveries/zpl', 'GET /api/v3/deliveries/traces'].includes(key)
    ) {
      await api(sb, 'PATCH', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: id, closed: true }] } });
      return { query: { deliveryId: String(id) }, headers };
    }
    if (key === 'POST /api/v2/collection-protocols' || key === 'GET /api/v2/collection-protocols') {
      // A protocol needs a closed, unsent NP shipment from WH-PRAHA that has none yet.
      await api(sb, 'PATCH', '/api/v3/deliveries', { token, body: { deliveries: [{ deliveryId: id, closed: true }] } });
      if (key === 'GET /api/v2/collection-protocols') {
        const made = await api(sb, 'POST', '/api/v2/collection-protocols', {
          token,
          body: { agent: 'NP', collectionPlace: 'WH-PRAHA' },
        });
        return { query: { collectionProtocolId: String(num(made.body.data.collectionProtocolId)) }, headers };
      }
    }
    const bodies: Record<string, Record<string, unknown>> = {
      'POST /api/v3/deliveries': { deliveries: [npItem()] },
      'PUT /api/v3/deliveries': { deliveries: [{ ...npItem(), deliveryId: id }] },
      'PATCH /api/v3/deliveries': { deliveries: [{ deliveryId: id, closed: true }] },
      'DELETE /api/v3/deliveries': { deliveries: [{ deliveryId: id }] },
      'GET /api/v3/transports': transportQuery,
      'POST /api/v3/transports': transportQuery,
      'POST /api/v2/collection-protocols': { agent: 'NP', collectionPlace: 'WH-PRAHA' },
    };
    return {
      query: key === 'GET /api/v3/deliveries' ? { deliveryId: String(id) } : {},
      body: structuredClone(bodies[key]),
      headers,
    };
  }

  /** fetch cannot send a body with GET (GET /api/v3/transports): node:http can, and the answer is checked here. */
  async function send(
    o: Op,
    r: { query: Record<string, string>; body?: Record<string, unknown>; headers: Record<string, string> },
    tok: string | undefined = token,
  ): Promise<{ status: number; text: string }> {
    const url = `${o.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query).toString()}` : ''}`;
    if (o.method !== 'GET' || !r.body) return api(sb, o.method, url, { token: tok, body: r.body, headers: r.headers });
    const res = await rawRequest(
      sb.url + url,
      'GET',
      {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(tok ? { authorization: `Bearer ${tok}` } : {}),
        ...r.headers,
      },
      JSON.stringify(r.body),
    );
    expect(
      openApiProblems({ method: 'GET', url, status: res.status, contentType: res.contentType, text: res.text }),
    ).toEqual([]);
    return res;
  }

  it('OpenAPI: each operation accepts the valid request these cases start from (so a refusal below is the broken rule)', async () => {
    for (const o of apiOps) {
      const r = await send(o, await validRequest(o));
      expect(r.status, `${o.method} ${o.path}: ${r.text.slice(0, 200)}`).toBeLessThan(300);
    }
  });

  it('OpenAPI: the sandbox refuses what the description forbids: no token (401), another scope (403), a missing required parameter, a value outside an enum or range, a missing required body key', async () => {
    const otherScope = await tokenFor(sb, sb.demo.username, 'collection-places');
    const refusals: string[] = [];
    const expectRefused = async (
      o: Op,
      what: string,
      r: Awaited<ReturnType<typeof validRequest>>,
      status?: number,
      tok?: string,
    ) => {
      const res = await send(o, r, tok);
      refusals.push(`${o.method} ${o.path} ${what}: ${res.status}`);
      if (status) expect(res.status, `${o.method} ${o.path} ${what}`).toBe(status);
      else expect(res.status, `${o.method} ${o.path} ${what}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    };
    for (const o of apiOps) {
      const scopes = (o.op.security as Array<{ oauth2?: string[] }>)[0]?.oauth2;
      if (scopes) {
        await expectRefused(o, 'without a token', await validRequest(o), 401, '');
        if (!scopes.includes('collection-places'))
          await expectRefused(o, 'with another scope', await validRequest(o), 403, otherScope);
      }
      for (const p of (o.op.parameters ?? []).map(deref) as Array<Record<string, any>>) {
        const schema = deref(p.schema ?? {});
        if (p.in === 'query' && p.required) {
          const r = await validRequest(o);
          delete r.query[p.name];
          await expectRefused(o, `without ${p.name}`, r);
        }
        if (p.in === 'query' && (schema.enum || schema.maximum !== undefined || schema.pattern)) {
          const bad = schema.enum
            ? ['not-a-listed-value']
            : schema.maximum !== undefined
              ? [String(schema.maximum + 1), String(schema.minimum - 1)]
              : ['x'];
          for (const value of bad) {
            const r = await validRequest(o);
            r.query[p.name] = value;
            await expectRefused(o, `${p.name}=${value}`, r);
          }
        }
        if (p.in === 'header' && p.required && schema.const) {
          const r = await validRequest(o);
          r.headers[p.name.toLowerCase()] = 'PUT';
          await expectRefused(o, `${p.name}: PUT`, r);
        }
      }
      const bodySchema = o.op.requestBody ? deref(deref(o.op.requestBody).content['application/json'].schema) : null;
      if (bodySchema) {
        for (const key of requiredOf(bodySchema)) {
          const r = await validRequest(o);
          delete r.body![key];
          await expectRefused(o, `body without ${key}`, r);
        }
        const itemSchema = bodySchema.properties?.deliveries?.items;
        if (itemSchema) {
          for (const key of requiredOf(itemSchema)) {
            const r = await validRequest(o);
            const item = { ...(r.body!.deliveries as Record<string, unknown>[])[0] };
            delete item[key];
            r.body = { deliveries: [item] };
            await expectRefused(o, `item without ${key}`, r);
          }
        }
      }
    }
    // The cases above are generated from the description: make sure it generated the ones we know of.
    expect(refusals.length).toBeGreaterThan(40);
    expect(refusals.some((r) => r.startsWith('GET /api/v3/deliveries/tickets position=5'))).toBe(true);
    expect(refusals.some((r) => r.startsWith('PUT /api/v3/deliveries item without deliveryId'))).toBe(true);
  });
});

describe('reference page', () => {
  it('OpenAPI: GET /reference serves the viewer and its script and styles from the package (no CDN), linked from the root page', async () => {
    const page = await fetch(`${sb.url}/reference`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const html = await page.text();
    const srcs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.length).toBeGreaterThanOrEqual(3);
    for (const src of srcs) {
      expect(src.startsWith('/reference/'), src).toBe(true);
      const res = await fetch(sb.url + src);
      expect(res.status, src).toBe(200);
      expect(res.headers.get('content-type'), src).toMatch(/^text\/(css|javascript); charset=UTF-8$/);
    }
    const root = await (await fetch(`${sb.url}/`)).text();
    expect(root).toContain('href="/reference"');
    expect(root).toContain('href="/openapi.yaml"');
  });

  it.skipIf(!needs('chromium'))(
    'OpenAPI: the reference page renders every operation in Chromium, loading nothing from other hosts (screenshots test-results/sandbox/reference-{en,cs}.png)',
    async () => {
      const browser = await chromium.launch({
        executablePath: chromiumPath()!,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        for (const lang of ['en', 'cs']) {
          const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, locale: lang });
          const elsewhere: string[] = [];
          page.on('request', (req) => {
            if (!req.url().startsWith(sb.url) && !req.url().startsWith('data:')) elsewhere.push(req.url());
          });
          await page.goto(`${sb.url}/reference`);
          await page.waitForSelector('.opblock');
          const summaries = await page.locator('.opblock-summary-path').allInnerTexts();
          const shown = new Set(summaries.map((s) => s.replace(/\u200b/g, '').trim()));
          for (const p of [
            '/api/',
            '/api/v3/deliveries',
            '/api/v3/transports',
            '/api/v3/deliveries/tickets',
            '/api/v3/deliveries/zpl',
            '/api/v3/deliveries/traces',
            '/api/v2/collection-protocols',
            '/api/v2/collection-places',
            '/connect/token/',
          ])
            expect(shown, p).toContain(p);
          expect(elsewhere).toEqual([]);
          const dir = path.resolve(__dirname, '../../test-results/sandbox');
          mkdirSync(dir, { recursive: true });
          await page.screenshot({ path: path.join(dir, `reference-${lang}.png`) });
          await page.close();
        }
      } finally {
        await browser.close();
      }
    },
  );
});
