/**
 * Label previews for the UI, so the worker sees what printed: ZPL rendered with zpl-renderer-js,
 * PDF pages with pdfjs-dist, both in a worker thread (previewRenderer.ts). PNGs as base64.
 *
 * A ZPL preview is of the bytes the printer gets (after its settings and resolution conversion,
 * zplPrepare.ts), decoded with the label's own encoding, at the printer's dots per millimetre and
 * on the label's real size (its ^PW x ^LL).
 */
import type { PreviewPage } from '../../shared/contract/printing';
import { StationError } from '../base/stationError';
import { zplTextOf } from './zplBytes';
import { dpmmOf, zplLabelSizeMm } from './zplResolution';
import { renderPdfInWorker } from './previewRenderer';
import { renderZplPngs } from './zplRender';

function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Renders every label of ZPL bytes laid out for a `dpi` printer, dot for dot at that resolution. */
export async function previewZpl(zpl: Buffer, size: string | null, dpi = 300): Promise<PreviewPage[]> {
  const { widthMm, heightMm } = zplLabelSizeMm(zpl, dpi, size);
  const pngs = await renderZplPngs(zplTextOf(zpl), widthMm, heightMm, dpmmOf(dpi));
  return pngs.map((png) => ({ png, ...pngSize(Buffer.from(png, 'base64')) }));
}

/**
 * Every page of a PDF (a label sheet, a collection protocol, the pick list) at `dpi`, rendered in
 * the preview worker with pdfjs-dist on @napi-rs/canvas: no system tool (pdftoppm is not on
 * Windows or macOS), the same pixels on every OS. The fonts are those embedded in the PDF.
 */
export async function previewPdf(pdf: Buffer, dpi = 96): Promise<PreviewPage[]> {
  try {
    return await renderPdfInWorker(pdf, dpi);
  } catch (e) {
    throw new StationError(
      'preview_unavailable',
      `The PDF could not be rendered for preview (${(e as Error).message}).`,
      { reason: 'render' },
    );
  }
}
