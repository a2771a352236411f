/**
 * The demo pick list: an A4 PDF with one Code 128 per prepared demo shipment,
 * its carrier and recipient beside it, so a new user can try scan-to-close in a minute, from
 * paper or straight from the screen.
 *
 * Scannable from the screen too: the module is 1.5 pt and every symbol starts on a multiple of
 * 3 pt, so at the preview's 96 dpi (4 px per 3 pt) each module is exactly 2 pixels and no bar
 * edge is smeared by anti-aliasing. A code too long for that falls back to 0.75 pt (1 pixel).
 */
import PDFDocument from 'pdfkit';
import { code128Bars, drawCode128, QUIET_ZONE_MODULES } from './code128Bars';
import { documentFonts } from './documentFonts';
import { pdfBuffer } from './pdfBuffer';

export interface PickListEntry {
  code: string;
  carrier: string;
  recipientName: string;
  deliveryId: number;
}

export type PickListLanguage = 'en' | 'cs';

const TEXTS = {
  en: {
    title: 'Demo pick list',
    intro:
      'Prepared shipments of the built-in sandbox. Scan a code on the Station screen (F1): the shipment is closed and its label prints. Nothing is sent to a carrier.',
    carrier: 'Carrier',
    recipient: 'Recipient',
    shipment: 'Shipment',
    empty: 'No prepared demo shipments are left. Add one on the New shipment screen (F3).',
    page: (n: number, total: number) => `Page ${n} / ${total}`,
  },
  cs: {
    title: 'Ukázkový seznam k vychystání',
    intro:
      'Připravené zásilky vestavěného sandboxu. Naskenujte kód na obrazovce Stanice (F1): zásilka se uzavře a vytiskne se její štítek. Nic se neodesílá dopravci.',
    carrier: 'Dopravce',
    recipient: 'Příjemce',
    shipment: 'Zásilka',
    empty: 'Žádné připravené ukázkové zásilky nezbyly. Přidejte zásilku na obrazovce Nová zásilka (F3).',
    page: (n: number, total: number) => `Strana ${n} / ${total}`,
  },
} as const;

const PAGE: [number, number] = [595.28, 841.89];
/** A multiple of 3 pt: whole pixels at 96 dpi. */
const LEFT = 42;
const TOP = 42;
const BOTTOM = PAGE[1] - 54;
const MODULES_PT = [1.5, 0.75] as const;
const BAR_AREA = 264;
const BAR_H = 45;
const ROW_H = 72;
const TEXT_X = LEFT + BAR_AREA + 24;
const TEXT_W = PAGE[0] - TEXT_X - LEFT;
const FONT = 'DejaVu';
const BOLD = 'DejaVu-Bold';

/** Bars of `code` with their left quiet zone starting at `x`: the widest module that fits the bar area. */
function drawBarcode(doc: PDFKit.PDFDocument, code: string, x: number, y: number): void {
  const pattern = code128Bars(code);
  const module =
    MODULES_PT.find((m) => (pattern.modules + 2 * QUIET_ZONE_MODULES) * m <= BAR_AREA) ??
    MODULES_PT[MODULES_PT.length - 1]!;
  drawCode128(doc, code, { x, y }, { module, height: BAR_H, font: FONT, characterSpacing: 1 });
}

export async function renderDemoPickListPdf(
  entries: PickListEntry[],
  opts: { language: PickListLanguage; created: Date; companyName?: string },
): Promise<Buffer> {
  const tx = TEXTS[opts.language];
  const doc = new PDFDocument({
    size: PAGE,
    margin: 0,
    autoFirstPage: false,
    bufferPages: true,
    info: { Title: tx.title, Creator: 'Label Station', CreationDate: opts.created },
  });
  const fonts = documentFonts();
  doc.registerFont(FONT, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);

  doc.addPage({ size: PAGE, margin: 0 });
  doc.font(BOLD).fontSize(18).text(tx.title, LEFT, TOP, { lineBreak: false });
  if (opts.companyName)
    doc
      .font(FONT)
      .fontSize(10)
      .fillColor('#333333')
      .text(opts.companyName, LEFT, TOP + 24, { lineBreak: false });
  doc
    .font(FONT)
    .fontSize(9.5)
    .fillColor('black')
    .text(tx.intro, LEFT, TOP + 42, { width: PAGE[0] - 2 * LEFT });
  let y = Math.ceil((doc.y + 15) / 3) * 3;
  if (entries.length === 0)
    doc
      .font(BOLD)
      .fontSize(12)
      .text(tx.empty, LEFT, y, { width: PAGE[0] - 2 * LEFT });

  for (const e of entries) {
    if (y + ROW_H > BOTTOM) {
      doc.addPage({ size: PAGE, margin: 0 });
      y = TOP;
    }
    drawBarcode(doc, e.code, LEFT, y + 6);
    doc
      .font(BOLD)
      .fontSize(13)
      .fillColor('black')
      .text(e.code, TEXT_X, y + 6, { width: TEXT_W, lineBreak: false, ellipsis: true });
    doc
      .font(FONT)
      .fontSize(10)
      .text(`${tx.carrier}: ${e.carrier}`, TEXT_X, y + 25, { width: TEXT_W, lineBreak: false, ellipsis: true });
    doc.text(`${tx.recipient}: ${e.recipientName}`, TEXT_X, y + 39, {
      width: TEXT_W,
      lineBreak: false,
      ellipsis: true,
    });
    doc
      .fillColor('#555555')
      .fontSize(8.5)
      .text(`${tx.shipment} ${e.deliveryId}`, TEXT_X, y + 53, { width: TEXT_W, lineBreak: false });
    doc
      .save()
      .lineWidth(0.5)
      .strokeColor('#999999')
      .moveTo(LEFT, y + ROW_H - 3)
      .lineTo(PAGE[0] - LEFT, y + ROW_H - 3)
      .stroke()
      .restore();
    y += ROW_H;
  }

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor('#555555')
      .text(tx.page(i + 1, range.count), LEFT, PAGE[1] - 36, {
        width: PAGE[0] - 2 * LEFT,
        align: 'right',
        lineBreak: false,
      });
  }
  return pdfBuffer(doc);
}
