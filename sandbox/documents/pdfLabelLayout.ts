/**
 * The layout of one package label inside a box (about 94 x 139 mm: an A4 quarter or a 100 x 150
 * mm roll label, each less its print margin). Top to bottom: carrier and package i/n, sender,
 * recipient (largest, it is what the courier reads), COD (inverted, cannot be missed), carrier
 * number / weight / date, note, and the package barcode at the bottom where handheld scanners
 * expect it. Every text is clipped to its zone, so long data never overlaps the barcode.
 */
import type { LabelData } from './labelData';
import { formatDateTime, formatMoney, formatWeight } from './format';
import { drawCode128, fitLine, FONT, FONT_BOLD, MM } from './pdfParts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const HEADER_H = 46;
const SENDER_H = 48;
const COD_H = 36;
const INFO_H = 30;
const NOTE_H = 30;
const BARCODE_H = 90;
const GAP = 5;

export function drawLabel(doc: PDFKit.PDFDocument, label: LabelData, box: Box): void {
  const { x, w } = box;
  let y = box.y;
  doc.save().lineWidth(1.2).strokeColor('black').rect(box.x, box.y, box.w, box.h).stroke().restore();
  const pad = 6;
  const ix = x + pad;
  const iw = w - 2 * pad;

  // Header: carrier, service, package i/n.
  const pkgW = 78;
  doc.font(FONT_BOLD).fontSize(15).fillColor('black');
  doc.text(fitLine(doc, label.agent.name, iw - pkgW), ix, y + 6, { lineBreak: false });
  if (label.deliveryTypeName) {
    doc.font(FONT).fontSize(8);
    doc.text(fitLine(doc, label.deliveryTypeName, iw - pkgW), ix, y + 27, { lineBreak: false });
  }
  caption(doc, 'BALÍK / PACKAGE', ix + iw - pkgW, y + 5, pkgW, 'right');
  doc.font(FONT_BOLD).fontSize(20);
  doc.text(`${label.packageIndex}/${label.packageCount}`, ix + iw - pkgW, y + 15, {
    width: pkgW,
    align: 'right',
    lineBreak: false,
  });
  y += HEADER_H;
  rule(doc, x, y, w, 1.2);

  // Sender: small, it only matters when the parcel comes back.
  caption(doc, 'ODESÍLATEL / SENDER', ix, y + 4, iw);
  doc.font(FONT_BOLD).fontSize(8.5);
  doc.text(fitLine(doc, label.sender.name, iw), ix, y + 13, { lineBreak: false });
  doc.font(FONT).fontSize(7.5);
  doc.text(fitLine(doc, label.sender.lines.join(', '), iw), ix, y + 24, { lineBreak: false });
  y += SENDER_H - 14;
  rule(doc, x, y, w, 1.2);

  // Bottom-up fixed zones, so the recipient gets whatever height is left.
  const barcodeTop = box.y + box.h - BARCODE_H;
  const noteTop = label.ticketNote ? barcodeTop - NOTE_H : barcodeTop;
  const infoTop = noteTop - INFO_H;
  const codTop = label.cod ? infoTop - COD_H : infoTop;

  drawRecipient(doc, label, { x: ix, y: y + 4, w: iw, h: codTop - y - 4 - GAP });

  if (label.cod) {
    doc
      .save()
      .rect(x, codTop, w, infoTop - codTop)
      .fill('black')
      .restore();
    doc.font(FONT_BOLD).fontSize(9).fillColor('white');
    doc.text('DOBÍRKA', ix, codTop + 5, { lineBreak: false });
    doc.text('COD', ix, codTop + 17, { lineBreak: false });
    // The amount to collect is never cut: it shrinks to fit instead.
    const amount = formatMoney(label.cod.amount, label.cod.currency);
    const size = shrinkToFit(doc, amount, iw - 60, 18, 8);
    doc
      .fontSize(size)
      .text(amount, ix + 60, codTop + 6 + (18 - size) / 2, { width: iw - 60, align: 'right', lineBreak: false });
    doc.fillColor('black');
  }

  rule(doc, x, infoTop, w, 1.2);
  const col = iw / 3;
  infoCell(doc, 'ČÍSLO ZÁSILKY / CARRIER NO.', label.deliveryNumber, ix, infoTop + 4, col * 1.25, 10);
  infoCell(doc, 'VÁHA / WEIGHT', formatWeight(label.weight), ix + col * 1.25, infoTop + 4, col * 0.75, 10);
  infoCell(doc, 'PODÁNO / CREATED', formatDateTime(label.created), ix + col * 2, infoTop + 4, col, 8.5);

  if (label.ticketNote) {
    rule(doc, x, noteTop, w, 0.6);
    caption(doc, 'POZNÁMKA / NOTE', ix, noteTop + 3, iw);
    doc.font(FONT).fontSize(7.5).fillColor('black');
    doc.text(label.ticketNote, ix, noteTop + 11, { width: iw, height: NOTE_H - 12, ellipsis: true, lineGap: -1 });
  }

  rule(doc, x, barcodeTop, w, 1.2);
  drawCode128(doc, label.barcode, {
    x,
    y: barcodeTop + 6,
    maxWidth: w,
    barHeight: 22 * MM,
    maxModule: 0.5 * MM,
    fontSize: 10,
  });
}

