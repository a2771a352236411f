/**
 * Collection protocol PDF (spec "POST /api/v2/collection-protocols": the `protocol` field). The
 * courier signs it at pick-up: it lists every shipment handed over (carrier number, recipient,
 * packages, COD) with each package barcode printed as Code 128 so the courier can scan straight
 * from the sheet, the totals, and signature lines for sender and courier. A4 portrait, page
 * numbers on every page ("Strana 2 / 3").
 */
import { addDecimals, formatDateTime, formatMoney } from './format';
import { checkBarcode, DocumentError, isDecimal } from './labelData';
import { drawCode128, fitLine, FONT, FONT_BOLD, MM, newDocument, toBuffer } from './pdfParts';

export interface ProtocolRow {
  deliveryId: number;
  deliveryNumber: string;
  recipientName: string;
  barcodes: string[];
  cod?: { amount: string; currency: string };
}

export interface ProtocolData {
  collectionProtocolId: number;
  agent: { code: string; name: string };
  collectionPlace: { identificator: string; name: string; lines: string[] };
  created: Date;
  rows: ProtocolRow[];
}

const PAGE: [number, number] = [210 * MM, 297 * MM];
const M = 40;
const CONTENT_W = PAGE[0] - 2 * M;
const FOOTER_H = 36;
const BOTTOM = PAGE[1] - M - FOOTER_H;
const COLS = { index: 24, number: 130, recipient: 190, packages: 66 } as const;
const BARCODES_PER_LINE = 2;
const BARCODE_LINE_H = 46;
const SIGNATURE_H = 150;
/** The COD total's own line under the counts. */
const COD_LINE_H = 16;

export function checkProtocol(p: ProtocolData): void {
  const bad = (field: string, message: string) => new DocumentError('INVALID_PROTOCOL', message, field);
  if (!p || !Array.isArray(p.rows) || p.rows.length === 0)
    throw bad('rows', 'a collection protocol needs at least one shipment');
  if (!(p.created instanceof Date) || Number.isNaN(p.created.getTime())) throw bad('created', 'must be a valid date');
  p.rows.forEach((r, i) => {
    if (!Array.isArray(r.barcodes) || r.barcodes.length === 0)
      throw bad(`rows[${i}].barcodes`, 'a shipment needs at least one package barcode');
    r.barcodes.forEach((b, j) => checkBarcode(b, `rows[${i}].barcodes[${j}]`, 'INVALID_PROTOCOL'));
    if (r.cod && (!isDecimal(r.cod.amount) || !r.cod.currency))
      throw bad(`rows[${i}].cod`, 'COD needs a decimal amount and a currency');
  });
}

export async function renderProtocolPdf(p: ProtocolData): Promise<Buffer> {
  checkProtocol(p);
  const doc = newDocument({
    size: PAGE,
    created: p.created,
    title: `Collection protocol ${p.collectionProtocolId}`,
    bufferPages: true,
  });
  doc.addPage({ size: PAGE, margin: 0 });
  let y = drawHeader(doc, p);
  y = drawTableHead(doc, y);

  const newPage = () => {
    doc.addPage({ size: PAGE, margin: 0 });
    return drawTableHead(doc, M);
  };

  p.rows.forEach((row, i) => {
    // Keep a shipment's text line together with its first line of barcodes.
    if (y + 18 + BARCODE_LINE_H > BOTTOM) y = newPage();
    y = drawRowText(doc, row, i, y);
    for (let b = 0; b < row.barcodes.length; b += BARCODES_PER_LINE) {
      if (y + BARCODE_LINE_H > BOTTOM) y = newPage();
      const cellW = CONTENT_W / BARCODES_PER_LINE;
      row.barcodes.slice(b, b + BARCODES_PER_LINE).forEach((code, k) => {
        drawCode128(doc, code, {
          x: M + k * cellW,
          y: y + 4,
          maxWidth: cellW,
          barHeight: 28,
          maxModule: 0.45 * MM,
          fontSize: 8,
        });
      });
      y += BARCODE_LINE_H;
    }
    doc
      .save()
      .lineWidth(0.5)
      .strokeColor('#888888')
      .moveTo(M, y)
      .lineTo(M + CONTENT_W, y)
      .stroke()
      .restore();
  });

  if (y + SIGNATURE_H + (p.rows.some((r) => r.cod) ? COD_LINE_H : 0) > BOTTOM) {
    doc.addPage({ size: PAGE, margin: 0 });
    y = M;
  }
  drawTotalsAndSignatures(doc, p, y + 12);
  drawPageNumbers(doc, p);
  return toBuffer(doc);
}

