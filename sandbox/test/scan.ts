/**
 * Reading documents the way a printer and a scanner would: PDFs rasterised with pdftoppm, ZPL
 * rendered with zpl-renderer-js, barcodes decoded with zbarimg (spec "GET .../tickets" and
 * ".../zpl": each package's barcode must scan back to packages[].barcode).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Code 128 symbols zbarimg finds in a PNG (empty when none). */
export function scanPng(png: Buffer | string): string[] {
  const dir = typeof png === 'string' ? null : mkdtempSync(path.join(os.tmpdir(), 'scan-'));
  const file = dir ? path.join(dir, 'image.png') : (png as string);
  if (dir) writeFileSync(file, png);
  try {
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], {
      encoding: 'utf8',
    });
    return out
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  } catch (err) {
    // zbarimg exits 4 when the image holds no barcode.
    if ((err as { status?: number }).status === 4) return [];
    throw err;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfCrop {
  /** Page number, 1-based. */
  page: number;
  /** Crop in millimetres from the top-left corner of the page. */
  mm: { x: number; y: number; w: number; h: number };
}

/** The barcodes on each page of a PDF (or on one cropped area of one page). */
export function scanPdf(pdf: Buffer, o: { dpi?: number; crop?: PdfCrop } = {}): string[][] {
  const dpi = o.dpi ?? 200;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-'));
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    const args = ['-r', String(dpi), '-png', '-gray'];
    if (o.crop) {
      const px = (mm: number) => String(Math.round((mm / 25.4) * dpi));
      args.push(
        '-f',
        String(o.crop.page),
        '-l',
        String(o.crop.page),
        '-x',
        px(o.crop.mm.x),
        '-y',
        px(o.crop.mm.y),
        '-W',
        px(o.crop.mm.w),
        '-H',
        px(o.crop.mm.h),
      );
    }
    execFileSync('pdftoppm', [...args, path.join(dir, 'doc.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort();
    return pages.map((f) => scanPng(path.join(dir, f)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page sizes in mm: pdftoppm renders each page at 25.4 dpi, where a pixel is a millimetre. */
export function pdfPageSizesMm(pdf: Buffer): Array<{ w: number; h: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdfsize-'));
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '25.4', '-png', path.join(dir, 'doc.pdf'), path.join(dir, 'page')]);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()
      .map((f) => {
        const png = readFileSync(path.join(dir, f));
        // PNG IHDR: width and height at bytes 16 and 20 (big-endian); at 25.4 dpi 1 px = 1 mm.
        return { w: png.readUInt32BE(16), h: png.readUInt32BE(20) };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Renders one ZPL label at 300 dpi (12 dots/mm) for its size ("10x15" = 100 x 150 mm) and scans it. */
export async function scanZpl(zpl: string, size: string): Promise<{ codes: string[]; png: Buffer }> {
  const { zplToBase64Async } = await import('zpl-renderer-js');
  const [w, h] = size.split('x').map((cm) => Number(cm) * 10) as [number, number];
  const png = Buffer.from(await zplToBase64Async(zpl, w, h, 12), 'base64');
  return { codes: scanPng(png), png };
}

/** One page of a PDF as a PNG (kept under test-results/ so a person can look at the labels). */
export function pdfPagePng(pdf: Buffer, page: number, dpi = 100): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdfpage-'));
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      String(dpi),
      '-png',
      '-singlefile',
      '-f',
      String(page),
      '-l',
      String(page),
      path.join(dir, 'doc.pdf'),
      path.join(dir, 'page'),
    ]);
    return readFileSync(path.join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
