/**
 * A small PNG reader for the label images zpl-renderer-js writes (8-bit gray, gray with alpha,
 * RGB, RGBA; no interlace). It turns them into gray levels for ZPL ^GF conversion.
 * A dependency-free reader: pngjs is only a transitive dependency here.
 */
import { inflateSync } from 'node:zlib';

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 = black, 255 = white. */
  gray: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(buf: Buffer): GrayImage {
  if (buf.length < 33 || buf.readUInt32BE(0) !== 0x89504e47) throw new Error('Not a PNG image.');
  let off = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = 0;
  let interlace = 0;
  const idat: Buffer[] = [];
  while (off + 8 <= buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8]!;
      colorType = data[9]!;
      interlace = data[12]!;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  const channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  if (depth !== 8 || !channels || interlace !== 0) {
    throw new Error(`Unsupported PNG (bit depth ${depth}, colour type ${colorType}, interlace ${interlace}).`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const cur = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  const gray = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const base = y * (stride + 1);
    const filter = raw[base]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[base + 1 + i]!;
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let v: number;
      switch (filter) {
        case 0:
          v = x;
          break;
        case 1:
          v = x + a;
          break;
        case 2:
          v = x + b;
          break;
        case 3:
          v = x + ((a + b) >> 1);
          break;
        case 4:
          v = x + paeth(a, b, c);
          break;
        default:
          throw new Error(`Corrupt PNG (filter ${filter}).`);
      }
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const p = px * channels;
      let g = channels >= 3 ? (cur[p]! * 299 + cur[p + 1]! * 587 + cur[p + 2]! * 114) / 1000 : cur[p]!;
      const alpha = channels === 2 ? cur[p + 1]! : channels === 4 ? cur[p + 3]! : 255;
      // Transparent pixels are paper: blend over white.
      g = (g * alpha + 255 * (255 - alpha)) / 255;
      gray[y * width + px] = Math.round(g);
    }
    prev.set(cur);
  }
  return { width, height, gray };
}
