/**
 * The service lays its ZPL out at 300 dpi (spec: GET /api/v3/deliveries/zpl, `size` "in cm at
 * 300 dpi"); a 203- or 600-dpi printer would print it at the wrong size. The label is rewritten
 * at the command level for the printer's dots: positions (^FO, ^FT, ^LH, ^LS, ^LT), label and
 * field sizes (^PW, ^LL, ^FB, ^TB), fonts (^A, ^CF), boxes and lines (^GB, ^GC, ^GD, ^GE), barcode
 * module widths and heights (^BY and each barcode's height). Text stays text in the printer's own
 * fonts and barcodes stay barcodes, so a 203-dpi label is a few hundred bytes, not a 240 KB bitmap.
 *
 * Only an embedded graphic (^GFA) is rasterised (its bitmap scaled). A label with a command this
 * converter does not know is rendered whole and sent as one ^GF graphic (the old way), and the
 * caller is told why, so it can be logged.
 *
 * Everything works on binary strings (one char per byte, see zplBytes.ts): field data goes out
 * byte for byte, whatever its encoding.
 */
import { inflateSync } from 'node:zlib';
import { decodePng, type GrayImage } from './png';
import { fromBinary, toBinary, zplTextOf } from './zplBytes';
import { renderZplPngs } from './zplRender';

export const SERVICE_DPI = 300;
export const SERVICE_DPMM = 12;

/** Label size in millimetres from the service's size name ("10x15" = 100 x 150 mm). */
export function labelSizeMm(size: string | null | undefined): { widthMm: number; heightMm: number } {
  const m = /^(\d+)x(\d+)$/.exec(size ?? '');
  return m ? { widthMm: Number(m[1]) * 10, heightMm: Number(m[2]) * 10 } : { widthMm: 100, heightMm: 150 };
}

/**
 * The label's real size: the service's size name when the job has one, else the label's own ^PW
 * and ^LL at `dpi` (whole millimetres), else 10x15. A job whose route asked for no size has no
 * size name: its label may be 10x5, and must not be shown on a 10x15 canvas.
 */
export function zplLabelSizeMm(
  zpl: Buffer | string,
  dpi: number,
  size?: string | null,
): { widthMm: number; heightMm: number } {
  if (size && /^\d+x\d+$/.test(size)) return labelSizeMm(size);
  const text = typeof zpl === 'string' ? zpl : toBinary(zpl);
  const pw = /\^PW\s*(\d+)/i.exec(text);
  const ll = /\^LL\s*(\d+)/i.exec(text);
  const named = labelSizeMm(null);
  const mm = (dots: number) => Math.round((dots * 25.4) / dpi);
  return { widthMm: pw ? mm(Number(pw[1])) : named.widthMm, heightMm: ll ? mm(Number(ll[1])) : named.heightMm };
}

/** Dots per millimetre the renderer uses for a printer of `dpi`. */
export function dpmmOf(dpi: number): number {
  return dpi === 203 ? 8 : dpi === 600 ? 24 : 12;
}

/** Printer dots per service dot: 8 dots/mm (203 dpi) over 300 dpi, 600 over 300. */
export function scaleFactor(dpi: number): number {
  if (dpi === 203) return (8 * 25.4) / SERVICE_DPI;
  return dpi / SERVICE_DPI;
}

// ---------------------------------------------------------------- bitmaps

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

/** A bitmap as ^GFA hex rows (uncompressed): the command's parameters and data, without "^GF". */
function bitsToGfa(bits: Uint8Array, width: number, height: number): string {
  const bytesPerRow = Math.ceil(width / 8);
  const total = bytesPerRow * height;
  const hex: string[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(bytesPerRow);
    for (let x = 0; x < width; x++) if (bits[y * width + x]) row[x >> 3]! |= 0x80 >> (x & 7);
    hex.push(row.toString('hex').toUpperCase());
  }
  return `A,${total},${total},${bytesPerRow},${hex.join('')}`;
}

