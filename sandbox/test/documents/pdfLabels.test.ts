/**
 * Spec "GET /api/v3/deliveries/tickets": labels as a printer prints them, read back with a scanner.
 * A4 at 150 dpi is 1241 x 1754 px; its quadrants are about 620 x 877 px.
 */
import { describe, expect, it } from 'vitest';
import { renderLabelsPdf, slotOf, type LabelPosition } from '../../documents/pdfLabels';
import { DocumentError } from '../../documents/labelData';
import { needs } from '../../../test/support/services';
import { codLabel, label, shipmentLabels } from './fixtures';
import { decode, keepExample, pdfPageCount, pdfText, pngSize, rasterise, tempDir } from './printer';

const QUADRANT = { w: 620, h: 877 };
const quadrantCrop = (q: LabelPosition) => ({
  x: ((q - 1) % 2) * QUADRANT.w,
  y: Math.floor((q - 1) / 2) * QUADRANT.h,
  ...QUADRANT,
});

/** What a scanner reads in each quadrant of one A4 page: { 1: [...], 2: [...], 3: [...], 4: [...] }. */
function readQuadrants(pdf: Buffer, dir: string, page: number): Record<LabelPosition, string[]> {
  const out = {} as Record<LabelPosition, string[]>;
  for (const q of [1, 2, 3, 4] as const) {
    const [png] = rasterise(pdf, dir, { page, crop: quadrantCrop(q) });
    out[q] = decode(png!);
  }
  return out;
}

describe('slotOf: where the n-th label goes on A4 (spec "Label start position" 1-4)', () => {
  it('fills the sheet in reading order from the start position, then continues at 1 of the next page', () => {
    expect([0, 1, 2].map((i) => slotOf(i, 3))).toEqual([
      { page: 0, quadrant: 3 },
      { page: 0, quadrant: 4 },
      { page: 1, quadrant: 1 },
    ]);
    expect(slotOf(4, 1)).toEqual({ page: 1, quadrant: 1 });
  });
});

