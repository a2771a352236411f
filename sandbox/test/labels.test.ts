/**
 * Spec "GET /api/v3/deliveries/tickets" (PDF labels) over real HTTP, checked the way a printer
 * and a scanner would: the PDF from the API rasterised with pdftoppm, barcodes read with zbarimg.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../../test/support/services';
import type { Sandbox } from '../index';
import { api, FORMATS, num, start, tokenFor } from './support';
import { closed, expectMimeBase64, insert, items } from './shipments';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pdfPagePng, pdfPageSizesMm, scanPdf } from './scan';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const tickets = (query: string, o: Parameters<typeof api>[3] = {}) =>
  api(sb, 'GET', `/api/v3/deliveries/tickets?${query}`, { token, ...o });

/** A4 quarters in mm (spec "Label start position": 1 2 / 3 4 in reading order). */
const QUARTER = (q: number) => ({ x: ((q - 1) % 2) * 105, y: Math.floor((q - 1) / 2) * 148.5, w: 105, h: 148.5 });

describe('GET /api/v3/deliveries/tickets', () => {
  it.each(FORMATS)(
    'Tickets: 200 "Tickets successfully generated" with created, size (bytes before base64) and MIME base64 contents of a PDF (%s)',
    async (fmt) => {
      const [s] = await closed(sb, token, [items.NP()]);
      const r = await tickets(`deliveryId=${s!.deliveryId}`, { fmt });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('; charset=UTF-8');
      expect(r.body.message).toBe('Tickets successfully generated');
      // XML cannot tell one element from a one-element list (the test parser reads <data> as a list).
      const data = fmt === 'xml' ? r.body.data[0] : r.body.data;
      expect(data.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
      // Common conventions 8: the line breaks of MIME base64 arrive intact in every format.
      const pdf = expectMimeBase64(data.contents);
      expect(num(data.size)).toBe(pdf.length);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    },
  );

  it.skipIf(!needs('pdftoppm', 'zbarimg'))(
    'Tickets: every package of every requested shipment has a label whose Code 128 scans to packages[].barcode',
    async () => {
      const made = await closed(sb, token, [items.NP(2), items.NP(1)]);
      const r = await tickets(`deliveryId=${made.map((m) => m.deliveryId).join(',')}`);
      expect(r.status).toBe(200);
      const pages = scanPdf(expectMimeBase64(r.body.data.contents));
      expect(pages).toHaveLength(1);
      expect(pages[0]!.sort()).toEqual(made.flatMap((m) => m.barcodes).sort());
    },
  );

  it.skipIf(!needs('pdftoppm', 'zbarimg'))(
    'Tickets: printFormat=default, position=3 puts the first label in the lower left quarter of an A4 sheet and goes on at 4, then 1 of the next sheet',
    async () => {
      const made = await closed(sb, token, [items.NP(3)]);
      const barcodes = made[0]!.barcodes;
      const r = await tickets(`deliveryId=${made[0]!.deliveryId}&position=3&printFormat=default`);
      expect(r.status).toBe(200);
      const pdf = expectMimeBase64(r.body.data.contents);
      const sizes = pdfPageSizesMm(pdf);
      expect(sizes).toHaveLength(2);
      for (const s of sizes) expect([Math.abs(s.w - 210) <= 1, Math.abs(s.h - 297) <= 1]).toEqual([true, true]);
      const results = path.resolve(__dirname, '../../test-results/sandbox');
      mkdirSync(results, { recursive: true });
      writeFileSync(path.join(results, 'tickets-A4-position3-page1.png'), pdfPagePng(pdf, 1));
      const at = (page: number, q: number) => scanPdf(pdf, { crop: { page, mm: QUARTER(q) } })[0];
      expect(at(1, 1)).toEqual([]);
      expect(at(1, 2)).toEqual([]);
      expect(at(1, 3)).toEqual([barcodes[0]]);
      expect(at(1, 4)).toEqual([barcodes[1]]);
      expect(at(2, 1)).toEqual([barcodes[2]]);
    },
  );

  it.skipIf(!needs('pdftoppm', 'zbarimg'))('Tickets: position defaults to 1 (upper left quarter)', async () => {
    const made = await closed(sb, token, [items.NP(1)]);
    const pdf = expectMimeBase64((await tickets(`deliveryId=${made[0]!.deliveryId}`)).body.data.contents);
    expect(scanPdf(pdf, { crop: { page: 1, mm: QUARTER(1) } })[0]).toEqual(made[0]!.barcodes);
  });

  it.skipIf(!needs('pdftoppm', 'zbarimg'))(
    'Tickets: printFormat=single gives one label-sized page per package',
    async () => {
      const made = await closed(sb, token, [items.NP(2)]);
      const r = await tickets(`deliveryId=${made[0]!.deliveryId}&printFormat=single&position=4`);
      expect(r.status).toBe(200);
      const pdf = expectMimeBase64(r.body.data.contents);
      const sizes = pdfPageSizesMm(pdf);
      expect(sizes).toHaveLength(2);
      for (const s of sizes) expect(s.w < 120 && s.h < 170).toBe(true);
      expect(scanPdf(pdf)).toEqual(made[0]!.barcodes.map((b) => [b]));
    },
  );

  it.each(FORMATS)('Tickets: only closed shipments (422 with the unclosed shipment in errors) (%s)', async (fmt) => {
    const [id] = await insert(sb, token, [items.NP()]);
    const r = await tickets(`deliveryId=${id}`, { fmt });
    expect(r.status).toBe(422);
    expect(r.body.status).toBe('error');
    expect(r.body.message).toContain('not closed');
    expect(num(r.body.errors[0].value)).toBe(id);
  });

  it('Tickets: shipments with the back shipment service are refused (422)', async () => {
    const [back] = await closed(sb, token, [items.PPRBack()]);
    const r = await tickets(`deliveryId=${back!.deliveryId}`);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('back shipment');
    expect(r.body.errors[0]).toMatchObject({ field: 'deliveryId', value: back!.deliveryId });
  });

  it('Tickets: one carrier per request (422 naming the shipment of the other carrier)', async () => {
    const [np] = await closed(sb, token, [items.NP(1)]);
    const [ppr] = await closed(sb, token, [items.PPR()]);
    const r = await tickets(`deliveryId=${np!.deliveryId},${ppr!.deliveryId}`);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'deliveryId', value: ppr!.deliveryId })]);
  });

  it("Tickets: 404 for an unknown shipment, 403 for another company's", async () => {
    const [np] = await closed(sb, token, [items.NP(1)]);
    const unknown = await tickets(`deliveryId=${np!.deliveryId},999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('999999');
    expect((await tickets('deliveryId=1020')).status).toBe(403);
  });

  it('Tickets: deliveryId is required; position must be 1-4 and printFormat default or single (422 naming the parameter)', async () => {
    const [np] = await closed(sb, token, [items.NP(1)]);
    expect((await tickets('')).status).toBe(422);
    for (const [q, field] of [
      ['position=5', 'position'],
      ['position=0', 'position'],
      ['position=x', 'position'],
      ['printFormat=roll', 'printFormat'],
    ] as const) {
      const r = await tickets(`deliveryId=${np!.deliveryId}&${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
    }
  });

  it('Common conventions 9: the label errors are in Czech with accept-language: cs', async () => {
    const [id] = await insert(sb, token, [items.NP()]);
    const r = await tickets(`deliveryId=${id}`, { headers: { 'accept-language': 'cs' } });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('není uzavřená');
  });

  it('Access: the label resource needs a Bearer token (401)', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries/tickets?deliveryId=1001');
    expect(r.status).toBe(401);
  });
});
