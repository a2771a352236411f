/**
 * The fonts embedded in every PDF. pdfkit's built-in Helvetica has no ř, ů, č..., so Czech names
 * would print as garbage; DejaVu Sans (licence: resources/fonts/LICENSE-DejaVu.txt) ships with the
 * project under resources/fonts so the sandbox never depends on the machine's fonts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocumentError } from './labelData';

export interface DocumentFonts {
  regular: Buffer;
  bold: Buffer;
}

const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/**
 * Walks up from this module to the first `resources/fonts`: the same code runs from source
 * (sandbox/documents/) and from the bundle (dist/node/), at different depths.
 */
function findFontsDir(): string | null {
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    let dir = start;
    for (;;) {
      const candidate = path.join(dir, 'resources', 'fonts');
      if (existsSync(path.join(candidate, FILES.regular))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return null;
}

let cached: DocumentFonts | null = null;

export function documentFonts(): DocumentFonts {
  if (cached) return cached;
  const dir = findFontsDir();
  if (!dir) {
    throw new DocumentError(
      'FONT_MISSING',
      'resources/fonts/DejaVuSans.ttf not found: the label fonts ship in the repository under resources/fonts',
    );
  }
  cached = { regular: readFileSync(path.join(dir, FILES.regular)), bold: readFileSync(path.join(dir, FILES.bold)) };
  return cached;
}
