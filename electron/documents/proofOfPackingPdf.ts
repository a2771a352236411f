/**
 * "Proof of packing": an A4 PDF with a page per parcel for the e-shop to send with a
 * claim: the parcel's photos (time, desk, operator), the weight taken and whether a correction was
 * sent, every package's label as printed (the print queue's preview of the job), the carrier and
 * the times of scan, close and print; per package its label's first print beside each reprint's
 * time and reason, so a reprint never hides when the label first came out. Pure drawing: the handler (electron/camera/proofOfPacking.ts) gathers the facts.
 */
import PDFDocument from 'pdfkit';
import { documentFonts } from './documentFonts';
import { pdfBuffer } from './pdfBuffer';

export type ProofLanguage = 'en' | 'cs';

export interface ProofPhoto {
  jpeg: Buffer;
  width: number;
  height: number;
  takenAt: string;
  kind: 'scan' | 'printed';
  desk: string;
  operatorName: string | null;
}

export interface ProofParcel {
  deliveryId: number;
  externalId: string | null;
  deliveryNumber: string | null;
  carrier: string | null;
  recipientName: string;
  /** Each package's weight taken at the desk (kg, exact decimals as stored); empty: no scale. */
  weights: { packageNumber: number; kg: string | null }[];
  /** What the weights did at the service: sent as a correction, within tolerance, or nothing known. */
  correction: 'sent' | 'within_tolerance' | 'not_sent' | null;
  scannedAt: string | null;
  closedAt: string | null;
  printedAt: string | null;
  /** Every package's label as printed (PNGs of the job's preview, one per label); empty when none is kept. */
  labelPngs: Buffer[];
  /** Per package: its label's first print and each reprint (time, reason). */
  packagePrints: {
    number: number;
    of: number;
    firstPrintedAt: string | null;
    reprints: { at: string; reasonCode: string | null; note: string | null }[];
  }[];
  photos: ProofPhoto[];
}

const TEXTS = {
  en: {
    title: 'Proof of packing',
    parcel: 'Parcel',
    order: 'Order',
    carrierNumber: 'Carrier’s number',
    carrier: 'Carrier',
    recipient: 'Recipient',
    scanned: 'Scanned',
    closed: 'Closed',
    printed: 'Label printed',
    weight: 'Weight taken',
    noWeight: 'not weighed at the desk',
    correction: 'Weight sent to the service',
    corrections: { sent: 'yes, as a correction', within_tolerance: 'no, within tolerance', not_sent: 'no' },
    label: 'Labels as printed',
    noLabel: 'No label preview is kept for this parcel.',
    packageLabel: (n: number, of: number) => `Label of package ${n}/${of}`,
    firstPrinted: 'first printed',
    notPrinted: 'not printed yet',
    reprinted: 'reprinted',
    reasons: { damaged: 'damaged label', lost: 'label lost', wrong_printer: 'wrong printer', other: 'other' },
    photos: 'Photos',
    noPhotos: 'No photo was taken of this parcel.',
    kind: { scan: 'at scan', printed: 'at print' },
    nobody: 'nobody signed in',
    desk: 'desk',
    package: 'package',
    made: 'Made by Label Station on',
  },
  cs: {
    title: 'Doklad o zabalení',
    parcel: 'Zásilka',
    order: 'Objednávka',
    carrierNumber: 'Číslo dopravce',
    carrier: 'Dopravce',
    recipient: 'Příjemce',
    scanned: 'Naskenováno',
    closed: 'Uzavřeno',
    printed: 'Štítek vytištěn',
    weight: 'Zvážená hmotnost',
    noWeight: 'nevážilo se u stolu',
    correction: 'Hmotnost odeslána do služby',
    corrections: { sent: 'ano, jako oprava', within_tolerance: 'ne, v toleranci', not_sent: 'ne' },
    label: 'Štítky, jak se vytiskly',
    noLabel: 'Náhled štítku této zásilky se neuchovává.',
    packageLabel: (n: number, of: number) => `Štítek balíku ${n}/${of}`,
    firstPrinted: 'poprvé vytištěn',
    notPrinted: 'zatím nevytištěn',
    reprinted: 'znovu vytištěn',
    reasons: {
      damaged: 'poškozený štítek',
      lost: 'ztracený štítek',
      wrong_printer: 'špatná tiskárna',
      other: 'jiný důvod',
    },
    photos: 'Fotografie',
    noPhotos: 'Zásilka nebyla vyfotografována.',
    kind: { scan: 'při skenu', printed: 'při tisku' },
    nobody: 'nikdo nepřihlášen',
    desk: 'stůl',
    package: 'balík',
    made: 'Vytvořila Tisková stanice',
  },
} as const;

const PAGE: [number, number] = [595.28, 841.89];
const M = 40;
const COL = (PAGE[0] - 2 * M - 15) / 2;
const FONT = 'DejaVu';
const BOLD = 'DejaVu-Bold';

/** Times in the document: the station's zone, both languages' usual order, to the second. */
function timeText(iso: string | null, language: ProofLanguage, timeZone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(language === 'cs' ? 'cs-CZ' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone,
  }).format(new Date(iso));
}

function kgText(kg: string, language: ProofLanguage): string {
  return `${language === 'cs' ? kg.replace('.', ',') : kg} kg`;
}

/** Fits an image of w×h into a box, keeping its proportions. */
function fit(w: number, h: number, boxW: number, boxH: number): { width: number; height: number } {
  const s = Math.min(boxW / w, boxH / h);
  return { width: w * s, height: h * s };
}

/**
 * Every label of the parcel, one under another in the left column, each as large as its share of
 * the column allows (their barcodes must stay readable), captioned with its package when there are several.
 */
