/** The command-level resolution converter: what each command becomes at 203 and 600 dpi. */
import { describe, expect, it } from 'vitest';
import {
  decodeGfaData,
  scaleFactor,
  scaleLabelCommands,
  zplLabelSizeMm,
} from '../../../electron/printing/zplResolution';

const to203 = (zpl: string) => scaleLabelCommands(zpl, scaleFactor(203));

describe('ZPL resolution conversion, command by command', () => {
  it('scales positions, sizes, fonts, boxes, field blocks and barcodes; leaves field data and flags alone', () => {
    const zpl =
      '^XA\n^CI28^PW1181^LL1772^LH0,0^LS-30^LT15\n^FO891,62^A0N,90,90^FB260,1,0,R,0^FR^FH_^FDČerný_5F 1/1^FS\n^FO0,170^GB1181,4,4^FS\n^FO120,1382^BY5,3,290^BCN,290,Y,N,N,A^FH_^FDDR0001CZ^FS\n^FT10,20^CFA,30,20^FDx^FS^PQ1\n^XZ';
    expect(to203(zpl)).toBe(
      '^XA\n^CI28^PW800^LL1200^LH0,0^LS-20^LT10\n^FO604,42^A0N,61,61^FB176,1,0,R,0^FR^FH_^FDČerný_5F 1/1^FS\n^FO0,115^GB800,3,3^FS\n^FO81,936^BY3,3,196^BCN,196,Y,N,N,A^FH_^FDDR0001CZ^FS\n^FT7,14^CFA,20,14^FDx^FS^PQ1\n^XZ',
    );
    expect(scaleLabelCommands('^XA^PW1181^BY2^BCN,100^FDX^FS^XZ', scaleFactor(600))).toBe(
      '^XA^PW2362^BY4^BCN,200^FDX^FS^XZ',
    );
  });

  it('keeps a narrow bar at least one dot and never wider than its scaled width, so a barcode that fit still fits', () => {
    expect(to203('^XA^BY2,3,100^XZ')).toBe('^XA^BY1,3,68^XZ');
    expect(to203('^XA^BY4^XZ')).toBe('^XA^BY2^XZ');
  });

  it('field data may hold ~ and commas: it is not parsed as commands', () => {
    expect(to203('^XA^FO300,300^FDa,b ~HS c^FS^XZ')).toBe('^XA^FO203,203^FDa,b ~HS c^FS^XZ');
  });

  it('an embedded ^GFA graphic is scaled as a bitmap (compressed hex too)', () => {
    // 16 x 4 dots, black: 2 bytes a row; Zebra compression "J" = 4 repeats of F, ":" = repeat the row.
    const out = scaleLabelCommands('^XA^FO30,30^GFA,8,8,2,JF\n:\n:\n:^FS^XZ', 2);
    expect(out).toBe(`^XA^FO60,60^GFA,32,32,4,${'FFFFFFFF'.repeat(8)}^FS^XZ`);
    expect(decodeGfaData('FF00,\n!', 2, 6).toString('hex')).toBe('ff000000ffff');
  });

  it('refuses what it does not know, so the caller can fall back to a raster', () => {
    expect(() => to203('^XA^ZZ1^XZ')).toThrow(/\^ZZ/);
    expect(() => to203('^XA^MUM^XZ')).toThrow(/\^MU/);
    expect(() => to203('^XA^GFB,2,2,1,xx^XZ')).toThrow(/\^GF/);
  });

  it("reads a label's real size from the size name, else its ^PW and ^LL", () => {
    expect(zplLabelSizeMm('^XA^PW1181^LL591^XZ', 300, null)).toEqual({ widthMm: 100, heightMm: 50 });
    expect(zplLabelSizeMm('^XA^PW800^LL400^XZ', 203, null)).toEqual({ widthMm: 100, heightMm: 50 });
    expect(zplLabelSizeMm('^XA^XZ', 300, '10x17')).toEqual({ widthMm: 100, heightMm: 170 });
  });
});
