/** Spec "Common conventions" 1-9 and "Errors": formats, the envelope, languages, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDeliveries } from '../domain/index';
import { encodeForm, encodeXml } from '../http/encode';
import type { Sandbox } from '../index';
import { api, FORMATS, MEDIA, num, start, tokenFor } from './support';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const item = (extra: Record<string, unknown> = {}) => ({
  ...(demoDeliveries()[0] as Record<string, unknown>),
  externalId: undefined,
  ...extra,
});

describe('Common conventions 1: Accept picks the format; Content-type has "; charset=UTF-8"', () => {
  it.each(FORMATS)('Common conventions 1: Accept %s answers in that format with "; charset=UTF-8"', async (fmt) => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { fmt, token });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(`${MEDIA[fmt]}; charset=UTF-8`);
    expect(num(r.body.code)).toBe(200);
    expect(r.body.status).toBe('success');
  });

  it('Common conventions 1: no Accept, */* and q-values: JSON by default, the highest q wins', async () => {
    const headers = (accept?: string) => ({ authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) });
    const ct = async (accept?: string) =>
      (await fetch(`${sb.url}/api/v3/deliveries?deliveryId=1001`, { headers: headers(accept) })).headers.get(
        'content-type',
      );
    expect(await ct()).toBe('application/json; charset=UTF-8');
    expect(await ct('*/*')).toBe('application/json; charset=UTF-8');
    expect(await ct('application/json;q=0.5, application/xml')).toBe('application/xml; charset=UTF-8');
    expect(await ct('text/html, application/x-www-form-urlencoded;q=0.9')).toBe(
      'application/x-www-form-urlencoded; charset=UTF-8',
    );
  });

  it('Common conventions 1: an unsupported Accept gets a clear 406 envelope in JSON', async () => {
    const res = await fetch(`${sb.url}/api/v3/deliveries?deliveryId=1001`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/csv' },
    });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ code: 406, status: 'error' });
    expect(body.message).toContain('text/csv');
  });

  it.each(FORMATS)('Common conventions 1: request bodies are accepted in %s', async (fmt) => {
    const r = await api(sb, 'POST', '/api/v3/deliveries', {
      fmt,
      token,
      body: { deliveries: [item({ externalId: `fmt-${fmt}` })] },
    });
    expect(r.status).toBe(201);
    expect(r.body.data[0].externalId).toBe(`fmt-${fmt}`);
  });

  it('Common conventions 1: an unsupported Content-type gets 415 in the requested format', async () => {
    const res = await fetch(`${sb.url}/api/v3/deliveries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/xml', 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    expect(text).toContain('<code>415</code>');
    expect(text).toContain('text/plain');
  });

  it.each([
    ['json', '{"deliveries": [', 'not valid JSON'],
    ['xml', '<root><deliveries><agent>NP</deliveries></root>', 'not valid XML'],
    ['xml', '<other/>', 'root element &lt;root&gt;'],
  ] as const)(
    'Errors: a %s body that does not parse gets 400 with a clear message, never a stack trace',
    async (fmt, body, expected) => {
      const res = await fetch(`${sb.url}/api/v3/deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: MEDIA[fmt], 'content-type': MEDIA[fmt] },
        body,
      });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(text).toContain(expected);
      expect(text).not.toMatch(/at \w+ \(|node:internal|\.ts:\d+/);
    },
  );
});

