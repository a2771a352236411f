/**
 * Code 128 bar patterns from bwip-js (which picks the shortest A/B/C code set mix and the check
 * digit). The PDF generators draw the bars as vector rectangles, so they stay sharp at any
 * printer resolution instead of being a scaled bitmap.
 */
import bwipjs from 'bwip-js/node';

export interface BarPattern {
  /** Total width in modules, bars and spaces, without quiet zones. */
  modules: number;
  /** Dark bars, in modules from the left edge of the symbol. */
  bars: Array<{ start: number; width: number }>;
}

export const QUIET_ZONE_MODULES = 10;

export function code128Pattern(text: string): BarPattern {
  const raw = bwipjs.raw('code128', text, {});
  const first = raw[0];
  if (!first || !('sbs' in first)) throw new Error(`bwip-js returned no Code 128 pattern for "${text}"`);
  const bars: BarPattern['bars'] = [];
  let x = 0;
  // sbs alternates bar, space, bar, ... widths in modules, starting with a bar.
  first.sbs.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ start: x, width: w });
    x += w;
  });
  return { modules: x, bars };
}
