/**
 * Spec "GET /api/v3/deliveries/zpl": one ZPL label per package, sizes 10x5, 10x15, 10x17 cm at
 * 300 dpi. Labels are rendered like a 300 dpi Zebra would print them (zpl-renderer-js at 12
 * dots/mm) and read back with zbarimg.
 */
import { describe, expect, it } from 'vitest';
import { renderZplLabel, ZPL_SIZES, type ZplSize } from '../../documents/zplLabels';
import { DocumentError } from '../../documents/labelData';
import { needs } from '../../../test/support/services';
import { codLabel, label, shipmentLabels } from './fixtures';
import { decode, keepExample, pngSize, renderZpl, tempDir } from './printer';

const SIZES: ZplSize[] = ['10x5', '10x15', '10x17'];

describe('ZPL label structure (spec "GET /api/v3/deliveries/zpl")', () => {
  it.each([
    ['10x5', 1181, 591],
    ['10x15', 1181, 1772],
    ['10x17', 1181, 2008],
  ] as const)('%s cm is laid out at 300 dpi: ^PW%i ^LL%i, UTF-8, one ^XA...^XZ', (size, w, h) => {
    const zpl = renderZplLabel(codLabel(), size);
    expect(zpl).toContain(`^PW${w}`);
    expect(zpl).toContain(`^LL${h}`);
    expect(zpl).toContain('^CI28');
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl).toMatch(/\^BCN,\d+,Y,N,N,A\^FH_\^FD40512345678\^FS/);
    for (const text of [
      'Jiří Dvořák',
      'Zábřeh',
      'Eshop Kolečko s.r.o.',
      '1 234,50 CZK',
      'DOBÍRKA',
      '40512345678',
      '2/3',
    ]) {
      expect(zpl.replace(/\u00a0/g, ' ')).toContain(text);
    }
  });

  it('field data with ^ or ~ is hex-escaped, so it cannot end a field or start a command', () => {
    const zpl = renderZplLabel(
      label({ ticketNote: 'A^XZ~JA_b', recipient: { name: 'Tilda ~ Caret ^', lines: ['x'] } }),
      '10x15',
    );
    expect(zpl).toContain('A_5EXZ_7EJA_5Fb');
    expect(zpl).toContain('Tilda _7E Caret _5E');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain('~JA');
  });

  it('an unknown size or a barcode Code 128 cannot carry is a DocumentError', () => {
    expect(() => renderZplLabel(label(), '10x20' as ZplSize)).toThrow(DocumentError);
    try {
      renderZplLabel(label({ barcode: 'Žluť' }), '10x5');
      expect.unreachable();
    } catch (e) {
      expect((e as DocumentError).field).toBe('barcode');
    }
  });
});

describe.skipIf(!needs('zbarimg'))('ZPL labels printed at 300 dpi and scanned', () => {
  const dir = tempDir();

  for (const size of SIZES) {
    it(`${size}: the rendered label has the label's size and its barcode scans to the package barcode`, async () => {
      const dims = ZPL_SIZES[size];
      for (const [name, l] of [
        ['plain', label()],
        ['cod', codLabel()],
      ] as const) {
        const png = await renderZpl(renderZplLabel(l, size), dims.widthMm, dims.heightMm, dir);
        expect(pngSize(png)).toEqual({ width: dims.widthMm * 12, height: dims.heightMm * 12 });
        expect(decode(png)).toEqual([l.barcode]);
        keepExample(png, `zpl-${size}-${name}.png`);
      }
    });
  }

  it('a shipment with three packages gives three labels, each scanning to its own package barcode', async () => {
    const labels = shipmentLabels(1, 3);
    const read: string[][] = [];
    for (const l of labels) read.push(decode(await renderZpl(renderZplLabel(l, '10x5'), 100, 50, dir)));
    expect(read).toEqual(labels.map((l) => [l.barcode]));
  });

  it('long texts and a huge COD amount still leave the barcode readable on the small 10x5 label', async () => {
    const l = codLabel();
    l.cod = { amount: '123456789.99', currency: 'CZK' };
    l.recipient.name = 'Velmi dlouhé jméno příjemce společnosti s ručením omezeným a dodatek';
    l.barcode = 'LONG000000001';
    const zpl = renderZplLabel(l, '10x5');
    expect(zpl.replace(/\u00a0/g, ' ')).toContain('123 456 789,99 CZK');
    const png = await renderZpl(zpl, 100, 50, dir);
    expect(decode(png)).toEqual(['LONG000000001']);
    keepExample(png, 'zpl-10x5-long-texts.png');
  });
});
