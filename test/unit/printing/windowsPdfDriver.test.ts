/**
 * PDF to a Windows printer goes through pdf-to-printer, which runs SumatraPDF.
 * The Windows package leaves out pdf-to-printer's own SumatraPDF 3.4.6 (CVE-2023-33802) and
 * carries a current one, which main.ts names in STATION_SUMATRA_PDF; the driver must hand that
 * file to pdf-to-printer as `sumatraPdfPath`. These machines have no Windows spooler, so
 * pdf-to-printer is a NAMED MOCK here (`mockPdfToPrinter`): what is checked is what the station
 * hands it. NOT TESTED (the gap): SumatraPDF printing on Windows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { printerSettings } from '../../../shared/contract/printing';
import { createWindowsPdfDriver } from '../../../electron/printing/windowsPdfDriver';

/** MOCK of pdf-to-printer's print(): records the options of each call. */
const mockPdfToPrinter = vi.hoisted(() => ({ calls: [] as Record<string, unknown>[] }));
vi.mock('pdf-to-printer', () => ({
  print: async (_file: string, options: Record<string, unknown>) => {
    mockPdfToPrinter.calls.push(options);
  },
}));

const job = {
  format: 'pdf' as const,
  bytes: Buffer.from('%PDF-1.4\n%%EOF\n'),
  title: 'Zásilka 1001',
  copies: 1,
  labelSize: '10x15' as const,
};
const hooks = { sending: () => undefined, accepted: () => undefined };
const before = process.env.STATION_SUMATRA_PDF;
const dirs: string[] = [];

afterEach(() => {
  mockPdfToPrinter.calls.length = 0;
  if (before === undefined) delete process.env.STATION_SUMATRA_PDF;
  else process.env.STATION_SUMATRA_PDF = before;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function printOnce() {
  const driver = createWindowsPdfDriver({ printer: 'Office HP', settings: printerSettings.parse({}) });
  await driver.print(job, hooks);
  expect(mockPdfToPrinter.calls).toHaveLength(1);
  return mockPdfToPrinter.calls[0]!;
}

describe('Windows PDF printing hands pdf-to-printer the SumatraPDF the package carries', () => {
  it('passes the packaged SumatraPDF as sumatraPdfPath when the file is there', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sumatra-'));
    dirs.push(dir);
    const exe = path.join(dir, 'SumatraPDF.exe');
    writeFileSync(exe, 'MZ');
    process.env.STATION_SUMATRA_PDF = exe;
    expect(await printOnce()).toMatchObject({ printer: 'Office HP', silent: true, sumatraPdfPath: exe });
  });

  it("passes none when the named file is missing or none is named (a development checkout: pdf-to-printer's own)", async () => {
    process.env.STATION_SUMATRA_PDF = path.join(tmpdir(), 'no-such-folder', 'SumatraPDF.exe');
    expect(await printOnce()).not.toHaveProperty('sumatraPdfPath');
    mockPdfToPrinter.calls.length = 0;
    delete process.env.STATION_SUMATRA_PDF;
    expect(await printOnce()).not.toHaveProperty('sumatraPdfPath');
  });
});
