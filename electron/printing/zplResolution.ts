/**
 * The service lays its ZPL out at 300 dpi (spec: GET /api/v3/deliveries/zpl, `size` "in cm at
 * 300 dpi"). A 203- or 600-dpi printer would print it at the wrong size, so each label is rendered
 * at 300 dpi (12 dots/mm) with zpl-renderer-js, scaled to the printer's dots, and sent as one
 * ^GF graphic. Scaling averages the area each printer dot covers, which keeps bar/space ratios
 * of 1D barcodes close enough for scanners (the integration test decodes them with zbarimg).
 */
import { decodePng, type GrayImage } from './png';
import { splitZplLabels } from './zplSettings';
import { renderZplPngs } from './zplRender';

export const SERVICE_DPMM = 12;

/** Label size in millimetres from the service's size name ("10x15" = 100 x 150 mm). */
export function labelSizeMm(size: string | null | undefined): { widthMm: number; heightMm: number } {
  const m = /^(\d+)x(\d+)$/.exec(size ?? '');
  return m ? { widthMm: Number(m[1]) * 10, heightMm: Number(m[2]) * 10 } : { widthMm: 100, heightMm: 150 };
}

export function dpmmOf(dpi: number): number {
  return dpi === 203 ? 8 : dpi === 600 ? 24 : 12;
}

/** Box-filter scaling of a gray image to width x height, then a 50 % threshold: 1 = black. */
export function scaleToBits(src: GrayImage, width: number, height: number): Uint8Array {
  const bits = new Uint8Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let ty = 0; ty < height; ty++) {
    const y0 = ty * sy;
    const y1 = y0 + sy;
    for (let tx = 0; tx < width; tx++) {
      const x0 = tx * sx;
      const x1 = x0 + sx;
      let dark = 0;
      let area = 0;
      for (let y = Math.floor(y0); y < Math.min(Math.ceil(y1), src.height); y++) {
        const wy = Math.min(y + 1, y1) - Math.max(y, y0);
        for (let x = Math.floor(x0); x < Math.min(Math.ceil(x1), src.width); x++) {
          const w = wy * (Math.min(x + 1, x1) - Math.max(x, x0));
          dark += w * (255 - src.gray[y * src.width + x]!);
          area += w;
        }
      }
      bits[ty * width + tx] = area > 0 && dark / area >= 127.5 ? 1 : 0;
    }
  }
  return bits;
}

/** One label as a ZPL ^GFA graphic (uncompressed hex rows). */
export function bitsToGraphicZpl(bits: Uint8Array, width: number, height: number): string {
  const bytesPerRow = Math.ceil(width / 8);
  const total = bytesPerRow * height;
  const hex: string[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(bytesPerRow);
    for (let x = 0; x < width; x++) if (bits[y * width + x]) row[x >> 3]! |= 0x80 >> (x & 7);
    hex.push(row.toString('hex').toUpperCase());
  }
  return `^XA^PW${width}^LL${height}^LH0,0^FO0,0^GFA,${total},${total},${bytesPerRow},${hex.join('')}^FS^XZ`;
}

/** Converts the service's 300-dpi ZPL for a printer of `dpi`; 300 dpi returns it unchanged. */
export async function convertZplForDpi(zpl: string, dpi: number, size: string | null | undefined): Promise<string> {
  if (dpi === 300) return zpl;
  const { widthMm, heightMm } = labelSizeMm(size);
  const targetDpmm = dpmmOf(dpi);
  const out: string[] = [];
  for (const label of splitZplLabels(zpl)) {
    const [png] = await renderZplPngs(label, widthMm, heightMm, SERVICE_DPMM);
    const img = decodePng(Buffer.from(png!, 'base64'));
    const w = Math.round(widthMm * targetDpmm);
    const h = Math.round(heightMm * targetDpmm);
    out.push(bitsToGraphicZpl(scaleToBits(img, w, h), w, h));
  }
  return out.join('\n');
}
