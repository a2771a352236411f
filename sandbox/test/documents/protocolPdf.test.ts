/**
 * Spec "POST /api/v2/collection-protocols": the protocol PDF lists the shipments handed over
 * (carrier numbers, barcodes, count) with signature lines; a courier scans the barcodes from it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderProtocolPdf } from '../../documents/protocolPdf';
import { DocumentError } from '../../documents/labelData';
import { needs } from '../../../test/support/services';
import { protocol } from './fixtures';
import { decode, keepExample, pdfPageCount, pdfText, rasterise, tempDir } from './printer';

describe.skipIf(!needs('pdftoppm', 'zbarimg'))('collection protocol PDF read back by a courier', () => {
  const dir = tempDir();

  it('14 shipments (22 packages) span two numbered pages and every package barcode scans', async () => {
    const p = protocol(14);
    const pdf = await renderProtocolPdf(p);
    expect(pdfPageCount(pdf, dir)).toBe(2);
    const pages = rasterise(pdf, dir);
    const scanned = pages.flatMap((png) => decode(png));
    const expected = p.rows.flatMap((r) => r.barcodes);
    expect(expected).toHaveLength(22);
    expect([...scanned].sort()).toEqual([...expected].sort());
    pages.forEach((png, i) => keepExample(png, `protocol-page${i + 1}.png`));

    const text = pdfText(pdf, dir).replace(/\u00a0/g, ' ');
    for (const r of p.rows) expect(text).toContain(r.deliveryNumber);
    for (const s of [
      'Předávací protokol č. 42',
      'Národní pošta',
      'Sklad Brno – Líšeň',
      'ID: BRNO-01',
      'Zásilek / Shipments: 14',
      'Balíků / Packages: 22',
      'Dobírky / COD: 322,50 CZK', // 103.5 + 107.5 + 111.5, summed exactly
      'Předal (odesílatel)',
      'Převzal (dopravce)',
      'Strana 1 / 2',
      'Strana 2 / 2',
    ]) {
      expect(text).toContain(s);
    }
  });

  it('one shipment fits one page, still numbered, with its barcode and signature lines', async () => {
    const pdf = await renderProtocolPdf(protocol(1));
    expect(pdfPageCount(pdf, dir)).toBe(1);
    const [page] = rasterise(pdf, dir);
    expect(decode(page!)).toEqual(['DR0030000000M']);
    const text = pdfText(pdf, dir);
    expect(text).toContain('Strana 1 / 1');
    expect(text).toContain('Převzal (dopravce)');
    expect(text).not.toContain('Dobírky / COD');
  });

  it('a shipment with more packages than fit on the rest of a page continues on the next page, all scannable', async () => {
    const p = protocol(6);
    p.rows[5]!.barcodes = Array.from({ length: 30 }, (_, i) => `BIG${String(i).padStart(6, '0')}`);
    const pdf = await renderProtocolPdf(p);
    const scanned = rasterise(pdf, dir).flatMap((png) => decode(png));
    expect([...scanned].sort()).toEqual(p.rows.flatMap((r) => r.barcodes).sort());
  });

  it('the same protocol gives the same bytes', async () => {
    expect((await renderProtocolPdf(protocol(3))).equals(await renderProtocolPdf(protocol(3)))).toBe(true);
  });
});

describe('collection protocol PDF: bad input', () => {
  it('no shipments or a bad barcode is a DocumentError naming the field', async () => {
    const empty = { ...protocol(1), rows: [] };
    await expect(renderProtocolPdf(empty)).rejects.toMatchObject({ code: 'INVALID_PROTOCOL', field: 'rows' });
    const bad = protocol(2);
    bad.rows[1]!.barcodes = ['ok1', 'šš'];
    await expect(renderProtocolPdf(bad)).rejects.toBeInstanceOf(DocumentError);
    await expect(renderProtocolPdf(bad)).rejects.toMatchObject({ field: 'rows[1].barcodes[1]' });
  });
});

describe.skipIf(!needs('pdftoppm'))('collection protocol PDF: a large COD total is printed whole', () => {
  const dir = tempDir();

  it('"1 234 567,89 CZK" and a second currency come out whole, inside the page, with long Czech names beside them', async () => {
    const p = protocol(4);
    p.collectionPlace.name = 'Centrální distribuční sklad Praha-Hostivař';
    p.rows[0]!.recipientName = 'Nejdelší příjmení Žluťoučkého koně, Úštěk';
    // Two shipments whose COD adds up to 1 234 567.89 CZK, one in euros.
    p.rows[1]!.cod = { amount: '1234000.39', currency: 'CZK' };
    p.rows[3]!.cod = { amount: '567.5', currency: 'CZK' };
    p.rows[2]!.cod = { amount: '98765.43', currency: 'EUR' };
    const pdf = await renderProtocolPdf(p);
    const text = pdfText(pdf, dir).replace(/\u00a0/g, ' ');
    expect(text).toContain('Dobírky / COD: 1 234 567,89 CZK, 98 765,43 EUR');
    // Long Czech names are set smaller rather than cut.
    expect(text).toContain('Centrální distribuční sklad Praha-Hostivař');
    expect(text).toContain('Nejdelší příjmení Žluťoučkého koně, Úštěk');
    expect(text).not.toContain('…');
    keepExample(rasterise(pdf, dir)[0]!, 'protocol-large-cod.png');

    // Every word of the total inside the page box (pdftotext -bbox: the words with their boxes).
    const file = path.join(dir, 'large-cod.pdf');
    writeFileSync(file, pdf);
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    const [, pageW, pageH] = /<page width="([\d.]+)" height="([\d.]+)"/.exec(html)!.map(Number);
    const words = [
      ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map((m) => ({
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      yMax: Number(m[4]),
      text: m[5]!,
    }));
    const cod = words.findIndex(
      (w) =>
        w.text === 'COD:' &&
        words[words.indexOf(w) - 1]?.text === '/' &&
        words[words.indexOf(w) - 2]?.text === 'Dobírky',
    );
    expect(cod).toBeGreaterThan(0);
    // The words after "COD:" on its line (a no-break space keeps "1 234 567,89" one word).
    const total = words.filter((w) => Math.abs(w.yMin - words[cod]!.yMin) < 2 && w.xMin > words[cod]!.xMin);
    expect(
      total
        .map((w) => w.text)
        .join(' ')
        .replace(/\u00a0/g, ' '),
    ).toBe('1 234 567,89 CZK, 98 765,43 EUR');
    for (const w of total) {
      expect(w.xMin).toBeGreaterThanOrEqual(0);
      expect(w.xMax).toBeLessThanOrEqual(pageW! - 28);
      expect(w.yMax).toBeLessThanOrEqual(pageH!);
    }
  });
});
