/**
 * The command sheet as a scanner and a reader meet it: every code on the printed page decodes to a
 * command barcode (rendered with pdftoppm, decoded with zbarimg), and the Czech sheet names the
 * commands in Czech (pdftotext reads the embedded DejaVu text back, diacritics included).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCommandSheetPdf } from '../../../electron/documents/commandSheet';
import { pdfBarcodes } from '../../support/pdfBarcodes';
import { needs } from '../../support/services';

/** The sixteen desk commands as the sheet must carry them (the prefix no shipment code begins with). */
const EXPECTED_CODES = [
  '!LS-REPRINT_LAST',
  '!LS-CANCEL_PARCEL',
  '!LS-BATCH_TOGGLE',
  '!LS-CLOSE_ALL',
  '!LS-SIGN_OUT',
  '!LS-NEXT_PACKAGE',
  '!LS-HOLD_MISSING_ITEM',
  '!LS-HOLD_DAMAGED',
  '!LS-HOLD_WRONG_ADDRESS',
  '!LS-HOLD_OTHER',
  '!LS-PACKAGES_OPEN',
  '!LS-PACKAGE_ADD',
  '!LS-PACKAGE_REMOVE',
  '!LS-PACKAGE_WEIGH',
  '!LS-PACKAGES_SPLIT',
  '!LS-PACKAGES_SEND',
];

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheet-text-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'in.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!needs('pdftoppm', 'zbarimg'))('command sheet', () => {
  it('is three A4 pages whose barcodes are exactly the sixteen commands, read at print and at screen resolution', async () => {
    const pdf = await renderCommandSheetPdf({ language: 'en', created: new Date('2026-11-26T10:00:00Z') });
    const info = execFileSync('pdfinfo', ['-'], { input: pdf, encoding: 'utf8' });
    // Sixteen rows of a scannable size do not fit one page: the problem shelf's and the packages' codes go on.
    expect(info).toMatch(/Pages:\s+3\n/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    expect(pdfBarcodes(pdf, 150).sort()).toEqual([...EXPECTED_CODES].sort());
    expect(pdfBarcodes(pdf, 96).sort()).toEqual([...EXPECTED_CODES].sort());
  });

  it('names each command and its key in English', async () => {
    const text = pdfText(await renderCommandSheetPdf({ language: 'en', created: new Date() }));
    for (const line of [
      'Command sheet',
      'Reprint the last label',
      'Cancel the parcel in progress',
      'Batch mode on / off',
      'Close all',
      'Sign out',
      'Next package: skip weighing',
      'Problem shelf: an item is missing',
      'Problem shelf: wrong address',
      'Key: Ctrl+H, 4',
      'Key: F5',
      'Key: F10',
      'Key: Ctrl+Enter',
      'Key: Ctrl+P',
      'Key: Ctrl+Delete',
      'Packages: open the next parcel',
      'Packages: split into boxes',
      'Key: Ctrl+B',
      'Key: Insert',
      'Key: Space',
    ])
      expect(text).toContain(line);
  });

  it('names each command in Czech, with its diacritics, on the Czech sheet', async () => {
    const text = pdfText(await renderCommandSheetPdf({ language: 'cs', created: new Date() }));
    for (const line of [
      'Arch příkazových kódů',
      'Vytisknout poslední štítek znovu',
      'Zrušit rozpracovanou zásilku',
      'Hromadný režim zapnout / vypnout',
      'Uzavřít vše',
      'Odhlásit se',
      'Další balík: přeskočit vážení',
      'Police problémů: chybí zboží',
      'Police problémů: chybná adresa',
      'Klávesa: F5',
      'Balíky: rozdělit na balíky',
      'Balíky: zvážit vybraný balík',
      'Klávesa: Mezerník',
    ])
      expect(text).toContain(line);
    expect(text).not.toContain('Reprint the last label');
  });
});