describe('Common conventions 2-5: envelope, XML, form, decimal comma', () => {
  it('Common conventions 2: the envelope has code, status, message and data; errors only on validation failure', async () => {
    const ok = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token });
    expect(Object.keys(ok.body).sort()).toEqual(['code', 'data', 'message', 'status']);
    const bad = await api(sb, 'POST', '/api/v3/deliveries', { token, body: { deliveries: [item({ agent: 'NOPE' })] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body).sort()).toEqual(['code', 'errors', 'message', 'status']);
    expect(bad.body.errors[0]).toEqual({
      message: expect.any(String),
      field: expect.stringMatching(/^\[0\]/),
      value: expect.anything(),
    });
  });

  it('Common conventions 3: XML has root <root>, arrays as repeated elements, null as an empty element', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001,1002', { fmt: 'xml', token });
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<root><code>200<\/code>/);
    expect(r.text.match(/<data>/g)).toHaveLength(2);
    expect(r.text).toContain('<deliveryNumber/>');
    // Shipment 1002 has three packages: three <packages> elements.
    expect(r.body.data[1].packages).toHaveLength(3);
  });

  it('Common conventions 3-4: true is 1 and false an empty element in XML; form writes true 1, false 0, nested keys in brackets', () => {
    const value = { data: [{ phoneRequired: true, dimensionsRequired: false, items: [], note: null, w: 2.5 }] };
    expect(encodeXml(value)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<root><data><phoneRequired>1</phoneRequired><dimensionsRequired/><items/><note/><w>2,5</w></data></root>',
    );
    expect(encodeForm(value)).toBe(
      'data[0][phoneRequired]=1&data[0][dimensionsRequired]=0&data[0][items]=&data[0][note]=&data[0][w]=2%2C5',
    );
  });

  it('Common conventions 4: form responses use bracket notation (data[0][packages][0][weight])', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1002', { fmt: 'form', token });
    expect(r.text).toContain('data[0][packages][0][weight]=1%2C5');
    expect(r.text).toContain('data[0][packages][2][weight]=7%2C25');
  });

  it('Common conventions 5: decimals have a decimal comma in XML and form, a decimal point (numbers) in JSON', async () => {
    const json = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1002', { token });
    expect(json.body.data[0].value).toBe(4200.5);
    expect(json.body.data[0].cod).toBe(4200.5);
    expect(json.body.data[0].packages[2].weight).toBe(7.25);
    const xml = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1002', { fmt: 'xml', token });
    expect(xml.text).toContain('<value>4200,5</value>');
    expect(xml.text).toContain('<cod>4200,5</cod>');
    expect(xml.text).toContain('<weight>7,25</weight>');
    const form = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1002', { fmt: 'form', token });
    expect(form.body.data[0].value).toBe('4200,5');
  });

  it('Common conventions 5-6: requests accept a decimal comma in weight, and "2.3" equals 2.3', async () => {
    const r = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: { deliveries: [item({ packages: [{ weight: '2,5' }, { weight: '2.3' }, { weight: 4 }], value: '1500' })] },
    });
    expect(r.status).toBe(201);
    expect(r.body.data[0].packages.map((p: { weight: number }) => p.weight)).toEqual([2.5, 2.3, 4]);
    expect(r.body.data[0].value).toBe(1500);
  });

  it('Common conventions 3: a one-element XML list (deliveries, packages, extraServices) is still a list', async () => {
    const body = `<?xml version="1.0" encoding="UTF-8"?><root><deliveries><agent>NP</agent><deliveryType>NP-DOOR</deliveryType><value>100</value><valueCurrency>CZK</valueCurrency>
<sender><type>collectionPlace</type><collectionPlace>WH-PRAHA</collectionPlace></sender>
<recipient><type>address</type><surname>Jedna</surname><email>jedna@example.cz</email><address><street>Dlouhá 1</street><city>Praha</city><postalCode>11000</postalCode><state>CZ</state></address></recipient>
<packages><weight>1,25</weight></packages><extraServices><code>email_advice_unload</code><arguments><email>jedna@example.cz</email></arguments></extraServices></deliveries></root>`;
    const res = await fetch(`${sb.url}/api/v3/deliveries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/xml' },
      body,
    });
    const json = (await res.json()) as any;
    expect(res.status).toBe(201);
    expect(json.data).toHaveLength(1);
    expect(json.data[0].packages).toEqual([expect.objectContaining({ weight: 1.25 })]);
    expect(json.data[0].extraServices[0]).toEqual({
      code: 'email_advice_unload',
      arguments: { email: 'jedna@example.cz' },
    });
  });

  it('Common conventions 7: timestamps are ISO 8601 with a numeric offset', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token });
    expect(r.body.data[0].created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);
  });
});

describe('Common conventions 9: accept-language: cs', () => {
  it('Common conventions 9: messages are in Czech with accept-language: cs, English otherwise', async () => {
    const cs = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', {
      token,
      headers: { 'accept-language': 'cs' },
    });
    expect(cs.body.message).toBe('Zásilky byly úspěšně načteny');
    const bad = await api(sb, 'POST', '/api/v3/deliveries', {
      token,
      body: { deliveries: [item({ agent: 'NOPE' })] },
      headers: { 'accept-language': 'cs-CZ,cs;q=0.9' },
    });
    expect(bad.body.message).toBe('Validace selhala');
    const en = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', {
      token,
      headers: { 'accept-language': 'de' },
    });
    expect(en.body.message).toBe('Deliveries successfully retrieved');
  });

  it('Errors: unknown paths and methods answer 404 / 405 envelopes in the requested format', async () => {
    const r = await api(sb, 'GET', '/api/v3/nothing', { fmt: 'xml', token });
    expect(r.status).toBe(404);
    expect(r.body.status).toBe('error');
    const m = await api(sb, 'POST', '/api/v2/collection-places-nope', { token });
    expect(m.status).toBe(404);
    const method = await fetch(`${sb.url}/api/`, { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET');
  });
});
