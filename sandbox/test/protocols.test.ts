/**
 * Spec "POST /api/v2/collection-protocols", "GET /api/v2/collection-protocols" and "States and
 * transitions" rule 3 over real HTTP; the protocol PDF is read back with pdftotext (poppler, the
 * same package as pdftoppm) and its barcodes scanned the way the courier would (pdftoppm + zbarimg).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../../test/support/services';
import type { Sandbox } from '../index';
import { admin, api, FORMATS, num, start, tokenFor, type Fmt } from './support';
import { closed, expectMimeBase64, insert, items } from './shipments';
import { pdfPagePng, scanPdf } from './scan';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const post = (
  body: Record<string, unknown> | undefined,
  o: { fmt?: Fmt; token?: string; headers?: Record<string, string> } = {},
) => api(sb, 'POST', '/api/v2/collection-protocols', { token, body, ...o });
const get = (query: string, o: { fmt?: Fmt; token?: string } = {}) =>
  api(sb, 'GET', `/api/v2/collection-protocols?${query}`, { token, ...o });

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
}

describe('POST /api/v2/collection-protocols', () => {
  it('Collection protocols: 422 with errors when no closed, unsent shipment of that carrier at that place lacks a protocol', async () => {
    await insert(sb, token, [items.PPR('WH-BRNO')]); // inserted, not closed: does not count
    const r = await post({ agent: 'PPR', collectionPlace: 'WH-BRNO' });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ field: 'collectionPlace', value: 'WH-BRNO' });
  });

  it('Collection protocols: 201 "Collection protocol successfully created!" with Location ?id=, covering exactly the closed unsent shipments of that carrier and place', async () => {
    const covered = await closed(sb, token, [items.NP(2), items.NP(1)]);
    await insert(sb, token, [items.NP()]); // unclosed
    await closed(sb, token, [items.PPR('WH-PRAHA')]); // another carrier at the same place
    const r = await post({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Collection protocol successfully created!');
    const id = r.body.data.collectionProtocolId;
    expect(Number.isInteger(id)).toBe(true);
    expect(r.headers.get('location')).toBe(`${sb.url}/api/v2/collection-protocols?id=${id}`);
    expect(r.body.data).toMatchObject({
      agent: 'NP',
      collectionPlace: 'WH-PRAHA',
      deliveries: covered.map((c) => c.deliveryId),
    });
    expect(r.body.data.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(expectMimeBase64(r.body.data.protocol).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Rule 3: they now have a protocol, so a second request finds nothing.
    const again = await post({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(again.status).toBe(422);
    expect(again.body.errors.length).toBeGreaterThan(0);
  });

  it.skipIf(!needs('pdftoppm'))(
    'Collection protocols: the PDF lists the carrier, the place, every carrier number and package barcode, and the count',
    async () => {
      const covered = await closed(sb, token, [items.RGX(), items.RGX()]);
      const r = await post({ agent: 'RGX', collectionPlace: 'WH-PRAHA' });
      expect(r.status).toBe(201);
      const text = pdfText(expectMimeBase64(r.body.data.protocol));
      expect(text).toContain('RegioExpress');
      expect(text).toContain('WH-PRAHA');
      for (const c of covered) {
        expect(text).toContain(c.deliveryNumber);
        for (const b of c.barcodes) expect(text).toContain(b);
      }
    },
  );

  it.skipIf(!needs('pdftoppm', 'zbarimg'))(
    'Collection protocols: every package barcode on the sheet scans to the package barcodes (pdftoppm + zbarimg)',
    async () => {
      const covered = await closed(sb, token, [items.PPR('WH-BRNO'), items.PPR('WH-BRNO'), items.PPR('WH-BRNO')]);
      const r = await post({ agent: 'PPR', collectionPlace: 'WH-BRNO' });
      expect(r.status).toBe(201);
      const pdf = expectMimeBase64(r.body.data.protocol);
      const results = path.resolve(__dirname, '../../test-results/sandbox');
      mkdirSync(results, { recursive: true });
      writeFileSync(path.join(results, 'protocol-PPR-page1.png'), pdfPagePng(pdf, 1));
      const scanned = scanPdf(pdf, { dpi: 300 }).flat();
      expect([...scanned].sort()).toEqual(covered.flatMap((c) => c.barcodes).sort());
      const text = pdfText(pdf);
      expect(text).toMatch(/Zásilek \/ Shipments: 3/);
      expect(text).toMatch(/Balíků \/ Packages: 3/);
      expect(text).toContain('Převzal (dopravce)');
    },
  );

  it.each(FORMATS)(
    'Collection protocols: nothing to hand over is 422 with errors naming collectionPlace (%s)',
    async (fmt) => {
      const r = await post({ agent: 'SHP', collectionPlace: 'WH-BRNO' }, { fmt });
      expect(r.status).toBe(422);
      expect(r.body.status).toBe('error');
      expect(r.body.errors[0]).toMatchObject({ field: 'collectionPlace', value: 'WH-BRNO' });
    },
  );

  it.each(FORMATS)('Collection protocols: general misuse is 422 without errors (%s)', async (fmt) => {
    const r = await post({ foo: 1 }, { fmt });
    expect(r.status).toBe(422);
    expect(r.body.status).toBe('error');
    expect(r.body.errors).toBeUndefined();
  });

  it('Common conventions 9: protocol messages in Czech with accept-language: cs', async () => {
    const cs = { headers: { 'accept-language': 'cs' } };
    const none = await post({ agent: 'SHP', collectionPlace: 'WH-BRNO' }, cs);
    expect(none.body.message).toBe(
      'Nejsou žádné uzavřené, neodeslané zásilky dopravce SHP na místě WH-BRNO bez protokolu.',
    );
    expect((await post({ foo: 1 }, cs)).body.message).toContain('Tělo musí být objekt');
    await closed(sb, token, [items.RGX()]);
    expect((await post({ agent: 'RGX', collectionPlace: 'WH-PRAHA' }, cs)).body.message).toBe(
      'Svozový protokol byl úspěšně vytvořen!',
    );
    const missing = await api(sb, 'GET', '/api/v2/collection-protocols?collectionProtocolId=999999', {
      token,
      headers: { 'accept-language': 'cs' },
    });
    expect(missing.body.message).toBe('Svozový protokol 999999 neexistuje');
  });

  it.each(FORMATS)('Collection protocols: the request and the answer in %s', async (fmt) => {
    const covered = await closed(sb, token, [items.PPR('WH-BRNO')]);
    const r = await post({ agent: 'PPR', collectionPlace: 'WH-BRNO' }, { fmt });
    expect(r.status, r.text).toBe(201);
    // XML cannot tell one element from a one-element list (the test parser reads <data> as a list).
    const dataOf = (res: typeof r) => (fmt === 'xml' ? res.body.data[0] : res.body.data);
    const data = dataOf(r);
    expect(num(data.collectionProtocolId)).toBeGreaterThan(0);
    expect(data.agent).toBe('PPR');
    expect(data.collectionPlace).toBe('WH-BRNO');
    expect([data.deliveries].flat().map(num)).toEqual(covered.map((c) => c.deliveryId));
    expect(expectMimeBase64(data.protocol).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.headers.get('location')).toBe(
      `${sb.url}/api/v2/collection-protocols?id=${num(data.collectionProtocolId)}`,
    );
    const back = await get(`collectionProtocolId=${num(data.collectionProtocolId)}`, { fmt });
    expect(back.status).toBe(200);
    expect(dataOf(back).protocol).toBe(data.protocol);
  });

  it('Collection protocols: general misuse (no body, a body that does not parse, not an object with agent and collectionPlace) is 422 without errors', async () => {
    for (const body of ['', '{not json', '[]', '{"foo":1}']) {
      const res = await fetch(`${sb.url}/api/v2/collection-protocols`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body || undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      expect(res.status, body).toBe(422);
      expect(json.status).toBe('error');
      expect('errors' in json, body).toBe(false);
    }
  });

  it('Collection protocols: validation errors name the field: unknown carrier, unknown or missing collection place (422 with errors)', async () => {
    const unknownAgent = await post({ agent: 'XX', collectionPlace: 'WH-PRAHA' });
    expect(unknownAgent.status).toBe(422);
    expect(unknownAgent.body.errors).toEqual([expect.objectContaining({ field: 'agent', value: 'XX' })]);
    const unknownPlace = await post({ agent: 'NP', collectionPlace: 'NOWHERE' });
    expect(unknownPlace.body.errors).toEqual([expect.objectContaining({ field: 'collectionPlace', value: 'NOWHERE' })]);
    const missing = await post({ agent: 'NP' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].field).toBe('collectionPlace');
  });

  it('Collection protocols: need the collection-protocols scope', async () => {
    const t = await tokenFor(sb, 'demo', 'deliveries');
    expect((await post({ agent: 'NP', collectionPlace: 'WH-PRAHA' }, { token: t })).status).toBe(403);
  });
});

describe('GET /api/v2/collection-protocols', () => {
  it('Collection protocols: GET by collectionProtocolId answers 200 "Protocol successfully fetched!" with the same record; the Location of POST works too', async () => {
    await closed(sb, token, [items.NP(1)]);
    const created = await post({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(created.status).toBe(201);
    const r = await get(`collectionProtocolId=${created.body.data.collectionProtocolId}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Protocol successfully fetched!');
    expect(r.body.data).toEqual(created.body.data);
    const viaLocation = await fetch(created.headers.get('location')!, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(viaLocation.status).toBe(200);
  });

  it.each(FORMATS)('Collection protocols: GET of an unknown protocol is a 404 error envelope (%s)', async (fmt) => {
    const r = await get('collectionProtocolId=999999', { fmt });
    expect(r.status).toBe(404);
    expect(r.body.status).toBe('error');
    expect(r.body.message).toBe('Collection protocol 999999 does not exist');
  });

  it("Collection protocols: 404 for an unknown protocol, 403 for another company's, 422 without an id", async () => {
    expect((await get('collectionProtocolId=999999')).status).toBe(404);
    expect((await get('')).status).toBe(422);
    // The other company closes its shipments and makes its own protocol.
    const other = await tokenFor(sb, 'other');
    const close = await api(sb, 'PATCH', '/api/v3/deliveries', {
      token: other,
      body: { deliveries: [{ deliveryId: 1020, closed: true }] },
    });
    expect(close.status, close.text).toBe(200);
    const theirs = await post({ agent: 'NP', collectionPlace: 'WH-PRAHA' }, { token: other });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body.data.deliveries).toEqual([1020]);
    const r = await get(`collectionProtocolId=${theirs.body.data.collectionProtocolId}`);
    expect(r.status).toBe(403);
    expect(r.body.status).toBe('error');
  });
});

describe('Collection protocols and the clock', () => {
  it('States and transitions 3: shipments already sent (picked up) are not covered by a new protocol', async () => {
    await closed(sb, token, [items.PPR('WH-PRAHA')]);
    await admin(sb, 'clock/advance', { seconds: 6 * 24 * 3600 });
    token = await tokenFor(sb);
    const r = await post({ agent: 'PPR', collectionPlace: 'WH-PRAHA' });
    expect(r.status).toBe(422);
    expect(r.body.errors.length).toBe(1);
  });
});
