/**
 * ZPL package labels (spec "GET /api/v3/deliveries/zpl": one label per package, sizes 10x5, 10x15
 * and 10x17 cm at 300 dpi). Each label is one ^XA...^XZ block laid out in printer dots
 * (300 dpi = 11.81 dots/mm), UTF-8 (^CI28) so Czech names print, every field hex-escaped (^FH)
 * so data containing ^ or ~ cannot break the label, and the package barcode as Code 128 (^BC,
 * automatic subset selection).
 */
import { code128Pattern, QUIET_ZONE_MODULES } from './code128';
import { formatDateTime, formatMoney, formatWeight } from './format';
import { checkLabel, DocumentError, type LabelData } from './labelData';

export type ZplSize = '10x5' | '10x15' | '10x17';

const DPI = 300;
const dots = (mm: number) => Math.round((mm * DPI) / 25.4);

/** Label dimensions in dots for each size the spec allows. */
export const ZPL_SIZES: Record<ZplSize, { widthDots: number; heightDots: number; widthMm: number; heightMm: number }> =
  {
    '10x5': { widthDots: dots(100), heightDots: dots(50), widthMm: 100, heightMm: 50 },
    '10x15': { widthDots: dots(100), heightDots: dots(150), widthMm: 100, heightMm: 150 },
    '10x17': { widthDots: dots(100), heightDots: dots(170), widthMm: 100, heightMm: 170 },
  };

export function renderZplLabel(label: LabelData, size: ZplSize): string {
  checkLabel(label);
  const dims = ZPL_SIZES[size];
  if (!dims) throw new DocumentError('INVALID_LABEL', `size must be 10x5, 10x15 or 10x17, not ${String(size)}`, 'size');
  const z = new ZplCanvas(dims.widthDots, dims.heightDots);
  if (size === '10x5') layoutSmall(z, label);
  else layoutTall(z, label);
  return z.toString();
}