function drawHeader(doc: PDFKit.PDFDocument, p: ProtocolData): number {
  doc.font(FONT_BOLD).fontSize(18).fillColor('black');
  doc.text(`Předávací protokol č. ${p.collectionProtocolId}`, M, M, { width: CONTENT_W, lineBreak: false });
  doc
    .font(FONT)
    .fontSize(10)
    .text('Collection protocol', M, M + 24, { lineBreak: false });
  doc.text(`Vytvořen / Created: ${formatDateTime(p.created)}`, M, M + 24, {
    width: CONTENT_W,
    align: 'right',
    lineBreak: false,
  });

  const top = M + 48;
  const half = CONTENT_W / 2 - 6;
  const block = (x: number, title: string, lines: string[]) => {
    doc.save().lineWidth(0.8).rect(x, top, half, 86).stroke().restore();
    doc
      .font(FONT)
      .fontSize(7)
      .fillColor('#333333')
      .text(title, x + 8, top + 6, { lineBreak: false });
    doc.fillColor('black');
    lines.forEach((l, i) => {
      doc.font(i === 0 ? FONT_BOLD : FONT).fontSize(i === 0 ? fitSize(doc, l, half - 16, [12, 11, 10, 9]) : 9);
      doc.text(fitLine(doc, l, half - 16), x + 8, top + 18 + (i === 0 ? 0 : 4 + i * 11), { lineBreak: false });
    });
  };
  block(M, 'DOPRAVCE / CARRIER', [p.agent.name, `Kód / Code: ${p.agent.code}`]);
  const place = p.collectionPlace;
  block(
    M + half + 12,
    'MÍSTO SVOZU / COLLECTION PLACE',
    [place.name, `ID: ${place.identificator}`, ...place.lines].slice(0, 5),
  );
  return top + 100;
}

/** The largest of `sizes` at which `text` fits `width` in the current font (the smallest when none does: fitLine cuts it then). */
function fitSize(doc: PDFKit.PDFDocument, text: string, width: number, sizes: number[]): number {
  for (const size of sizes) if (doc.fontSize(size).widthOfString(text) <= width) return size;
  return sizes[sizes.length - 1]!;
}

function drawTableHead(doc: PDFKit.PDFDocument, y: number): number {
  doc.save().rect(M, y, CONTENT_W, 18).fill('#e6e6e6').restore();
  doc.font(FONT_BOLD).fontSize(8).fillColor('black');
  let x = M + 4;
  const head = (text: string, w: number) => {
    doc.text(fitLine(doc, text, w - 6), x, y + 5, { lineBreak: false });
    x += w;
  };
  head('#', COLS.index);
  head('Číslo zásilky / Carrier no.', COLS.number);
  head('Příjemce / Recipient', COLS.recipient);
  head('Balíky / Pkgs', COLS.packages);
  head('Dobírka / COD', CONTENT_W - COLS.index - COLS.number - COLS.recipient - COLS.packages);
  return y + 22;
}