/** One label as a ZPL ^GFA graphic (uncompressed hex rows). */
export function bitsToGraphicZpl(bits: Uint8Array, width: number, height: number): string {
  return `^XA^PW${width}^LL${height}^LH0,0^FO0,0^GF${bitsToGfa(bits, width, height)}^FS^XZ`;
}

const HEX_REPEAT = 'GHIJKLMNOPQRSTUVWXY';
/** Zebra's ASCII compression count: G..Y = 1..19, g..z = 20..400 (ZPL II guide, "Data compression scheme for ^GF"). */
function repeatCount(c: string): number {
  const i = HEX_REPEAT.indexOf(c);
  if (i >= 0) return i + 1;
  const code = c.charCodeAt(0);
  if (code >= 0x67 && code <= 0x7a) return (code - 0x66) * 20;
  return 0;
}

/** The bytes of a ^GFA data field (plain hex, Zebra-compressed hex, or :B64: / :Z64:). */
export function decodeGfaData(data: string, bytesPerRow: number, total: number): Buffer {
  const d = data.trim();
  const b64 = /^:(B64|Z64):([A-Za-z0-9+/=]+)(?::[0-9A-Fa-f]{4})?$/.exec(d);
  if (b64) {
    const raw = Buffer.from(b64[2]!, 'base64');
    return b64[1] === 'Z64' ? inflateSync(raw) : raw;
  }
  const rowHex = bytesPerRow * 2;
  const out: string[] = [];
  let row = '';
  let prev = '0'.repeat(rowHex);
  let count = 0;
  const endRow = (fill: string) => {
    row = (row + fill.repeat(rowHex)).slice(0, rowHex);
    out.push(row);
    prev = row;
    row = '';
  };
  for (const c of d.replace(/\s+/g, '')) {
    const n = repeatCount(c);
    if (n) {
      count += n;
      continue;
    }
    if (c === ',') endRow('0');
    else if (c === '!') endRow('F');
    else if (c === ':') {
      if (row) endRow('0');
      out.push(prev);
    } else if (/[0-9A-Fa-f]/.test(c)) {
      row += c.repeat(Math.max(1, count));
      if (row.length >= rowHex) {
        const full = row;
        row = full.slice(rowHex);
        out.push(full.slice(0, rowHex));
        prev = full.slice(0, rowHex);
      }
    } else throw new Error(`unexpected "${c}" in ^GF data`);
    count = 0;
  }
  if (row) endRow('0');
  const buf = Buffer.from(out.join(''), 'hex');
  return buf.length >= total ? buf.subarray(0, total) : Buffer.concat([buf, Buffer.alloc(total - buf.length)]);
}

