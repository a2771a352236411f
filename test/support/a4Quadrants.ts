/**
 * What a scanner reads in each quarter of an A4 label sheet (spec "GET /api/v3/deliveries/tickets",
 * `position` 1-4 = quarters 1 2 / 3 4 in reading order): the page rasterised with pdftoppm at
 * 150 dpi (1241 x 1754 px), cropped per quarter, decoded with zbarimg.
 */
import { decode, rasterise, tempDir } from '../../sandbox/test/documents/printer';

const QUARTER = { w: 620, h: 877 };

export function readA4Quarters(pdf: Buffer, page = 1): Record<1 | 2 | 3 | 4, string[]> {
  const dir = tempDir();
  const out = {} as Record<1 | 2 | 3 | 4, string[]>;
  for (const q of [1, 2, 3, 4] as const) {
    const crop = { x: ((q - 1) % 2) * QUARTER.w, y: Math.floor((q - 1) / 2) * QUARTER.h, ...QUARTER };
    const [png] = rasterise(pdf, dir, { page, crop });
    out[q] = decode(png!);
  }
  return out;
}
