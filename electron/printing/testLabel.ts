/** A small test label per printer: ZPL for label printers, a one-page PDF for system printers. */
import PDFDocument from 'pdfkit';

/** 10x5 cm at 300 dpi like the service's labels, with a Code 128 the worker can scan. */
export function testLabelZpl(printerName: string, at: Date): string {
  const name = printerName.replace(/[\^~]/g, ' ').slice(0, 40);
  return [
    '^XA^CI28^PW1200^LL600^LH0,0',
    '^FO40,40^A0N,50,50^FDLabel station test print^FS',
    `^FO40,110^A0N,40,40^FD${name}^FS`,
    `^FO40,160^A0N,30,30^FD${at.toISOString()}^FS`,
    '^FO60,230^BY3,3,200^BCN,200,Y,N,N^FDTEST-PRINT^FS',
    '^XZ',
  ].join('\n');
}

export function testLabelPdf(printerName: string, at: Date): Promise<Buffer> {
  const doc = new PDFDocument({ size: [283, 425], margin: 20 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((r) => doc.on('end', () => r(Buffer.concat(chunks))));
  doc.fontSize(16).text('Label station test print');
  doc.moveDown().fontSize(12).text(printerName);
  doc.text(at.toISOString());
  doc.rect(20, 150, 243, 120).stroke();
  doc.end();
  return done;
}
