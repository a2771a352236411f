/**
 * Spec "GET /api/v3/deliveries/zpl" over real HTTP. The ZPL from the API is rendered the way a
 * Zebra printer would (zpl-renderer-js at 300 dpi, the label's size) and its barcode read back
 * with zbarimg.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../../test/support/services';
import { catalogue } from '../domain/index';
import type { Sandbox } from '../index';
import { api, FORMATS, num, start, tokenFor } from './support';
import { closed, insert, items } from './shipments';
import { scanZpl } from './scan';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

const zpl = (query: string, o: Parameters<typeof api>[3] = {}) =>
  api(sb, 'GET', `/api/v3/deliveries/zpl?${query}`, { token, ...o });
const results = path.resolve(__dirname, '../../test-results/sandbox');

describe('GET /api/v3/deliveries/zpl', () => {
  it.each(FORMATS)(
    'ZPL: 200 "ZPL tickets successfully retrieved"; per shipment its deliveryId and one ZPL label per package (%s)',
    async (fmt) => {
      const made = await closed(sb, token, [items.NP(2), items.NP(1)]);
      const r = await zpl(`deliveryId=${made.map((m) => m.deliveryId).join(',')}`, { fmt });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('ZPL tickets successfully retrieved');
      expect(r.body.data.map((d: { deliveryId: unknown }) => num(d.deliveryId))).toEqual(made.map((m) => m.deliveryId));
      expect(r.body.data.map((d: { zplCodes: string[] }) => d.zplCodes.length)).toEqual([2, 1]);
      for (const d of r.body.data) for (const code of d.zplCodes) expect(code).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    },
  );

  it.skipIf(!needs('zbarimg'))(
    "ZPL: each label, rendered at 300 dpi in the carrier's default size, scans to its package barcode",
    async () => {
      mkdirSync(results, { recursive: true });
      const made = await closed(sb, token, [items.NP(2)]);
      const r = await zpl(`deliveryId=${made[0]!.deliveryId}`);
      expect(r.status).toBe(200);
      const codes: string[] = r.body.data[0].zplCodes;
      for (const [i, code] of codes.entries()) {
        const { codes: scanned, png } = await scanZpl(code, '10x17');
        writeFileSync(path.join(results, `zpl-NP-10x17-${i + 1}.png`), png);
        expect(scanned).toEqual([made[0]!.barcodes[i]]);
      }
    },
    120_000,
  ); // two full-size renders at 300 dpi, slow on a busy 2-core machine

  it.skipIf(!needs('zbarimg'))(
    'ZPL: sizes per carrier: ParcelPro 10x5 by default and 10x17 on request, RegioExpress 10x15; each scans',
    async () => {
      mkdirSync(results, { recursive: true });
      const [ppr] = await closed(sb, token, [items.PPR()]);
      const [rgx] = await closed(sb, token, [items.RGX()]);
      for (const [made, query, size] of [
        [ppr!, '', '10x5'],
        [ppr!, '&size=10x17', '10x17'],
        [rgx!, '', '10x15'],
      ] as const) {
        const r = await zpl(`deliveryId=${made.deliveryId}${query}`);
        expect(r.status, `${made.deliveryId} ${size}`).toBe(200);
        const { codes, png } = await scanZpl(r.body.data[0].zplCodes[0], size);
        writeFileSync(path.join(results, `zpl-${size}-${made.deliveryId}.png`), png);
        expect(codes, size).toEqual(made.barcodes);
      }
    },
  );

  it("ZPL: the allowed sizes and defaults per carrier are the spec's (national post 10x17; parcel courier 10x5 or 10x17; regional 10x15; pick-up points 10x17; others none)", () => {
    const zplOf = Object.fromEntries(catalogue.carriers.map((c) => [c.code, c.zpl]));
    expect(zplOf).toEqual({
      NP: { sizes: ['10x17'], default: '10x17' },
      PPR: { sizes: ['10x5', '10x17'], default: '10x5' },
      RGX: { sizes: ['10x15'], default: '10x15' },
      BOX: { sizes: ['10x17'], default: '10x17' },
      SHP: { sizes: ['10x17'], default: '10x17' },
      CCR: null,
    });
  });

  it.each(FORMATS)('ZPL: a carrier without ZPL answers 404 "ZPL label not found" (%s)', async (fmt) => {
    const [ccr] = await closed(sb, token, [items.CCR()]);
    const r = await zpl(`deliveryId=${ccr!.deliveryId}`, { fmt });
    expect(r.status).toBe(404);
    expect(r.body.message).toContain('ZPL label not found');
  });

  it('ZPL: only closed shipments (422)', async () => {
    const [id] = await insert(sb, token, [items.NP()]);
    const r = await zpl(`deliveryId=${id}`);
    expect(r.status).toBe(422);
    expect(num(r.body.errors[0].value)).toBe(id);
  });

  it.skipIf(!needs('zbarimg'))(
    'ZPL: all five ZPL carriers (NP, PPR, RGX, BOX, SHP) give a label in their default size that scans',
    async () => {
      for (const [agent, item, size] of [
        ['BOX', items.BOX(), '10x17'],
        ['SHP', items.SHP(), '10x17'],
        ['NP', items.NP(1), '10x17'],
      ] as const) {
        const [made] = await closed(sb, token, [item]);
        const r = await zpl(`deliveryId=${made!.deliveryId}`);
        expect(r.status, `${agent}: ${r.text}`).toBe(200);
        const { codes } = await scanZpl(r.body.data[0].zplCodes[0], size);
        expect(codes, agent).toEqual(made!.barcodes);
      }
    },
  );

  it.each(FORMATS)('ZPL: 422 with the unclosed shipment in errors (%s)', async (fmt) => {
    const [id] = await insert(sb, token, [items.PPR()]);
    const r = await zpl(`deliveryId=${id}`, { fmt });
    expect(r.status).toBe(422);
    expect(r.body.status).toBe('error');
    expect(r.body.errors.map((e: { field: string; value: unknown }) => [e.field, num(e.value)])).toEqual([
      ['deliveryId', id],
    ]);
  });

  it('ZPL: a size the carrier does not allow, or an unknown size, is refused (422 naming size)', async () => {
    const [np] = await closed(sb, token, [items.NP(1)]);
    for (const size of ['10x5', '10x15', '20x30']) {
      const r = await zpl(`deliveryId=${np!.deliveryId}&size=${size}`);
      expect(r.status, size).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ field: 'size', value: size });
    }
  });

  it("ZPL: 404 for an unknown shipment, 403 for another company's, 422 without deliveryId; one carrier per request", async () => {
    const [np] = await closed(sb, token, [items.NP(1)]);
    const [ppr] = await closed(sb, token, [items.PPR()]);
    expect((await zpl('deliveryId=999999')).status).toBe(404);
    expect((await zpl('deliveryId=1020')).status).toBe(403);
    expect((await zpl('')).status).toBe(422);
    const mixed = await zpl(`deliveryId=${np!.deliveryId},${ppr!.deliveryId}`);
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors[0].value).toBe(ppr!.deliveryId);
  });

  it('Common conventions 9: ZPL messages in Czech with accept-language: cs', async () => {
    const cs = { headers: { 'accept-language': 'cs' } };
    const [ccr] = await closed(sb, token, [items.CCR()]);
    expect((await zpl(`deliveryId=${ccr!.deliveryId}`, cs)).body.message).toContain('ZPL štítek nebyl nalezen');
    const [np] = await closed(sb, token, [items.NP(1)]);
    expect((await zpl(`deliveryId=${np!.deliveryId}`, cs)).body.message).toBe('ZPL štítky byly úspěšně načteny');
    const wrongSize = await zpl(`deliveryId=${np!.deliveryId}&size=10x5`, cs);
    expect(wrongSize.body.errors[0].message).toContain('Dopravce NP tiskne ZPL štítky jen ve velikosti 10x17');
  });
});
