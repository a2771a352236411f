/**
 * Label previews for the UI, so the worker sees what printed: ZPL rendered with zpl-renderer-js,
 * PDF pages rendered with pdftoppm (poppler). PNGs as base64.
 *
 * A ZPL preview is of the bytes the printer gets (after its settings and resolution conversion,
 * zplPrepare.ts), decoded with the label's own encoding, at the printer's dots per millimetre and
 * on the label's real size (its ^PW x ^LL).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PreviewPage } from '../../shared/contract/printing';
import { StationError } from '../stationError';
import { zplTextOf } from './zplBytes';
import { dpmmOf, zplLabelSizeMm } from './zplResolution';
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

export async function previewPdf(pdf: Buffer, dpi = 96): Promise<PreviewPage[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'preview-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    await new Promise<void>((resolve, reject) =>
      execFile('pdftoppm', ['-r', String(dpi), '-png', file, path.join(dir, 'page')], { timeout: 30_000 }, (err) => {
        if (!err) return resolve();
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        reject(new StationError('preview_unavailable', missing ? 'PDF previews need pdftoppm (poppler-utils) on this computer.' : 'The PDF could not be rendered for preview.', { reason: missing ? 'no_pdftoppm' : 'render' }));
      }),
    );
    return readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort()
      .map((f) => {
        const png = readFileSync(path.join(dir, f));
        return { png: png.toString('base64'), ...pngSize(png) };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
