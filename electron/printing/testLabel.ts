/**
 * A small test label per printer: ZPL for label printers, a one-page PDF for system printers. In the
 * station's language (the worker's, as the demo pick list), with the time as the desk's clock shows
 * it, not UTC: the worker reads it at the printer to tell this label from an older one.
 */
import PDFDocument from 'pdfkit';
import { formatLocalDateTime } from '../../shared/dateTime';
import { documentFonts } from '../documents/documentFonts';

export type TestLabelLanguage = 'en' | 'cs';

const TEXTS = {
  en: {
    title: 'Label station test print',
    builtIn: { 'virtual-zpl': 'Virtual label printer (ZPL)', 'virtual-pdf': 'Virtual office printer (PDF folder)' },
  },
  cs: {
    title: 'Zkušební tisk stanice štítků',
    builtIn: {
      'virtual-zpl': 'Virtuální tiskárna štítků (ZPL)',
      'virtual-pdf': 'Virtuální kancelářská tiskárna (složka PDF)',
    },
  },
} as const;

export interface TestLabelPrinter {
  id: string;
  name: string;
  /** A built-in printer: its name is the station's, said in the label's language (renderer/src/i18n/printerName.ts). */
  builtIn: boolean;
}

/** The label's three lines: title, printer, local date and time ("26. 11. 2026 9:45:18" / "26/11/2026, 09:45:18"). */
export function testLabelLines(p: TestLabelPrinter, at: Date, language: TestLabelLanguage): [string, string, string] {
  const tx = TEXTS[language];
  const name = p.builtIn && p.id in tx.builtIn ? tx.builtIn[p.id as keyof typeof tx.builtIn] : p.name;
  const when = formatLocalDateTime(at, language, { seconds: true });
  return [tx.title, name, when];
}

/** 10x5 cm at 300 dpi like the service's labels, with a Code 128 the worker can scan. */
export function testLabelZpl(p: TestLabelPrinter, at: Date, language: TestLabelLanguage): string {
  // ^ and ~ would start ZPL commands inside a field.
  const [title, name, when] = testLabelLines(p, at, language).map((l) => l.replace(/[\^~]/g, ' ')) as [
    string,
    string,
    string,
  ];
  return [
    '^XA^CI28^PW1200^LL600^LH0,0',
    `^FO40,40^A0N,50,50^FD${title}^FS`,
    `^FO40,110^A0N,40,40^FD${name.slice(0, 40)}^FS`,
    `^FO40,160^A0N,30,30^FD${when}^FS`,
    '^FO60,230^BY3,3,200^BCN,200,Y,N,N^FDTEST-PRINT^FS',
    '^XZ',
  ].join('\n');
}

export function testLabelPdf(p: TestLabelPrinter, at: Date, language: TestLabelLanguage): Promise<Buffer> {
  const [title, name, when] = testLabelLines(p, at, language);
  const doc = new PDFDocument({ size: [283, 425], margin: 20, info: { Title: title } });
  // pdfkit's Helvetica has no ř, ů, č: the station's embedded font.
  const fonts = documentFonts();
  doc.registerFont('DejaVu', fonts.regular);
  doc.registerFont('DejaVu-Bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((r) => doc.on('end', () => r(Buffer.concat(chunks))));
  doc.font('DejaVu-Bold').fontSize(16).text(title);
  doc.moveDown().font('DejaVu').fontSize(12).text(name);
  doc.text(when);
  doc.rect(20, 150, 243, 120).stroke();
  doc.end();
  return done;
}
