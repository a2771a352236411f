/**
 * PDF package labels (spec "GET /api/v3/deliveries/tickets").
 *
 * printFormat `default`: A4 portrait sheets with four 105 x 148.5 mm labels per page, numbered in
 * reading order:
 *
 *     +-----+-----+
 *     |  1  |  2  |      position = where the FIRST label goes (1-4, spec "Label start position"),
 *     +-----+-----+      so a half-used sheet of labels can be fed again; the following labels
 *     |  3  |  4  |      fill 2, 3, 4 and continue at 1 of the next page.
 *     +-----+-----+
 *
 * printFormat `single`: one label per 100 x 150 mm page (roll printers); position is ignored.
 */
import { drawLabel } from './pdfLabelLayout';
import { checkLabel, DocumentError, type LabelData } from './labelData';
import { MM, newDocument, toBuffer } from './pdfParts';

export type PrintFormat = 'default' | 'single';
export type LabelPosition = 1 | 2 | 3 | 4;

const A4: [number, number] = [210 * MM, 297 * MM];
const SINGLE: [number, number] = [100 * MM, 150 * MM];
/** Office printers cannot print the outer ~4 mm of a sheet; keep every label's content inside. */
const A4_INSET = 5 * MM;
const SINGLE_INSET = 3 * MM;

/** Where label number `index` (0-based) of a request lands: page and quadrant (1-4). */
export function slotOf(index: number, position: LabelPosition): { page: number; quadrant: LabelPosition } {
  const slot = position - 1 + index;
  return { page: Math.floor(slot / 4), quadrant: ((slot % 4) + 1) as LabelPosition };
}

export async function renderLabelsPdf(
  labels: LabelData[],
  opts: { printFormat: PrintFormat; position: LabelPosition },
): Promise<Buffer> {
  if (!Array.isArray(labels) || labels.length === 0)
    throw new DocumentError('NO_LABELS', 'there are no package labels to print');
  labels.forEach((l, i) => checkLabel(l, `[${i}]`));
  if (![1, 2, 3, 4].includes(opts.position)) {
    throw new DocumentError('INVALID_LABEL', `position must be 1, 2, 3 or 4, not ${String(opts.position)}`, 'position');
  }
  const created = labels[0]!.created;
  const title = `Labels ${labels
    .map((l) => l.deliveryNumber)
    .filter((n, i, a) => a.indexOf(n) === i)
    .join(', ')}`;

  if (opts.printFormat === 'single') {
    const doc = newDocument({ size: SINGLE, created, title });
    for (const label of labels) {
      doc.addPage({ size: SINGLE, margin: 0 });
      drawLabel(doc, label, {
        x: SINGLE_INSET,
        y: SINGLE_INSET,
        w: SINGLE[0] - 2 * SINGLE_INSET,
        h: SINGLE[1] - 2 * SINGLE_INSET,
      });
    }
    return toBuffer(doc);
  }

  const doc = newDocument({ size: A4, created, title });
  const [pw, ph] = A4;
  let currentPage = -1;
  labels.forEach((label, i) => {
    const { page, quadrant } = slotOf(i, opts.position);
    while (currentPage < page) {
      doc.addPage({ size: A4, margin: 0 });
      drawCutLines(doc, pw, ph);
      currentPage++;
    }
    const col = (quadrant - 1) % 2;
    const row = Math.floor((quadrant - 1) / 2);
    drawLabel(doc, label, {
      x: col * (pw / 2) + A4_INSET,
      y: row * (ph / 2) + A4_INSET,
      w: pw / 2 - 2 * A4_INSET,
      h: ph / 2 - 2 * A4_INSET,
    });
  });
  return toBuffer(doc);
}

/** Light dashed guides for cutting plain paper; pre-cut label sheets simply ignore them. */
function drawCutLines(doc: PDFKit.PDFDocument, pw: number, ph: number): void {
  doc.save().lineWidth(0.5).strokeColor('#b0b0b0').dash(4, { space: 4 });
  doc
    .moveTo(pw / 2, 0)
    .lineTo(pw / 2, ph)
    .stroke();
  doc
    .moveTo(0, ph / 2)
    .lineTo(pw, ph / 2)
    .stroke();
  doc.undash().restore();
}