function drawRowText(doc: PDFKit.PDFDocument, row: ProtocolRow, i: number, y: number): number {
  let x = M + 4;
  const cell = (text: string, w: number, bold = false) => {
    doc.font(bold ? FONT_BOLD : FONT).fillColor('black');
    doc.fontSize(fitSize(doc, text, w - 6, [9, 8, 7.5]));
    doc.text(fitLine(doc, text, w - 6), x, y + 3, { lineBreak: false });
    x += w;
  };
  cell(String(i + 1), COLS.index);
  cell(row.deliveryNumber, COLS.number, true);
  cell(row.recipientName, COLS.recipient);
  cell(String(row.barcodes.length), COLS.packages);
  cell(
    row.cod ? formatMoney(row.cod.amount, row.cod.currency) : '–',
    CONTENT_W - COLS.index - COLS.number - COLS.recipient - COLS.packages,
    !!row.cod,
  );
  return y + 16;
}

function drawTotalsAndSignatures(doc: PDFKit.PDFDocument, p: ProtocolData, y: number): void {
  const packages = p.rows.reduce((n, r) => n + r.barcodes.length, 0);
  const codByCurrency = new Map<string, string[]>();
  for (const r of p.rows)
    if (r.cod) codByCurrency.set(r.cod.currency, [...(codByCurrency.get(r.cod.currency) ?? []), r.cod.amount]);
  const cod = [...codByCurrency].map(([cur, amounts]) => formatMoney(addDecimals(amounts), cur)).join(', ');

  doc.font(FONT_BOLD).fontSize(11).fillColor('black');
  doc.text(`Zásilek / Shipments: ${p.rows.length}`, M, y, { lineBreak: false });
  doc.text(`Balíků / Packages: ${packages}`, M + 170, y, { lineBreak: false });
  // The COD total is money the courier signs for: never cut. It has a line of its own across the
  // page ("1 234 567,89 CZK" did not fit beside the counts), wrapping between currencies if needed.
  let below = y + 20;
  if (cod) {
    const line = `Dobírky / COD: ${cod}`;
    doc.text(line, M, y + COD_LINE_H, { width: CONTENT_W });
    below = y + COD_LINE_H + 4 + doc.heightOfString(line, { width: CONTENT_W });
  }
  doc.font(FONT).fontSize(8.5);
  doc.text(
    `Dopravce svým podpisem potvrzuje převzetí ${p.rows.length} zásilek (${packages} balíků) uvedených v tomto protokolu. ` +
      `By signing, the courier confirms receipt of the shipments listed above.`,
    M,
    below,
    { width: CONTENT_W },
  );

  const sy = below + 60;
  const w = CONTENT_W / 2 - 20;
  const sign = (x: number, title: string) => {
    doc
      .save()
      .lineWidth(0.8)
      .moveTo(x, sy + 30)
      .lineTo(x + w, sy + 30)
      .stroke()
      .restore();
    doc
      .font(FONT_BOLD)
      .fontSize(8.5)
      .text(fitLine(doc, title, w), x, sy + 34, { lineBreak: false });
    doc
      .font(FONT)
      .fontSize(8)
      .text('jméno, podpis / name, signature', x, sy + 46, { lineBreak: false });
    // Left blank: the courier writes the actual pick-up date, which may differ from creation.
    doc.text('Datum / Date: ____________________', x, sy + 58, { lineBreak: false });
  };
  sign(M, 'Předal (odesílatel) / Handed over by (sender)');
  sign(M + CONTENT_W / 2 + 20, 'Převzal (dopravce) / Received by (courier)');
}

function drawPageNumbers(doc: PDFKit.PDFDocument, p: ProtocolData): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.font(FONT).fontSize(8).fillColor('#333333');
    const y = PAGE[1] - M - 10;
    doc.text(`Předávací protokol č. ${p.collectionProtocolId} · ${p.agent.name}`, M, y, { lineBreak: false });
    doc.text(`Strana ${i - range.start + 1} / ${range.count}`, M, y, {
      width: CONTENT_W,
      align: 'right',
      lineBreak: false,
    });
  }
}
