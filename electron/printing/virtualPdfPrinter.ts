/**
 * The embedded default office printer: PDFs are written to a folder, one file per job and copy,
 * and listed so the app can show what "printed".
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRINTED, PrintError, createSerialWriter, type PrinterDriver } from './printerDriver';

export interface PdfFolderPrinter extends PrinterDriver {
  readonly folder: string;
  received(): { at: string; name: string; bytes: number }[];
}

export function createPdfFolderPrinter(folder: string, now: () => Date = () => new Date()): PdfFolderPrinter {
  // Labels carry recipients' names and addresses: this user's only (see electron/base/privateDataDir.ts).
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const serial = createSerialWriter();
  let seq = 0;
  return {
    folder,
    formats: ['pdf'],
    print: (job, hooks) =>
      serial(async () => {
        if (job.format !== 'pdf')
          throw new PrintError('wrong_format', 'The PDF folder printer takes PDF labels only.', 'not_sent');
        const stamp = now().toISOString().replace(/[:.]/g, '-');
        const safe = job.title.replace(/[^\w-]+/g, '_').slice(0, 60) || 'label';
        await hooks.sending();
        for (let c = 0; c < Math.max(1, job.copies); c++) {
          seq++;
          writeFileSync(path.join(folder, `${stamp}-${String(seq).padStart(4, '0')}-${safe}.pdf`), job.bytes, {
            mode: 0o600,
          });
        }
        hooks.accepted();
        return PRINTED;
      }),
    status: async () => ({ state: 'ready', reasonCode: null, reason: null }),
    received() {
      return readdirSync(folder)
        .filter((f) => f.endsWith('.pdf'))
        .sort()
        .map((name) => {
          const st = statSync(path.join(folder, name));
          return { at: st.mtime.toISOString(), name, bytes: st.size };
        });
    },
  };
}