function drawLabels(
  doc: PDFKit.PDFDocument,
  pngs: Buffer[],
  top: number,
  caption: ((n: number, of: number) => string) | null,
): void {
  const captionH = caption ? 13 : 0;
  const share = (PAGE[1] - top - M - 20) / pngs.length - captionH - 6;
  let y = top;
  pngs.forEach((png, i) => {
    if (caption)
      doc
        .font(FONT)
        .fontSize(9)
        .fillColor('black')
        .text(caption(i + 1, pngs.length), M, y, { width: COL });
    // A PNG's size is in its IHDR chunk (bytes 16–23).
    const s = fit(png.readUInt32BE(16), png.readUInt32BE(20), COL, share);
    doc.image(png, M, y + captionH, s);
    doc
      .rect(M, y + captionH, s.width, s.height)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    y += captionH + s.height + 6;
  });
}

export async function renderProofOfPackingPdf(
  parcels: ProofParcel[],
  opts: { language: ProofLanguage; created: Date; timeZone?: string },
): Promise<Buffer> {
  const tx = TEXTS[opts.language];
  const at = (iso: string | null) => timeText(iso, opts.language, opts.timeZone);
  /** "first printed …; reprinted … (label lost)": the first print stays beside every reprint. */
  const printsText = (k: ProofParcel['packagePrints'][number]) =>
    [
      k.firstPrintedAt ? `${tx.firstPrinted} ${at(k.firstPrintedAt)}` : tx.notPrinted,
      ...k.reprints.map((r) => {
        const why =
          r.reasonCode && r.reasonCode in tx.reasons ? tx.reasons[r.reasonCode as keyof typeof tx.reasons] : null;
        const words = r.note ? `${why ?? ''}: ${r.note}` : why;
        return `${tx.reprinted} ${at(r.at)}${words ? ` (${words})` : ''}`;
      }),
    ].join('; ');
  const doc = new PDFDocument({
    size: PAGE,
    margin: 0,
    autoFirstPage: false,
    info: { Title: tx.title, Creator: 'Label Station', CreationDate: opts.created },
  });
  const fonts = documentFonts();
  doc.registerFont(FONT, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);

  for (const p of parcels) {
    doc.addPage({ size: PAGE, margin: 0 });
    doc
      .font(BOLD)
      .fontSize(18)
      .fillColor('black')
      .text(`${tx.title}: ${tx.parcel} ${p.deliveryId}`, M, M, {
        width: PAGE[0] - 2 * M,
      });
    const facts: [string, string][] = [
      [tx.order, p.externalId ?? '—'],
      [tx.carrierNumber, p.deliveryNumber ?? '—'],
      [tx.carrier, p.carrier ?? '—'],
      [tx.recipient, p.recipientName],
      [tx.scanned, at(p.scannedAt)],
      [tx.closed, at(p.closedAt)],
      [tx.printed, at(p.printedAt)],
      ...p.packagePrints.map((k): [string, string] => [tx.packageLabel(k.number, k.of), printsText(k)]),
      [
        tx.weight,
        p.weights.length === 0
          ? tx.noWeight
          : p.weights
              .map((w) => `${tx.package} ${w.packageNumber}: ${w.kg ? kgText(w.kg, opts.language) : '—'}`)
              .join(', '),
      ],
      [tx.correction, p.correction ? tx.corrections[p.correction] : '—'],
    ];
    let y = M + 32;
    for (const [k, v] of facts) {
      doc.font(BOLD).fontSize(10).text(`${k}:`, M, y, { width: 190 });
      const labelEnd = doc.y;
      doc
        .font(FONT)
        .fontSize(10)
        .text(v, M + 195, y, { width: PAGE[0] - 2 * M - 195 });
      // A long name (Czech) or value may take two lines: the next fact starts below both.
      y = Math.max(y + 15, doc.y + 2, labelEnd + 2);
    }
    y += 10;
    const top = y;
    // Left: the label as printed, as large as the column allows (its barcode must stay readable).
    doc.font(BOLD).fontSize(11).text(tx.label, M, top, { width: COL });
    if (p.labelPngs.length) drawLabels(doc, p.labelPngs, top + 18, p.labelPngs.length > 1 ? tx.packageLabel : null);
    else
      doc
        .font(FONT)
        .fontSize(10)
        .text(tx.noLabel, M, top + 18, { width: COL });
    // Right: the photos, one under another, each with when, where and who.
    const x = M + COL + 15;
    doc.font(BOLD).fontSize(11).fillColor('black').text(tx.photos, x, top, { width: COL });
    let py = top + 18;
    if (p.photos.length === 0) doc.font(FONT).fontSize(10).text(tx.noPhotos, x, py, { width: COL });
    for (const ph of p.photos) {
      const s = fit(ph.width, ph.height, COL, 200);
      if (py + s.height + 30 > PAGE[1] - M - 20) {
        doc.addPage({ size: PAGE, margin: 0 });
        py = M;
      }
      doc.image(ph.jpeg, x, py, s);
      const caption = `${at(ph.takenAt)} (${tx.kind[ph.kind]}), ${tx.desk} ${ph.desk}, ${ph.operatorName ?? tx.nobody}`;
      doc
        .font(FONT)
        .fontSize(8.5)
        .fillColor('#333333')
        .text(caption, x, py + s.height + 3, { width: COL });
      doc.fillColor('black');
      py = doc.y + 10;
    }
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor('#555555')
      .text(`${tx.made} ${at(opts.created.toISOString())}`, M, PAGE[1] - M, {
        width: PAGE[0] - 2 * M,
        lineBreak: false,
      });
    doc.fillColor('black');
  }
  return pdfBuffer(doc);
}
