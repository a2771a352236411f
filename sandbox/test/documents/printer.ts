/**
 * Looks at documents the way a printer and a scanner would: PDFs rasterised with pdftoppm (poppler),
 * ZPL rendered with zpl-renderer-js, barcodes read back with zbarimg. Images go to a temp dir;
 * `keepExample` also copies one to test-results/documents/ for a person to look at.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXAMPLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../test-results/documents',
);

export function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'sandbox-documents-'));
}

let counter = 0;

/** Rasterises every page (or a crop of one page, in pixels at `dpi`) and returns the PNG paths in page order. */
export function rasterise(
  pdf: Buffer,
  dir: string,
  opts: { dpi?: number; page?: number; crop?: { x: number; y: number; w: number; h: number } } = {},
): string[] {
  const name = `doc${++counter}`;
  const pdfPath = path.join(dir, `${name}.pdf`);
  writeFileSync(pdfPath, pdf);
  const args = ['-r', String(opts.dpi ?? 150), '-png'];
  if (opts.page) args.push('-f', String(opts.page), '-l', String(opts.page));
  if (opts.crop)
    args.push(
      '-x',
      String(opts.crop.x),
      '-y',
      String(opts.crop.y),
      '-W',
      String(opts.crop.w),
      '-H',
      String(opts.crop.h),
    );
  execFileSync('pdftoppm', [...args, pdfPath, path.join(dir, name)], { stdio: 'pipe' });
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))
    .sort((a, b) => pageNo(a) - pageNo(b))
    .map((f) => path.join(dir, f));
}

function pageNo(file: string): number {
  return Number(/-(\d+)\.png$/.exec(file)?.[1] ?? 0);
}

/** Every barcode zbarimg reads in the image, in its order; [] when none (zbarimg exits 4). */
export function decode(png: string): string[] {
  try {
    const out = execFileSync('zbarimg', ['--raw', '-q', png], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n').filter((l) => l.length > 0);
  } catch (e) {
    if ((e as { status?: number }).status === 4) return [];
    throw e;
  }
}

/** The PDF's text as a copy-paste would give it: proves glyphs map back to the right characters. */
export function pdfText(pdf: Buffer, dir: string): string {
  const p = path.join(dir, `text${++counter}.pdf`);
  writeFileSync(p, pdf);
  return execFileSync('pdftotext', ['-layout', p, '-'], { encoding: 'utf8' });
}

export function pdfPageCount(pdf: Buffer, dir: string): number {
  const p = path.join(dir, `info${++counter}.pdf`);
  writeFileSync(p, pdf);
  const info = execFileSync('pdfinfo', [p], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** PNG width and height from its IHDR chunk. */
export function pngSize(png: string | Buffer): { width: number; height: number } {
  const b = typeof png === 'string' ? readFileSync(png) : png;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

let zplApi: Promise<{ zplToBase64Async(zpl: string, w?: number, h?: number, dpmm?: number): Promise<string> }> | null =
  null;

/** Renders one ZPL label to a PNG file at 12 dots/mm (the 300 dpi of the spec's ZPL sizes). */
export async function renderZpl(zpl: string, widthMm: number, heightMm: number, dir: string): Promise<string> {
  zplApi ??= import('zpl-renderer-js').then((m) => m.ready).then((r) => r.api);
  const api = await zplApi;
  const png = Buffer.from(await api.zplToBase64Async(zpl, widthMm, heightMm, 12), 'base64');
  const file = path.join(dir, `zpl${++counter}.png`);
  writeFileSync(file, png);
  return file;
}

export function keepExample(file: string, name: string): void {
  mkdirSync(EXAMPLES_DIR, { recursive: true });
  copyFileSync(file, path.join(EXAMPLES_DIR, name));
}
