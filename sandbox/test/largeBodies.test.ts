/**
 * Large request bodies: bodies past the in-thread bounds of http/decode.ts are decoded
 * in worker threads and handed to the handlers afterwards. What a client sees must not change:
 * the largest inserts each format allows (JSON: 1000 shipments a request; XML and form: as many as
 * their tag and pair limits let through) are stored exactly as sent, and a large body that breaks
 * a rule gets the same answer as a small one. How long the event loop is held is measured in
 * bench/sandboxBodyParse.bench.ts (no timing here).
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DECODE_LIMITS,
  decodeBody,
  IN_THREAD_MAX_CHARS,
  IN_THREAD_MAX_FORM_PAIRS,
  IN_THREAD_MAX_XML_TAGS,
  readWorkerCopy,
} from '../http/decode';
import { decodeRecord } from '../http/decodeCore.mjs';
import { createDecodePool, findDecodeWorker } from '../http/decodePool';
import { MAX_BODY_BYTES, MAX_FORM_PAIRS, MAX_XML_TAGS } from '../http/limits';
import type { Sandbox } from '../index';
import { items } from './shipments';
import { api, encodeRequest, type Fmt, MEDIA, num, rawRequest, start, tokenFor } from './support';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

/** Shipment i, told apart by its note and surname; characters every format must carry intact. */
function shipment(i: number) {
  const s = items.NP(2);
  return {
    ...s,
    ticketNote: `#${i} Křehké & <křehčí> "zboží" 100% ok 📦`,
    recipient: { ...s.recipient, surname: `Nováková-${i}` },
  };
}

/** The most shipments of one insert in each format: JSON 1000 (the spec's limit), XML and form near their tag and pair limits. */
const COUNT: Record<Fmt, number> = { json: 1000, xml: 190, form: 210 };

describe('the largest inserts each format allows', () => {
  it.each(['json', 'xml', 'form'] as Fmt[])(
    '%s: every shipment is stored as sent',
    async (fmt) => {
      const deliveries = Array.from({ length: COUNT[fmt] }, (_, i) => shipment(i));
      const body = encodeRequest(fmt, { deliveries });
      // Large enough for the worker threads, small enough for the limits.
      expect(body.length).toBeGreaterThan(IN_THREAD_MAX_CHARS);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      if (fmt === 'xml') expect(body.split('<').length - 1).toBeGreaterThan(IN_THREAD_MAX_XML_TAGS);
      if (fmt === 'xml') expect(body.split('<').length - 1).toBeLessThanOrEqual(MAX_XML_TAGS);
      if (fmt === 'form') expect(body.split('&').length).toBeGreaterThan(IN_THREAD_MAX_FORM_PAIRS);
      if (fmt === 'form') expect(body.split('&').length).toBeLessThan(MAX_FORM_PAIRS);

      const r = await api(sb, 'POST', '/api/v3/deliveries', { fmt, token, body: { deliveries } });
      expect(r.status, r.text.slice(0, 300)).toBe(201);
      const stored = r.body.data as any[];
      expect(stored).toHaveLength(COUNT[fmt]);
      stored.forEach((d, i) => {
        expect(d.ticketNote).toBe(`#${i} Křehké & <křehčí> "zboží" 100% ok 📦`);
        expect(d.recipient.surname).toBe(`Nováková-${i}`);
        expect(d.recipient.address.street).toBe('Dlouhá 12');
        expect(d.packages.map((p: any) => num(p.weight))).toEqual([2.3, 1.5]);
        expect(num(d.cod)).toBe(1234.5);
      });
    },
    120_000,
  );

  it('JSON: a lone surrogate in the last shipment of a large body is a 422 naming its field', async () => {
    const deliveries = Array.from({ length: 1000 }, (_, i) => shipment(i));
    deliveries[999]!.ticketNote = 'half an emoji \ud83d';
    const r = await api(sb, 'POST', '/api/v3/deliveries', { token, body: { deliveries } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: '[999].ticketNote' })]);
  }, 60_000);

  it('XML: a large body cut short is a 400 in XML', async () => {
    const body = encodeRequest('xml', { deliveries: Array.from({ length: 150 }, (_, i) => shipment(i)) });
    const r = await rawRequest(
      `${sb.url}/api/v3/deliveries`,
      'POST',
      { authorization: `Bearer ${token}`, accept: MEDIA.xml, 'content-type': MEDIA.xml },
      body.slice(0, -20),
    );
    expect(r.status).toBe(400);
    expect(r.contentType).toBe('application/xml; charset=UTF-8');
    expect(r.text).toContain('<code>400</code>');
  }, 60_000);

  it('form: a large body with a key nested past the bracket limit is a 400 in form', async () => {
    const body = `${encodeRequest('form', { deliveries: Array.from({ length: 150 }, (_, i) => shipment(i)) })}&a[b][c][d][e][f][g][h][i][j]=1`;
    const r = await rawRequest(
      `${sb.url}/api/v3/deliveries`,
      'POST',
      { authorization: `Bearer ${token}`, accept: MEDIA.form, 'content-type': MEDIA.form },
      body,
    );
    expect(r.status).toBe(400);
    expect(r.contentType).toBe('application/x-www-form-urlencoded; charset=UTF-8');
    expect(r.text).toContain('code=400');
  }, 60_000);
});

describe('the decoding worker threads', () => {
  const limits = DECODE_LIMITS;

  it('are found in the repository, and decode each format as the server’s own thread does', async () => {
    expect(findDecodeWorker()).toMatch(/sandbox[\\/]http[\\/]decodeWorker\.mjs$/);
    const pool = createDecodePool()!;
    try {
      for (const fmt of ['json', 'xml', 'form'] as Fmt[]) {
        const text = encodeRequest(fmt, { deliveries: Array.from({ length: 40 }, (_, i) => shipment(i)) });
        const here = decodeRecord(fmt, text, limits);
        const there = await pool.decode(fmt, text, limits);
        expect(here.ok && there.ok).toBe(true);
        if (here.ok && there.ok)
          expect(JSON.parse(JSON.stringify(await readWorkerCopy(there)))).toEqual(
            JSON.parse(JSON.stringify(here.value)),
          );
      }
    } finally {
      await pool.close();
    }
  });

  it('a body whose worker fails is decoded in the server’s thread instead, with the same result', async () => {
    const failures: unknown[] = [];
    const broken = createDecodePool(path.join(os.tmpdir(), 'no-such-folder', 'decodeWorker.mjs'), 1, (err) =>
      failures.push(err),
    )!;
    try {
      const text = encodeRequest('xml', { deliveries: Array.from({ length: 40 }, (_, i) => shipment(i)) });
      const r = await decodeBody('xml', text, broken);
      expect(r.ok).toBe(true);
      if (r.ok) expect((r.value.deliveries as any[])[39].recipient.surname).toBe('Nováková-39');
      expect(failures).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });
});