/** 10 x 15 / 10 x 17 cm: the same order as the PDF label, scaled to dots. */
function layoutTall(z: ZplCanvas, l: LabelData): void {
  const m = 30;
  const iw = z.width - 2 * m;
  const pkgW = 260;
  z.text(m, 30, 66, l.agent.name, iw - pkgW);
  if (l.deliveryTypeName) z.text(m, 110, 34, l.deliveryTypeName, iw - pkgW);
  z.text(m + iw - pkgW, 28, 24, 'BALÍK / PACKAGE', pkgW, 'R');
  z.text(m + iw - pkgW, 62, 90, `${l.packageIndex}/${l.packageCount}`, pkgW, 'R');
  z.rule(170);

  z.text(m, 186, 24, 'ODESÍLATEL / SENDER', iw);
  z.text(m, 216, 36, l.sender.name, iw);
  z.text(m, 258, 30, l.sender.lines.join(', '), iw);
  z.rule(304);

  const barcodeTop = z.height - 420;
  const noteTop = l.ticketNote ? barcodeTop - 130 : barcodeTop;
  const infoTop = noteTop - 120;
  const codTop = l.cod ? infoTop - 150 : infoTop;

  let y = 320;
  const r = l.recipient;
  z.text(m, y, 24, 'PŘÍJEMCE / RECIPIENT', iw);
  y += 40;
  const bottom = codTop - 20;
  const fits = (h: number) => y + h <= bottom;
  for (const line of wrap(r.name, charsFor(iw, 70), 2))
    if (fits(72)) {
      z.text(m, y, 70, line, iw);
      y += 76;
    }
  if (r.contactPerson && r.contactPerson !== r.name && fits(46)) {
    z.text(m, y, 44, r.contactPerson, iw);
    y += 52;
  }
  y += 10;
  for (const line of r.lines)
    if (fits(60)) {
      z.text(m, y, 58, line, iw);
      y += 66;
    }
  y += 10;
  if (r.phone && fits(46)) {
    z.text(m, y, 44, `Tel.: ${r.phone}`, iw);
    y += 52;
  }
  if (r.pickUpPlace) {
    for (const line of wrap(`Výdejní místo / Pick-up point: ${r.pickUpPlace}`, charsFor(iw, 38), 2)) {
      if (fits(40)) {
        z.text(m, y, 38, line, iw);
        y += 44;
      }
    }
  }

  if (l.cod) {
    z.box(0, codTop, z.width, infoTop - codTop - 4, infoTop - codTop - 4);
    z.text(m, codTop + 30, 38, 'DOBÍRKA', 260, 'L', true);
    z.text(m, codTop + 76, 38, 'COD', 260, 'L', true);
    const amount = formatMoney(l.cod.amount, l.cod.currency);
    const h = heightToFit(amount, iw - 250, 90, 30);
    z.text(m + 250, codTop + 30 + (90 - h) / 2, h, amount, iw - 250, 'R', true);
  }

  z.rule(infoTop);
  const c1 = Math.round(iw * 0.42);
  const c2 = Math.round(iw * 0.24);
  z.text(m, infoTop + 14, 22, 'ČÍSLO ZÁSILKY / CARRIER NO.', c1 - 10);
  z.text(m, infoTop + 46, heightToFit(l.deliveryNumber, c1 - 10, 46, 20), l.deliveryNumber, c1 - 10);
  z.text(m + c1, infoTop + 14, 22, 'VÁHA / WEIGHT', c2 - 10);
  z.text(m + c1, infoTop + 46, heightToFit(formatWeight(l.weight), c2 - 10, 46, 20), formatWeight(l.weight), c2 - 10);
  z.text(m + c1 + c2, infoTop + 14, 22, 'PODÁNO / CREATED', iw - c1 - c2);
  z.text(m + c1 + c2, infoTop + 50, 34, formatDateTime(l.created), iw - c1 - c2);

  if (l.ticketNote) {
    z.rule(noteTop, 2);
    z.text(m, noteTop + 12, 22, 'POZNÁMKA / NOTE', iw);
    wrap(l.ticketNote, charsFor(iw, 30), 3).forEach((line, i) => z.text(m, noteTop + 40 + i * 30, 28, line, iw));
  }

  z.rule(barcodeTop);
  z.barcode(barcodeTop + 30, 290, l.barcode, 5);
}

/** 10 x 5 cm: carrier line, recipient left, COD and carrier number right, barcode across the bottom. */
function layoutSmall(z: ZplCanvas, l: LabelData): void {
  const m = 24;
  const right = 770;
  const leftW = right - m - 20;
  const rightW = z.width - right - m;
  z.text(m, 16, 44, l.agent.name, leftW);
  const pkg = `${l.packageIndex}/${l.packageCount}  ${formatWeight(l.weight)}`;
  z.text(right, 16, heightToFit(pkg, rightW, 44, 20), pkg, rightW, 'R');
  z.rule(68);

  const s = l.sender;
  z.text(m, 80, 24, `Od / From: ${s.name}, ${s.lines.join(', ')}`, leftW);
  const r = l.recipient;
  let y = 112;
  z.text(m, y, 46, r.name, leftW);
  y += 52;
  for (const line of r.lines.slice(0, 3)) {
    z.text(m, y, 32, line, leftW);
    y += 34;
  }
  const extra = [r.phone ? `Tel.: ${r.phone}` : '', r.pickUpPlace ? `Výdejní místo: ${r.pickUpPlace}` : '']
    .filter(Boolean)
    .join('  ');
  if (extra) z.text(m, y, 24, extra, leftW);

  let ry = 80;
  if (l.cod) {
    z.box(right - 10, ry - 4, rightW + 10 + m, 100, 100);
    z.text(right, ry + 6, 24, 'DOBÍRKA / COD', rightW, 'L', true);
    const amount = formatMoney(l.cod.amount, l.cod.currency);
    z.text(right, ry + 40, heightToFit(amount, rightW, 48, 20), amount, rightW, 'L', true);
    ry += 108;
  }
  z.text(right, ry, 20, 'ČÍSLO ZÁSILKY / CARRIER NO.', rightW);
  z.text(right, ry + 24, heightToFit(l.deliveryNumber, rightW, 34, 18), l.deliveryNumber, rightW);
  ry += 66;
  if (l.ticketNote)
    wrap(l.ticketNote, charsFor(rightW, 22), l.cod ? 1 : 3).forEach((line, i) =>
      z.text(right, ry + i * 24, 22, line, rightW),
    );
  z.rule(296);
  z.barcode(312, 200, l.barcode, 4);
}

