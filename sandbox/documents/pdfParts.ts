/**
 * Drawing pieces shared by the label and protocol PDFs (pdfkit, units are points: 1 mm = 72/25.4 pt).
 */
import PDFDocument from 'pdfkit';
import { code128Pattern, QUIET_ZONE_MODULES } from './code128';
import { documentFonts } from './fonts';

export const MM = 72 / 25.4;
export const FONT = 'LabelSans';
export const FONT_BOLD = 'LabelSans-Bold';

/**
 * A pdfkit document with the Czech-capable fonts registered, no automatic margins (every piece is
 * placed explicitly, so text never spills onto a surprise page) and the creation date taken from
 * the data: the same input gives the same bytes (pdfkit derives the file ID from the info dict).
 */
export function newDocument(opts: {
  size: [number, number];
  created: Date;
  title: string;
  bufferPages?: boolean;
}): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: opts.size,
    margin: 0,
    autoFirstPage: false,
    bufferPages: opts.bufferPages ?? false,
    info: {
      Title: opts.title,
      Producer: 'Parcel shipping sandbox',
      Creator: 'Parcel shipping sandbox',
      CreationDate: opts.created,
    },
  });
  const fonts = documentFonts();
  doc.registerFont(FONT, fonts.regular);
  doc.registerFont(FONT_BOLD, fonts.bold);
  return doc;
}

export function toBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/**
 * Draws a Code 128 symbol centred in [x, x+maxWidth] with its text underneath. The module width
 * is as wide as fits (quiet zones included) up to `maxModule`, so short codes are not stretched
 * into something a scanner finds odd. Returns the total height used.
 */
export function drawCode128(
  doc: PDFKit.PDFDocument,
  text: string,
  box: { x: number; y: number; maxWidth: number; barHeight: number; maxModule: number; fontSize: number },
): { height: number; width: number; module: number } {
  const pattern = code128Pattern(text);
  const module = Math.min(box.maxModule, box.maxWidth / (pattern.modules + 2 * QUIET_ZONE_MODULES));
  const width = pattern.modules * module;
  const left = box.x + (box.maxWidth - width) / 2;
  doc.save().fillColor('black');
  for (const bar of pattern.bars) doc.rect(left + bar.start * module, box.y, bar.width * module, box.barHeight);
  doc.fill().restore();
  doc
    .font(FONT)
    .fontSize(box.fontSize)
    .fillColor('black')
    .text(text, box.x, box.y + box.barHeight + 2, {
      width: box.maxWidth,
      align: 'center',
      lineBreak: false,
      characterSpacing: 1,
    });
  return { height: box.barHeight + 2 + box.fontSize * 1.2, width, module };
}

/** One line of text cut with an ellipsis to fit `width`, never wrapping. */
export function fitLine(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}
