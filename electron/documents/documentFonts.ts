/**
 * The fonts embedded in the station's PDFs. pdfkit's built-in Helvetica has no ř, ů, č..., so
 * Czech names would come out as garbage; DejaVu Sans ships in resources/fonts (licence beside it).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StationError } from '../base/stationError';

export interface DocumentFonts {
  regular: Buffer;
  bold: Buffer;
}

const FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/**
 * Walks up to the first `resources/fonts`: the same code runs from source (electron/documents/),
 * from the Node bundle (dist/node/) and from the Electron bundle (dist/electron/), at different depths.
 */
function findFontsDir(): string | null {
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) starts.push(path.join(resourcesPath, 'app'));
  for (const start of starts) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'resources', 'fonts');
      if (existsSync(path.join(candidate, FILES.regular))) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  return null;
}

let cached: DocumentFonts | null = null;

export function documentFonts(): DocumentFonts {
  if (cached) return cached;
  const dir = findFontsDir();
  if (!dir)
    throw new StationError(
      'fonts_missing',
      'The document fonts (resources/fonts/DejaVuSans.ttf) are missing from this installation. Reinstall the station.',
    );
  cached = { regular: readFileSync(path.join(dir, FILES.regular)), bold: readFileSync(path.join(dir, FILES.bold)) };
  return cached;
}
