/**
 * The eight hostile requests of the robustness issue, one regression test each: every one is a
 * 4xx in the requested format (or, for the reordered PUT, a 200), never a 500.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../index';
import { MAX_BODY_BYTES, MAX_FORM_PAIRS, MAX_XML_TAGS } from '../http/limits';
import { api, decodeResponse, FORMATS, MEDIA, rawRequest, start, tokenFor, type Fmt } from './support';
import { items } from './shipments';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

async function raw(method: string, path: string, fmt: Fmt, body?: string, contentType = MEDIA[fmt]) {
  const headers: Record<string, string> = { accept: MEDIA[fmt], authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await rawRequest(sb.url + path, method, headers, body);
  expect(res.contentType, res.text.slice(0, 200)).toContain(MEDIA[fmt]);
  return { status: res.status, body: decodeResponse(fmt, res.text), text: res.text };
}

describe('Hostile input 1: query keys named like Object.prototype members', () => {
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    test.each(FORMATS)(`GET /api/v3/deliveries?${key}=... is a 422 naming the key (%s)`, async (fmt) => {
      const r = await raw('GET', `/api/v3/deliveries?${key}=${key === 'valueOf' ? '%3E1' : '1'}`, fmt);
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe(key);
    });
  }
});

describe('Hostile input 2: XML the parser itself refuses', () => {
  const bodies: Record<string, string> = {
    'external entity':
      '<?xml version="1.0"?><!DOCTYPE root [<!ENTITY x SYSTEM "file:///etc/passwd">]><root><deliveries><ticketNote>&x;</ticketNote></deliveries></root>',
    'parameter entity': '<!DOCTYPE root [<!ENTITY % p "x"> %p;]><root/>',
    'PUBLIC entity': '<!DOCTYPE root [<!ENTITY x PUBLIC "-//X//Y" "http://127.0.0.1:1/x">]><root>&x;</root>',
    'deep nesting': `<root>${'<a>'.repeat(300)}1${'</a>'.repeat(300)}</root>`,
    '__proto__ element': '<root><deliveries><__proto__><polluted>1</polluted></__proto__></deliveries></root>',
    'constructor element': '<root><deliveries><constructor><prototype>1</prototype></constructor></deliveries></root>',
    'prototype element': '<root><prototype>1</prototype></root>',
  };
  for (const [name, body] of Object.entries(bodies)) {
    test(`${name}: a 4xx in XML on every XML body route`, async () => {
      for (const [method, path] of [
        ['POST', '/api/v3/deliveries'],
        ['PUT', '/api/v3/deliveries'],
        ['PATCH', '/api/v3/deliveries'],
        ['DELETE', '/api/v3/deliveries'],
        ['GET', '/api/v3/transports'],
        ['POST', '/api/v2/collection-protocols'],
      ] as const) {
        const r = await raw(method, path, 'xml', body);
        expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body.code).toBe(String(r.status));
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

describe('Hostile input 3: a JSON field nested 10,000 levels deep', () => {
  test.each(FORMATS)('is a 422 in %s, the echo bounded', async (fmt) => {
    const deep = `{"deliveries":[{"ticketNote":${'['.repeat(10_000)}1${']'.repeat(10_000)}}]}`;
    const r = await raw('POST', '/api/v3/deliveries', fmt, deep, MEDIA.json);
    expect(r.status).toBe(422);
    expect(r.text.length).toBeLessThan(10_000);
    expect(r.body.errors[0].field).toMatch(/^\[0\]\.ticketNote/);
  });
});

describe('Hostile input 4: a lone UTF-16 surrogate in a string', () => {
  test.each(FORMATS)('is a 422 on the field in %s, and nothing is stored', async (fmt) => {
    const body = JSON.stringify({ deliveries: [{ ...items.PPR(), ticketNote: 'a\ud800b' }] });
    const r = await raw('POST', '/api/v3/deliveries', fmt, body, MEDIA.json);
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe('[0].ticketNote');
    // The demo company's shipments still read in form (the encoder had thrown URIError).
    const all = await raw('GET', '/api/v3/deliveries?agent=PPR', 'form');
    expect(all.status).toBe(200);
  });
});

describe('Hostile input 5: an internal error is written in the requested format', () => {
  test.each(FORMATS)('a 500 answers in %s', async (fmt) => {
    // A router that throws stands for a genuine bug; the encoders never throw on odd values.
    const { encodeBody } = await import('../http/encode');
    expect(() => encodeBody(fmt, { a: 'x\ud800', n: Infinity, big: 1e21 })).not.toThrow();
    const { createSandboxServer } = await import('../http/server');
    const server = createSandboxServer(
      {
        match: () => {
          throw new Error('boom');
        },
      } as never,
      () => 'http://127.0.0.1',
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/v3/deliveries`, { headers: { accept: MEDIA[fmt] } });
    const text = await res.text();
    server.close();
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain(MEDIA[fmt]);
    expect(decodeResponse(fmt, text).code).toBe(fmt === 'json' ? 500 : '500');
  });
});

describe('Hostile input 6: amounts beyond the documented maximum', () => {
  for (const value of [`1${'0'.repeat(400)}`, '123456789012345678901234.55', '100000000']) {
    test.each(FORMATS)(`value ${value.slice(0, 30)} is a 422 in %s, echoed without exponent`, async (fmt) => {
      const body = `{"deliveries":[${JSON.stringify({ ...items.PPR(), value: 1 }).replace('"value":1', `"value":${value}`)}]}`;
      const r = await raw('POST', '/api/v3/deliveries', fmt, body, MEDIA.json);
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe('[0].value');
      expect(r.text).not.toMatch(/e\+|Infinity/);
    });
  }
  test('99999999.99 is accepted and read back exactly in every format', async () => {
    const made = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: { deliveries: [{ ...items.PPR(), value: '99999999.99' }] },
    });
    expect(made.status).toBe(201);
    const id = made.body.data[0].deliveryId;
    expect((await raw('GET', `/api/v3/deliveries?deliveryId=${id}`, 'json')).body.data[0].value).toBe(99999999.99);
    expect((await raw('GET', `/api/v3/deliveries?deliveryId=${id}`, 'xml')).text).toContain(
      '<value>99999999,99</value>',
    );
    expect((await raw('GET', `/api/v3/deliveries?deliveryId=${id}`, 'form')).text).toContain('[value]=99999999%2C99');
  });
});

describe('Hostile input 7: If-Match does not depend on the order of the shipments', () => {
  test.each(FORMATS)('PUT with the GET ETag and the shipments in another order is a 200 (%s)', async (fmt) => {
    const made = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: { deliveries: [items.PPR(), items.PPR(), items.PPR()] },
    });
    const ids: number[] = made.body.data.map((d: { deliveryId: number }) => d.deliveryId);
    const got = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${ids.join(',')}`, { token });
    const etag = got.headers.get('etag')!;
    const reversed = [...ids].reverse().map((deliveryId) => ({ ...items.PPR(), deliveryId }));
    const put = await api(sb, 'PUT', '/api/v3/deliveries', {
      fmt,
      token,
      body: { deliveries: reversed },
      headers: { 'if-match': etag },
    });
    expect(put.status, put.text).toBe(200);
    // The data changed now: the old tag fails whatever the order.
    const again = await api(sb, 'PUT', '/api/v3/deliveries', {
      fmt,
      token,
      body: { deliveries: reversed },
      headers: { 'if-match': etag },
    });
    expect(again.status).toBe(412);
  });
});

describe('Hostile input 8: huge bodies are refused before they are parsed', () => {
  test('a 10 MB form body with 400,000 bracket pairs is a 413 in form, and another request is answered', async () => {
    const huge = Array.from({ length: 400_000 }, (_, i) => `a[${i}]=1`)
      .join('&')
      .padEnd(10 * 1024 * 1024, 'x');
    const [r, other] = await Promise.all([raw('POST', '/api/v3/deliveries', 'form', huge), fetch(`${sb.url}/api/`)]);
    expect(r.status).toBe(413);
    expect(other.status).toBe(200);
  });
  test('1.4 MB of form with 50,000 pairs is a 413 (over the body limit); 50,000 pairs under it are a 413 too, before qs runs', async () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `deliveries[${i}][x]=1`).join('&');
    expect(body.length).toBeGreaterThan(MAX_BODY_BYTES);
    expect((await raw('PATCH', '/api/v3/deliveries', 'form', body)).status).toBe(413);
    const short = Array.from({ length: MAX_FORM_PAIRS + 1 }, () => 'a=1').join('&');
    const r = await raw('PATCH', '/api/v3/deliveries', 'form', short);
    expect(r.status).toBe(413);
    expect(r.body.message).toContain(String(MAX_FORM_PAIRS));
  });
  test('10 MB of XML with 240,000 elements is a 413 in XML; many small tags under the size limit are a 413 too', async () => {
    const huge = `<root>${'<deliveries><deliveryId>1</deliveryId></deliveries>'.repeat(240_000)}</root>`;
    expect((await raw('PATCH', '/api/v3/deliveries', 'xml', huge)).status).toBe(413);
    const tags = `<root>${'<a/>'.repeat(MAX_XML_TAGS + 1)}</root>`;
    expect(tags.length).toBeLessThan(MAX_BODY_BYTES);
    const r = await raw('PATCH', '/api/v3/deliveries', 'xml', tags);
    expect(r.status).toBe(413);
  });
});