/** Scales one ^GFA graphic; returns the new parameters and data, or null when it is not ^GFA. */
function scaleGraphic(params: string, f: number): string | null {
  const m = /^([ABC]),(\d+),(\d+),(\d+),([\s\S]*)$/i.exec(params);
  if (!m || m[1]!.toUpperCase() !== 'A') return null;
  const total = Number(m[2]);
  const bytesPerRow = Number(m[4]);
  if (!bytesPerRow || !total) return null;
  const data = decodeGfaData(m[5]!, bytesPerRow, total);
  const width = bytesPerRow * 8;
  const height = Math.floor(total / bytesPerRow);
  const gray = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      gray[y * width + x] = (data[y * bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) !== 0 ? 0 : 255;
  const w = Math.max(1, Math.round(width * f));
  const h = Math.max(1, Math.round(height * f));
  return bitsToGfa(scaleToBits({ width, height, gray }, w, h), w, h);
}

// ---------------------------------------------------------------- commands

type Scale = (v: number) => number;
/** How a command's comma-separated parameters scale: index -> rule. */
type Rule = Record<number, 'pos' | 'size' | 'min1' | 'module'>;

/** Commands with dimensions in dots, and which parameters are dots. */
const SCALED: Record<string, Rule> = {
  FO: { 0: 'pos', 1: 'pos' },
  FT: { 0: 'pos', 1: 'pos' },
  LH: { 0: 'pos', 1: 'pos' },
  LS: { 0: 'pos' },
  LT: { 0: 'pos' },
  PW: { 0: 'size' },
  LL: { 0: 'size' },
  ML: { 0: 'size' },
  // ^A{font}{orientation},h,w (the font and orientation are the first "parameter")
  A: { 1: 'min1', 2: 'min1' },
  CF: { 1: 'min1', 2: 'min1' },
  FB: { 0: 'size', 2: 'pos', 4: 'pos' },
  TB: { 1: 'size', 2: 'size' },
  FP: { 1: 'pos' },
  GB: { 0: 'min1', 1: 'min1', 2: 'min1' },
  GC: { 0: 'min1', 1: 'min1' },
  GD: { 0: 'min1', 1: 'min1', 2: 'min1' },
  GE: { 0: 'min1', 1: 'min1', 2: 'min1' },
  GS: { 1: 'min1', 2: 'min1' },
  // ^BYw,r,h: the narrow bar never grows past its scaled width, so a barcode that fit still fits.
  BY: { 0: 'module', 2: 'min1' },
  // Barcodes: their height (in dots); orientation and flags untouched.
  BC: { 1: 'min1' },
  B2: { 1: 'min1' },
  B3: { 2: 'min1' },
  B1: { 2: 'min1' },
  B5: { 1: 'min1' },
  B8: { 1: 'min1' },
  B9: { 1: 'min1' },
  BA: { 1: 'min1' },
  BE: { 1: 'min1' },
  BI: { 1: 'min1' },
  BJ: { 1: 'min1' },
  BK: { 2: 'min1' },
  BL: { 1: 'min1' },
  BM: { 2: 'min1' },
  BP: { 2: 'min1' },
  BS: { 1: 'min1' },
  BU: { 1: 'min1' },
  BZ: { 1: 'min1' },
  B7: { 1: 'min1' },
  // Module sizes of 2D codes: magnification (^BQ), element height (^BX), Aztec magnification.
  BQ: { 2: 'min1' },
  BX: { 1: 'min1' },
  BO: { 1: 'min1' },
  B0: { 1: 'min1' },
};

/** Commands with no dots in them: passed through untouched. */
const PLAIN = new Set([
  'XA',
  'XZ',
  'CI',
  'FS',
  'FD',
  'FV',
  'FX',
  'FH',
  'FR',
  'FN',
  'FW',
  'PQ',
  'MD',
  'PO',
  'PM',
  'PR',
  'MN',
  'MM',
  'MT',
  'MF',
  'JU',
  'LR',
  'BD',
  'PF',
  'JZ',
  'SZ',
  'FC',
  'CV',
  'XB',
]);
/** Field data runs to the next ^ (the service escapes ^ and ~ inside it with ^FH). */
const DATA = new Set(['FD', 'FV', 'FX']);

export interface ConvertedLabel {
  zpl: string;
  /** Why the label had to be rendered as a whole (null: converted command by command). */
  rasterised: string | null;
}

/** Rewrites one ^XA..^XZ label (binary string); throws with the unknown command otherwise. */
export function scaleLabelCommands(label: string, f: number): string {
  const scale: Record<'pos' | 'size' | 'min1' | 'module', Scale> = {
    pos: (v) => Math.round(v * f),
    size: (v) => Math.max(1, Math.round(v * f)),
    min1: (v) => (v === 0 ? 0 : Math.max(1, Math.round(v * f))),
    module: (v) => Math.max(1, Math.floor(v * f + 1e-9)),
  };
  const out: string[] = [];
  let i = label.search(/[\^~]/);
  if (i < 0) return label;
  out.push(label.slice(0, i));
  while (i < label.length) {
    const caret = label[i]!;
    if (caret === '~') throw new Error(`~${label.slice(i + 1, i + 3)} inside a label`);
    const two = label.slice(i + 1, i + 3).toUpperCase();
    const name = two[0] === 'A' && two !== 'A@' ? 'A' : two === 'A@' ? 'A' : two;
    const bodyStart = i + 1 + (name === 'A' ? 1 : 2);
    const next = DATA.has(name) ? label.indexOf('^', bodyStart) : label.slice(bodyStart).search(/[\^~]/) + bodyStart;
    const end = next < bodyStart ? label.length : next;
    const body = label.slice(bodyStart, end);
    const head = label.slice(i, bodyStart);
    if (name === 'GF') {
      const scaled = scaleGraphic(body.trimEnd(), f);
      if (scaled === null) throw new Error('^GF graphic that is not ASCII hex (^GFA)');
      out.push(head + scaled + body.slice(body.trimEnd().length));
    } else if (name === 'MU') {
      if (!/^\s*D?\s*(,|$)/i.test(body)) throw new Error('^MU units other than dots');
      out.push(head + body);
    } else if (PLAIN.has(name)) {
      out.push(head + body);
    } else if (SCALED[name]) {
      const rule = SCALED[name];
      const trimmed = body.trimEnd();
      const params = trimmed.split(',');
      for (const [idx, kind] of Object.entries(rule)) {
        const k = Number(idx);
        const raw = params[k];
        if (raw === undefined) continue;
        const t = raw.trim();
        // ^A's first "parameter" is font + orientation; a blank keeps the printer's default.
        if (t === '' || !/^-?\d+$/.test(t)) {
          if (t !== '' && !(name === 'A' && k === 0))
            throw new Error(`^${name} with a parameter "${t}" that is not a number of dots`);
          continue;
        }
        params[k] = String(scale[kind](Number(t)));
      }
      out.push(head + params.join(',') + body.slice(trimmed.length));
    } else {
      throw new Error(`^${two} is not a command the converter knows`);
    }
    i = end;
  }
  return out.join('');
}

const LABEL = /\^XA[\s\S]*?\^XZ/gi;

/**
 * Converts the service's 300-dpi ZPL (bytes) for a printer of `dpi`; 300 dpi returns the bytes
 * unchanged. Each label is rewritten command by command; a label the converter cannot rewrite
 * is rendered whole and sent as a graphic, and `rasterised` lists why.
 */
export async function convertZplForDpi(
  bytes: Buffer,
  dpi: number,
  size: string | null | undefined,
): Promise<{ bytes: Buffer; rasterised: string[] }> {
  if (dpi === SERVICE_DPI) return { bytes, rasterised: [] };
  const f = scaleFactor(dpi);
  const text = toBinary(bytes);
  const rasterised: string[] = [];
  const pieces: string[] = [];
  let last = 0;
  for (const m of text.matchAll(LABEL)) {
    pieces.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    try {
      pieces.push(scaleLabelCommands(m[0], f));
    } catch (err) {
      rasterised.push(err instanceof Error ? err.message : String(err));
      pieces.push(await rasteriseLabel(m[0], dpi, size));
    }
  }
  pieces.push(text.slice(last));
  return { bytes: fromBinary(pieces.join('')), rasterised };
}

/** The fallback: the whole label rendered at 300 dpi and scaled to the printer's dots. */
async function rasteriseLabel(label: string, dpi: number, size: string | null | undefined): Promise<string> {
  const bytes = fromBinary(label);
  const { widthMm, heightMm } = zplLabelSizeMm(bytes, SERVICE_DPI, size);
  const [png] = await renderZplPngs(zplTextOf(bytes), widthMm, heightMm, SERVICE_DPMM);
  const img = decodePng(Buffer.from(png!, 'base64'));
  const dpmm = dpi === 203 ? 8 : dpi / 25.4;
  const w = Math.round(widthMm * dpmm);
  const h = Math.round(heightMm * dpmm);
  return bitsToGraphicZpl(scaleToBits(img, w, h), w, h);
}
