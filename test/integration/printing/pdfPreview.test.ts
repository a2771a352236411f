/**
 * PDF previews (label sheets, collection protocols, the pick list) rendered by the station itself
 * (pdfjs-dist on @napi-rs/canvas in the preview worker), checked against poppler's pdftoppm as an
 * independent renderer of the same page: Czech text in the station's embedded font must come out
 * as the same glyphs, not boxes or another font's letters.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { documentFonts } from '../../../electron/documents/documentFonts';
import { previewPdf } from '../../../electron/printing/labelPreview';
import { needs } from '../../support/services';

const CZECH = 'Příliš žluťoučký kůň úpěl ďábelské ódy';
const ASCII = 'Prilis zlutoucky kun upel dabelske ody';

function pdfWith(text: string, font: 'dejavu' | 'helvetica' = 'dejavu'): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A6', margin: 20 });
  if (font === 'dejavu') doc.registerFont('DejaVu', documentFonts().regular).font('DejaVu');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((r) => doc.on('end', () => r(Buffer.concat(chunks))));
  doc.fontSize(22).text(text, 20, 30, { width: 260 });
  doc.rect(20, 200, 150, 60).fill('#000');
  doc.end();
  return done;
}

/** Dark (luma < 128) or not, per pixel. */
async function inkMask(png: Buffer): Promise<{ width: number; height: number; ink: Uint8Array }> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, img.width, img.height);
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, img.width, img.height).data;
  const ink = new Uint8Array(img.width * img.height);
  for (let i = 0; i < ink.length; i++)
    ink[i] = 0.299 * d[i * 4]! + 0.587 * d[i * 4 + 1]! + 0.114 * d[i * 4 + 2]! < 128 ? 1 : 0;
  return { width: img.width, height: img.height, ink };
}

/**
 * How much of the ink of `a` and of `b` (in the text's band) lies within one pixel of the other's
 * ink: the lesser of the two shares. Two renderers anti-alias edges differently; glyphs that
 * differ (a missing háček, a box for a letter) leave whole strokes unmatched.
 */
function inkAgreement(
  a: Awaited<ReturnType<typeof inkMask>>,
  b: Awaited<ReturnType<typeof inkMask>>,
  rows: [number, number],
): number {
  const near = (m: typeof a, x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) if (m.ink[(y + dy) * m.width + x + dx]) return true;
    return false;
  };
  const share = (from: typeof a, to: typeof a) => {
    let ink = 0;
    let matched = 0;
    for (let y = rows[0]; y < rows[1]; y++)
      for (let x = 1; x < from.width - 1; x++)
        if (from.ink[y * from.width + x]) {
          ink++;
          if (near(to, x, y)) matched++;
        }
    return ink === 0 ? 0 : matched / ink;
  };
  return Math.min(share(a, b), share(b, a));
}

function popplerPng(pdf: Buffer, dpi: number): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'poppler-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      String(dpi),
      '-png',
      '-singlefile',
      path.join(dir, 'in.pdf'),
      path.join(dir, 'page'),
    ]);
    return readFileSync(path.join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PDF previews without system tools', () => {
  it('renders every page at the asked resolution on white paper, the filled box where the PDF put it', async () => {
    const pages = await previewPdf(await pdfWith(CZECH), 150);
    expect(pages).toHaveLength(1);
    // A6 is 297.64 x 419.53 pt: at 150 dpi, 620.1 x 874.0 px.
    expect([pages[0]!.width, pages[0]!.height]).toEqual([
      Math.ceil((297.64 * 150) / 72),
      Math.ceil((419.53 * 150) / 72),
    ]);
    const m = await inkMask(Buffer.from(pages[0]!.png, 'base64'));
    expect([m.width, m.height]).toEqual([pages[0]!.width, pages[0]!.height]);
    const at = (xPt: number, yPt: number) =>
      m.ink[Math.round((yPt * 150) / 72) * m.width + Math.round((xPt * 150) / 72)];
    expect(at(95, 230)).toBe(1); // inside rect(20, 200, 150, 60)
    expect(at(95, 300)).toBe(0); // below it: paper
    expect(at(250, 230)).toBe(0); // beside it: paper
  });

  it.skipIf(!needs('pdftoppm'))(
    'Czech text in the embedded font matches what poppler draws from the same PDF',
    async () => {
      const dpi = 150;
      const band: [number, number] = [Math.floor((25 * dpi) / 72), Math.ceil((110 * dpi) / 72)];
      const czech = await pdfWith(CZECH);
      const ours = await inkMask(Buffer.from((await previewPdf(czech, dpi))[0]!.png, 'base64'));
      const poppler = await inkMask(popplerPng(czech, dpi));
      expect([ours.width, ours.height]).toEqual([poppler.width, poppler.height]);
      const same = inkAgreement(ours, poppler, band);
      // The same words without diacritics are a near miss, and the measure sees it: the háčky and
      // čárky must be where poppler draws them.
      const bare = await inkMask(Buffer.from((await previewPdf(await pdfWith(ASCII), dpi))[0]!.png, 'base64'));
      const bareVsCzech = inkAgreement(bare, poppler, band);
      // Measured: 0.9999 for the Czech page, 0.92 for the bare letters against it.
      expect(same).toBeGreaterThan(0.98);
      expect(bareVsCzech).toBeLessThan(0.97);
    },
  );

  it('a damaged PDF is a preview error with a reason, not a crash', async () => {
    await expect(previewPdf(Buffer.from('%PDF-1.4 this is not a pdf'))).rejects.toMatchObject({
      code: 'preview_unavailable',
      details: { reason: 'render' },
    });
    // The renderer is still there for the next preview.
    expect(await previewPdf(await pdfWith(ASCII), 72)).toHaveLength(1);
  });
});
