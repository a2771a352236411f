/**
 * PDF to a Windows printer with pdf-to-printer (SumatraPDF underneath). UNTESTED HERE: it runs only
 * on Windows, and these machines are Linux. Kept tiny and typed; ZPL on Windows goes over TCP or a
 * USB-to-TCP setup, not through this driver.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PrinterSettings } from '../../shared/contract/printing';
import { PrintError, createSerialWriter, type PrinterDriver } from './printerDriver';

/**
 * The SumatraPDF that prints: the current one the Windows package carries (main.ts names it in
 * STATION_SUMATRA_PDF; electron-builder.yml, scripts/fetch-sumatra.mjs), when it is there. The
 * package leaves out pdf-to-printer's own copy (3.4.6, CVE-2023-33802); a development checkout
 * without build/sumatra falls back to it (undefined: pdf-to-printer's default).
 */
function sumatraPdfPath(): string | undefined {
  const file = process.env.STATION_SUMATRA_PDF;
  return file && existsSync(file) ? file : undefined;
}

export function createWindowsPdfDriver(opts: { printer: string; settings: PrinterSettings }): PrinterDriver {
  const serial = createSerialWriter();
  return {
    formats: ['pdf'],
    print: (job, hooks) =>
      serial(async () => {
        if (job.format !== 'pdf') throw new PrintError('wrong_format', 'This printer takes PDF labels.', 'not_sent');
        const { print } = await import('pdf-to-printer');
        const dir = mkdtempSync(path.join(tmpdir(), 'label-'));
        const file = path.join(dir, 'label.pdf');
        writeFileSync(file, job.bytes);
        try {
          // The spooler cannot say when its first byte reaches the printer: the job leaves when handed over.
          await hooks.sending();
          const sumatra = sumatraPdfPath();
          await print(file, {
            printer: opts.printer,
            copies: job.copies * opts.settings.copies,
            scale: opts.settings.fitToPage ? 'fit' : 'noscale',
            silent: true,
            ...(sumatra ? { sumatraPdfPath: sumatra } : {}),
          });
        } catch (err) {
          if (err instanceof PrintError) throw err;
          throw new PrintError(
            'spooler_rejected',
            `Windows refused the print job: ${err instanceof Error ? err.message : String(err)}`,
            'not_sent',
          );
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        hooks.accepted();
        // The Windows spooler took the job: it says nothing of whether the label came out.
        return {
          kind: 'spooled',
          reason: `Windows took the job for the printer "${opts.printer}"; the print system does not say whether it printed.`,
        };
      }),
    status: async () => ({ state: 'unknown', reasonCode: null, reason: null }),
  };
}