/** A tiny ZPL writer: every piece is placed with ^FO in dots, all text hex-escaped. */
class ZplCanvas {
  private readonly parts: string[] = [];
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.parts.push('^XA', '^CI28', `^PW${width}`, `^LL${height}`, '^LH0,0');
  }

  /** One line of text (font 0, height h dots) cut to `maxWidth`; white on black when `reverse`. */
  text(x: number, y: number, h: number, text: string, maxWidth: number, align: 'L' | 'R' = 'L', reverse = false): void {
    const line = ellipsize(text.replace(/\s+/g, ' ').trim(), charsFor(maxWidth, h));
    const block = align === 'R' ? `^FB${maxWidth},1,0,R,0` : '';
    this.parts.push(`^FO${x},${y}^A0N,${h},${h}${block}${reverse ? '^FR' : ''}^FH_^FD${escapeField(line)}^FS`);
  }

  /** A filled or outlined box (^GB); thickness = height fills it. */
  box(x: number, y: number, w: number, h: number, thickness: number): void {
    this.parts.push(`^FO${x},${y}^GB${w},${h},${Math.min(thickness, w, h)}^FS`);
  }

  rule(y: number, thickness = 4): void {
    this.box(0, y, this.width, thickness, thickness);
  }

  /** Code 128 centred across the label, as wide a module as fits (quiet zones kept), text below. */
  barcode(y: number, barHeight: number, data: string, maxModule: number): void {
    const modules = code128Pattern(data).modules + 2 * QUIET_ZONE_MODULES;
    const module = Math.max(2, Math.min(maxModule, Math.floor(this.width / modules)));
    const x = Math.max(0, Math.round((this.width - (modules - 2 * QUIET_ZONE_MODULES) * module) / 2));
    this.parts.push(`^FO${x},${y}^BY${module},3,${barHeight}^BCN,${barHeight},Y,N,N,A^FH_^FD${escapeField(data)}^FS`);
  }

  toString(): string {
    return [...this.parts, '^XZ'].join('\n') + '\n';
  }
}

/** ^FH_ escapes: the characters that would end or redirect a ZPL field become _XX hex. */
function escapeField(s: string): string {
  return s.replace(/[_^~\\]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Font 0 averages about half its height per character; keep a margin for wide capitals. */
function charsFor(widthDots: number, h: number): number {
  return Math.max(4, Math.floor(widthDots / (h * 0.5)));
}

/** The tallest font-0 height (max..min dots) at which `text` fits `widthDots`: for values never cut. */
function heightToFit(text: string, widthDots: number, max: number, min: number): number {
  return Math.max(min, Math.min(max, Math.floor(widthDots / (text.length * 0.5))));
}

function ellipsize(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 3).trimEnd()}...`;
}

/** Word-wraps to at most `maxLines` lines of `maxChars`, the last one ellipsized if text remains. */
function wrap(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let current = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = current ? `${current} ${w}` : w;
    if (next.length <= maxChars) {
      current = next;
      continue;
    }
    if (lines.length === maxLines - 1) {
      lines.push(ellipsize(`${next} ${words.slice(i + 1).join(' ')}`.trim(), maxChars));
      return lines;
    }
    if (current) lines.push(ellipsize(current, maxChars));
    current = w;
  }
  if (current) lines.push(ellipsize(current, maxChars));
  return lines.slice(0, maxLines);
}
