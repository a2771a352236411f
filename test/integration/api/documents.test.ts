/**
 * The station's service client fetching documents from a real sandbox: PDF labels (spec "GET
 * /api/v3/deliveries/tickets"), ZPL labels ("GET /api/v3/deliveries/zpl") and collection protocols
 * ("POST/GET /api/v2/collection-protocols"). Barcodes are read back the way a scanner would: ZPL
 * rendered with zpl-renderer-js, PDFs rasterised with pdftoppm, both decoded with zbarimg.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, type Delivery } from '../../../electron/api/index';
import { renderZplPngs } from '../../../electron/printing/zplRender';
import { needs } from '../../support/services';
import { decodeBarcodes, tempDir } from '../printing/printingTestKit';
import { openSession, shipment, type Session } from './support';

let s: Session;
let np: Delivery[];
let ppr: Delivery[];
let open: Delivery;

beforeAll(async () => {
  s = await openSession({ seed: 'none' });
  const inserted = await s.client.insertDeliveries([
    shipment({ packages: [{ weight: '1.2' }, { weight: '3,4' }] }),
    shipment(),
    shipment({
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' },
    }),
    shipment(),
  ]);
  open = inserted[3]!;
  const groups = await s.client.closeDeliveries(
    inserted.slice(0, 3).map((d) => ({
      deliveryId: d.deliveryId,
      agent: d.agent,
      sender: { type: 'collectionPlace' as const, collectionPlace: d.agent === 'NP' ? 'WH-PRAHA' : 'WH-BRNO' },
    })),
  );
  const closed = groups.flatMap((g) => (g.outcome.status === 'closed' ? g.outcome.deliveries : []));
  np = closed.filter((d) => d.agent === 'NP');
  ppr = closed.filter((d) => d.agent === 'PPR');
  expect(np).toHaveLength(2);
  expect(ppr).toHaveLength(1);
});
afterAll(async () => s?.sb.close());

describe('PDF labels (spec "GET /api/v3/deliveries/tickets")', () => {
  it('asks once per carrier and decodes each PDF', async () => {
    const before = s.log.lines.filter((l) => l.includes('/tickets') && l.includes('"status"')).length;
    const batches = await s.client.getTickets([...np, ...ppr], { printFormat: 'default', position: 2 });
    expect(batches.map((b) => [b.agent, b.deliveryIds.length]).sort()).toEqual([
      ['NP', 2],
      ['PPR', 1],
    ]);
    for (const b of batches) expect(b.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(s.log.lines.filter((l) => l.includes('/tickets') && l.includes('"status"')).length - before).toBe(2);
  });

  it('gives roll labels with printFormat single', async () => {
    const [b] = await s.client.getTickets(np, { printFormat: 'single' });
    expect(b!.pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses an unclosed shipment with 422', async () => {
    const err = await s.client.getTickets([{ deliveryId: open.deliveryId, agent: 'NP' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(422);
  });
});

/** Every barcode on every page of a PDF, rasterised at 300 dpi as a printer would. */
async function pdfBarcodes(pdf: Buffer): Promise<string[]> {
  const dir = tempDir('pdf-scan-');
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', path.join(dir, 'doc.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort();
    const out: string[] = [];
    for (const f of pages) out.push(...(await decodeBarcodes(readFileSync(path.join(dir, f)), dir)));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const barcodesOf = (ds: Delivery[]) => ds.flatMap((d) => d.packages.map((p) => p.barcode!));

describe('ZPL labels (spec "GET /api/v3/deliveries/zpl")', () => {
  it('gives one ZPL label per package for each shipment, one request per carrier', async () => {
    const before = s.log.lines.filter((l) => l.includes('/zpl') && l.includes('"status"')).length;
    const labels = await s.client.getZpl([...np, ...ppr]);
    expect(labels.map((l) => [l.deliveryId, l.zplCodes.length]).sort()).toEqual(
      [...np, ...ppr].map((d) => [d.deliveryId, d.packages.length]).sort(),
    );
    for (const l of labels) for (const code of l.zplCodes) expect(code).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(s.log.lines.filter((l) => l.includes('/zpl') && l.includes('"status"')).length - before).toBe(2);
  });

  it.skipIf(!needs('zbarimg'))(
    "each label, rendered at 300 dpi in the carrier's size, scans to its package barcode",
    async () => {
      // National Post prints 10x17 only; ParcelPro is asked for 10x17 instead of its 10x5 default.
      const labels = await s.client.getZpl([...np, ...ppr], {
        size: (agent) => (agent === 'PPR' ? '10x17' : undefined),
      });
      const scanned: string[] = [];
      for (const l of labels) {
        for (const code of l.zplCodes) {
          const [png] = await renderZplPngs(code, 100, 170, 12);
          scanned.push(...(await decodeBarcodes(Buffer.from(png!, 'base64'))));
        }
      }
      expect(scanned.sort()).toEqual(barcodesOf([...np, ...ppr]).sort());
    },
  );

  it('refuses a size the carrier does not print with 422 naming size', async () => {
    const err = await s.client.getZpl(np, { size: '10x5' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(422);
    expect((err as ServiceError).errors.map((e) => e.field)).toEqual(['size']);
  });

  it('answers 404 "ZPL label not found" for a carrier without ZPL', async () => {
    const [ccr] = await s.client.insertDeliveries([
      shipment({
        agent: 'CCR',
        deliveryType: 'CCR-SAMEDAY',
        packages: [{ weight: '6', length: 50, width: 40, height: 30 }],
      }),
    ]);
    const [group] = await s.client.closeDeliveries([
      { deliveryId: ccr!.deliveryId, agent: 'CCR', sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' } },
    ]);
    expect(group!.outcome.status).toBe('closed');
    const err = await s.client.getZpl([{ deliveryId: ccr!.deliveryId, agent: 'CCR' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(404);
    expect((err as ServiceError).message).toContain('ZPL label not found');
  });

  it('refuses an unclosed shipment with 422', async () => {
    const err = await s.client.getZpl([{ deliveryId: open.deliveryId, agent: 'NP' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(422);
  });
});

describe('collection protocols (spec "POST/GET /api/v2/collection-protocols")', () => {
  it('creates the protocol of a carrier and place, covering its closed shipments, and reads it back by id', async () => {
    const created = await s.client.createCollectionProtocol({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(created).toMatchObject({ agent: 'NP', collectionPlace: 'WH-PRAHA' });
    expect([...created.deliveries].sort()).toEqual(np.map((d) => d.deliveryId).sort());
    expect(created.protocol.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const back = await s.client.getCollectionProtocol(created.collectionProtocolId);
    expect(back.collectionProtocolId).toBe(created.collectionProtocolId);
    expect(back.deliveries).toEqual(created.deliveries);
    expect(back.protocol.equals(created.protocol)).toBe(true);
  });

  it.skipIf(!needs('pdftoppm', 'zbarimg'))(
    'the protocol PDF carries every package barcode, scannable from the sheet',
    async () => {
      const created = await s.client.createCollectionProtocol({ agent: 'PPR', collectionPlace: 'WH-BRNO' });
      expect(created.deliveries).toEqual(ppr.map((d) => d.deliveryId));
      expect((await pdfBarcodes(created.protocol)).sort()).toEqual(barcodesOf(ppr).sort());
    },
  );

  it('a second protocol for the same pair has nothing to cover: 422 with errors naming collectionPlace', async () => {
    const err = await s.client
      .createCollectionProtocol({ agent: 'NP', collectionPlace: 'WH-PRAHA' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(422);
    expect((err as ServiceError).errors.map((e) => e.field)).toEqual(['collectionPlace']);
  });

  it('an unknown protocol is 404', async () => {
    const err = await s.client.getCollectionProtocol(999_999).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(404);
  });
});
