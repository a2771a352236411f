/**
 * Code 128 bar patterns for the station's own PDFs (the demo pick list, the command sheet). bwip-js picks the code
 * set mix and the check digit; the PDF draws the bars as vector rectangles so they stay sharp on
 * paper and in the on-screen preview alike.
 */
import bwipjs from 'bwip-js/node';

export interface BarPattern {
  /** Total width in modules (bars and spaces), quiet zones excluded. */
  modules: number;
  /** Dark bars, in modules from the left edge of the symbol. */
  bars: Array<{ start: number; width: number }>;
}

/** ISO/IEC 15417 asks for at least 10 modules of white on each side. */
export const QUIET_ZONE_MODULES = 10;

export function code128Bars(text: string): BarPattern {
  const raw = bwipjs.raw('code128', text, {});
  const first = raw[0];
  if (!first || !('sbs' in first)) throw new Error(`no Code 128 pattern for "${text}"`);
  const bars: BarPattern['bars'] = [];
  let x = 0;
  // sbs alternates bar, space, bar... widths in modules, starting with a bar.
  first.sbs.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ start: x, width: w });
    x += w;
  });
  return { modules: x, bars };
}

/**
 * Draws `code` with its left quiet zone starting at `x` (a multiple of 3 pt keeps whole pixels at
 * 96 dpi): bars `module` pt wide per module and `height` pt high, its text centred under them.
 */
export function drawCode128(
  doc: PDFKit.PDFDocument,
  code: string,
  at: { x: number; y: number },
  o: { module: number; height: number; font: string; characterSpacing?: number },
): void {
  const pattern = code128Bars(code);
  const left = at.x + QUIET_ZONE_MODULES * o.module;
  doc.save().fillColor('black');
  for (const bar of pattern.bars) doc.rect(left + bar.start * o.module, at.y, bar.width * o.module, o.height);
  doc.fill().restore();
  doc
    .font(o.font)
    .fontSize(9)
    .fillColor('black')
    .text(code, left, at.y + o.height + 3, {
      width: pattern.modules * o.module,
      align: 'center',
      lineBreak: false,
      ...(o.characterSpacing ? { characterSpacing: o.characterSpacing } : {}),
    });
}