describe.skipIf(!needs('pdftoppm', 'zbarimg'))(
  'PDF labels read back by a scanner (spec "GET /api/v3/deliveries/tickets")',
  () => {
    const dir = tempDir();

    for (const position of [1, 2, 3, 4] as const) {
      it(`printFormat=default, position=${position}: the label's barcode is in quadrant ${position} of an A4 page and nowhere else`, async () => {
        const l = label({ barcode: `DR00${position}2345678M` });
        const pdf = await renderLabelsPdf([l], { printFormat: 'default', position });
        expect(pdfPageCount(pdf, dir)).toBe(1);
        const [page] = rasterise(pdf, dir);
        expect(pngSize(page!)).toEqual({ width: 1241, height: 1754 }); // 210 x 297 mm at 150 dpi, rounded up
        const seen = readQuadrants(pdf, dir, 1);
        for (const q of [1, 2, 3, 4] as const) expect(seen[q]).toEqual(q === position ? [l.barcode] : []);
      });
    }

    it('position=3 with three labels puts them at 3 and 4 of page 1, then 1 of page 2', async () => {
      const labels = shipmentLabels(3);
      const pdf = await renderLabelsPdf(labels, { printFormat: 'default', position: 3 });
      expect(pdfPageCount(pdf, dir)).toBe(2);
      expect(readQuadrants(pdf, dir, 1)).toEqual({ 1: [], 2: [], 3: [labels[0]!.barcode], 4: [labels[1]!.barcode] });
      expect(readQuadrants(pdf, dir, 2)).toEqual({ 1: [labels[2]!.barcode], 2: [], 3: [], 4: [] });
      const pages = rasterise(pdf, dir);
      keepExample(pages[0]!, 'a4-position3-page1.png');
      keepExample(pages[1]!, 'a4-position3-page2.png');
    });

    it('a shipment with three packages gives three labels, each with its own package barcode and "i/3"', async () => {
      const labels = shipmentLabels(1, 3);
      const pdf = await renderLabelsPdf(labels, { printFormat: 'default', position: 1 });
      expect(readQuadrants(pdf, dir, 1)).toEqual({
        1: [labels[0]!.barcode],
        2: [labels[1]!.barcode],
        3: [labels[2]!.barcode],
        4: [],
      });
      const text = pdfText(pdf, dir);
      for (const i of [1, 2, 3]) expect(text).toContain(`${i}/3`);
    });

    it('printFormat=single gives one 100 x 150 mm page per package, each decoding to its barcode', async () => {
      const labels = [...shipmentLabels(1, 2), codLabel()];
      const pdf = await renderLabelsPdf(labels, { printFormat: 'single', position: 1 });
      const pages = rasterise(pdf, dir);
      expect(pages).toHaveLength(3);
      // 100 x 150 mm at 150 dpi = 590.55 x 885.8 px: pdftoppm rounds up.
      for (const p of pages) expect(pngSize(p)).toEqual({ width: 591, height: 886 });
      expect(pages.map((p) => decode(p))).toEqual(labels.map((l) => [l.barcode]));
      keepExample(pages[2]!, 'single-cod.png');
    });

    it('prints every field a carrier needs, Czech diacritics intact (the embedded font has ř, ů, ť)', async () => {
      const l = codLabel();
      const pdf = await renderLabelsPdf([label(), l], { printFormat: 'default', position: 1 });
      const text = pdfText(pdf, dir);
      for (const expected of [
        'Příliš žluťoučký kůň',
        'Úpěl Ďábelské Ódy',
        'Šafaříkova 1273/18',
        'Eshop Kolečko s.r.o.',
        'Národní pošta',
        'Rychlý kurýr',
        'DR0012345678M',
        '40512345678',
        '2/3',
        '12,5 kg',
        'DOBÍRKA',
        '1 234,50 CZK',
        'Křehké! Nestohovat.',
        '+420 603 000 111',
        'Z-BOX Zábřeh',
      ]) {
        expect(text.replace(/\u00a0/g, ' ')).toContain(expected);
      }
      expect(text).not.toContain('DOBÍRKA\n'.repeat(2)); // only the COD label carries the COD box
      expect(text.match(/DOBÍRKA/g)).toHaveLength(1);
    });

    it('long names and addresses are cut to fit: the barcode is still readable and on the same page', async () => {
      const long = label({
        barcode: 'LONG000000001',
        recipient: {
          name: 'Velmi dlouhé jméno příjemce společnosti s ručením omezeným a ještě delší dodatek k názvu firmy a oddělení',
          lines: [
            'Ulice s velmi dlouhým názvem, která se nevejde na jeden řádek 123456/78',
            '12345 Město nad Řekou',
            'CZ',
            'další',
            'řádky',
          ],
          phone: '+420 123 456 789',
          pickUpPlace: 'Výdejní místo s opravdu velmi dlouhým názvem v obchodním centru u hlavního nádraží, vchod C',
        },
        ticketNote: 'Poznámka '.repeat(40),
        cod: { amount: '123456789.99', currency: 'CZK' },
      });
      const pdf = await renderLabelsPdf([long], { printFormat: 'single', position: 1 });
      expect(pdfPageCount(pdf, dir)).toBe(1);
      const [page] = rasterise(pdf, dir);
      expect(decode(page!)).toEqual(['LONG000000001']);
      keepExample(page!, 'single-long-texts.png');
    });

    it('the same data gives the same bytes (creation date comes from the data, not the clock)', async () => {
      const a = await renderLabelsPdf(shipmentLabels(2), { printFormat: 'default', position: 2 });
      const b = await renderLabelsPdf(shipmentLabels(2), { printFormat: 'default', position: 2 });
      expect(a.equals(b)).toBe(true);
    });
  },
);

describe('PDF labels: bad input is a DocumentError naming the field', () => {
  const fails = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(DocumentError);
      return e as DocumentError;
    }
    throw new Error('expected a DocumentError');
  };

  it('no labels', async () => {
    expect((await fails(renderLabelsPdf([], { printFormat: 'default', position: 1 }))).code).toBe('NO_LABELS');
  });

  it('a barcode Code 128 cannot carry', async () => {
    const e = await fails(
      renderLabelsPdf([label(), label({ barcode: 'ČR123' })], { printFormat: 'single', position: 1 }),
    );
    expect(e.code).toBe('INVALID_LABEL');
    expect(e.field).toBe('[1].barcode');
  });

  it('a weight that is not a decimal, a package index beyond the count, a position of 5', async () => {
    expect(
      (await fails(renderLabelsPdf([label({ weight: 'heavy' })], { printFormat: 'single', position: 1 }))).field,
    ).toBe('[0].weight');
    expect(
      (
        await fails(
          renderLabelsPdf([label({ packageIndex: 3, packageCount: 2 })], { printFormat: 'single', position: 1 }),
        )
      ).field,
    ).toBe('[0].packageIndex');
    expect(
      (await fails(renderLabelsPdf([label()], { printFormat: 'default', position: 5 as LabelPosition }))).field,
    ).toBe('position');
  });
});
