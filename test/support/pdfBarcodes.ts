/**
 * What a scanner reads from a PDF or an image: pages rasterised with pdftoppm (as a printer or a
 * screen shows them), every barcode decoded with zbarimg. Callers check needs('pdftoppm', 'zbarimg').
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function zbar(files: string[]): string[] {
  try {
    return execFileSync('zbarimg', ['-q', '--raw', ...files], { encoding: 'utf8' })
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  } catch (err) {
    // zbarimg exits 4 when it found nothing: no codes, not a failure of the test's own making.
    const out = (err as { stdout?: string }).stdout ?? '';
    return out
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  }
}

/** Every barcode on every page of `pdf`, page by page, in zbarimg's order. */
export function pdfBarcodes(pdf: Buffer, dpi = 150): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-codes-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()
      .map((f) => path.join(dir, f));
    return zbar(pages);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every barcode in one PNG (e.g. a preview page the UI shows). */
export function pngBarcodes(png: Buffer): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'png-codes-'));
  try {
    const file = path.join(dir, 'img.png');
    writeFileSync(file, png);
    return zbar([file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