function drawRecipient(doc: PDFKit.PDFDocument, label: LabelData, b: Box): void {
  const r = label.recipient;
  caption(doc, 'PŘÍJEMCE / RECIPIENT', b.x, b.y, b.w);
  let y = b.y + 10;
  const bottom = b.y + b.h;
  doc.font(FONT_BOLD).fontSize(17).fillColor('black');
  // The name may take two lines; everything else one line each, dropped when out of room.
  const nameH = Math.min(doc.heightOfString(r.name, { width: b.w }), 17 * 1.2 * 2);
  doc.text(r.name, b.x, y, { width: b.w, height: nameH + 1, ellipsis: true });
  y += nameH + 2;
  // Phone and pick-up point are what a courier needs at the door: keep room for them.
  const reserved = (r.phone ? 11 * 1.25 + 3 : 0) + (r.pickUpPlace ? 2 * 9 * 1.2 : 0);
  const line = (text: string, size: number, bold = false, limit = bottom) => {
    if (y + size * 1.2 > limit) return;
    doc.font(bold ? FONT_BOLD : FONT).fontSize(size);
    doc.text(fitLine(doc, text, b.w), b.x, y, { lineBreak: false });
    y += size * 1.25;
  };
  if (r.contactPerson && r.contactPerson !== r.name) line(r.contactPerson, 11);
  y += 3;
  for (const l of r.lines) line(l, 14, true, bottom - reserved);
  y += 3;
  if (r.phone) line(`Tel.: ${r.phone}`, 11);
  if (r.pickUpPlace && y + 9 * 1.2 <= bottom) {
    // A pick-up point's name is the delivery address itself: give it two lines rather than cut it.
    const text = `Výdejní místo / Pick-up point: ${r.pickUpPlace}`;
    doc.font(FONT_BOLD).fontSize(9);
    const lines = Math.min(2, Math.floor((bottom - y) / (9 * 1.2)));
    doc.text(text, b.x, y, { width: b.w, height: lines * 9 * 1.2 + 1, ellipsis: true });
  }
}

/** The largest font size from `max` down to `min` at which `text` fits `width` on one line. */
function shrinkToFit(doc: PDFKit.PDFDocument, text: string, width: number, max: number, min: number): number {
  for (let size = max; size > min; size -= 0.5) if (doc.fontSize(size).widthOfString(text) <= width) return size;
  return min;
}

function caption(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  width: number,
  align: 'left' | 'right' = 'left',
): void {
  doc.font(FONT).fontSize(6).fillColor('#333333');
  doc.text(fitLine(doc, text, width), x, y, { width, align, lineBreak: false });
  doc.fillColor('black');
}

function infoCell(
  doc: PDFKit.PDFDocument,
  title: string,
  value: string,
  x: number,
  y: number,
  width: number,
  size: number,
): void {
  caption(doc, title, x, y, width - 4);
  doc.font(FONT_BOLD).fillColor('black');
  doc.fontSize(shrinkToFit(doc, value, width - 4, size, 6));
  doc.text(fitLine(doc, value, width - 4), x, y + 10, { lineBreak: false });
}

function rule(doc: PDFKit.PDFDocument, x: number, y: number, w: number, width: number): void {
  doc
    .save()
    .lineWidth(width)
    .strokeColor('black')
    .moveTo(x, y)
    .lineTo(x + w, y)
    .stroke()
    .restore();
}
