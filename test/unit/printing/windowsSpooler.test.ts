/**
 * The Windows spooler path (printers discovered through the Windows spooler, ZPL through a raw
 * Windows queue). These machines have no Windows spooler, so its two entry points (listing printers,
 * running PowerShell against winspool) are a NAMED MOCK here: `mockWindowsSpooler`. What is checked
 * is the station's side: what it offers, what it hands the spooler, and how it reads the answers.
 * NOT TESTED (the gap): the PowerShell/winspool script itself (RAW_PRINT_SCRIPT) — it needs a
 * Windows machine with a spooler; expected values here are written by hand, not taken from it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printerSettings } from '../../../shared/contract/printing';
import { discoverWindowsPrinters } from '../../../electron/printing/discovery';
import type { DriverJob, PrintHooks } from '../../../electron/printing/printerDriver';
import { createWindowsRawDriver, type WindowsSpooler } from '../../../electron/printing/windowsSpooler';

interface Call {
  args: string[];
  bytes: Buffer;
}

/** MOCK of the Windows spooler: records each raw job (the file's bytes are read before it is deleted). */
function mockWindowsSpooler(
  answer: (c: Call) => string | Error = (c) => `written ${c.bytes.length} of ${c.bytes.length}`,
) {
  const calls: Call[] = [];
  const spooler: WindowsSpooler = {
    getPrinters: async () => [
      { deviceId: 'ZDesigner ZD421-203dpi ZPL', name: 'ZDesigner ZD421-203dpi ZPL' },
      { deviceId: 'HP LaserJet M404', name: 'Office HP' },
    ],
    powershell: async (_script, args) => {
      const file = args[args.indexOf('-File') + 1]!;
      const call = { args, bytes: readFileSync(file) };
      calls.push(call);
      const a = answer(call);
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return { spooler, calls };
}

const settings = printerSettings.parse({});
const noHooks: PrintHooks = { sending: () => undefined, accepted: () => undefined };
/** A 300-dpi label (the service's resolution) with Czech text under ^CI28 (UTF-8), as the service sends it. */
const labelText = (n: number) =>
  `^XA^CI28^FO50,50^A0N,40,40^FDPříjemce: Žofie Dvořáková ${n}^FS^FO50,120^BCN,100^FDPKG${n}^FS^XZ`;
const zplJob = (n: number): DriverJob => ({
  format: 'zpl',
  bytes: Buffer.from(labelText(n), 'utf8'),
  title: `Zásilka č. ${n}`,
  copies: 1,
  labelSize: '10x15',
});

describe('Windows spooler (with a named mock of the spooler)', () => {
  it('discovery offers a ZPL label printer as a raw queue and as PDF, an office printer as PDF only', async () => {
    const { spooler } = mockWindowsSpooler();
    const found = await discoverWindowsPrinters(spooler);
    expect(found.map((f) => [f.connection.kind, f.name])).toEqual([
      ['zpl-spooler', 'ZDesigner ZD421-203dpi ZPL (ZPL)'],
      ['pdf-system', 'ZDesigner ZD421-203dpi ZPL'],
      ['pdf-system', 'Office HP'],
    ]);
  });

  it('a spooler that cannot be asked lists nothing instead of failing discovery', async () => {
    const broken: WindowsSpooler = {
      getPrinters: () => Promise.reject(new Error('spooler stopped')),
      powershell: () => Promise.reject(new Error('no')),
    };
    expect(await discoverWindowsPrinters(broken)).toEqual([]);
  });

  it('hands a 300-dpi printer with default settings the label byte for byte (Czech UTF-8 intact), for the named queue, in job order', async () => {
    const { spooler, calls } = mockWindowsSpooler();
    const driver = createWindowsRawDriver({ printer: 'ZDesigner ZD421-300dpi ZPL', settings, spooler });
    const accepted: number[] = [];
    await Promise.all(
      [1, 2, 3].map((n) => driver.print(zplJob(n), { sending: () => undefined, accepted: () => accepted.push(n) })),
    );
    expect(accepted).toEqual([1, 2, 3]);
    expect(calls.map((c) => [c.args[c.args.indexOf('-Printer') + 1], c.args[c.args.indexOf('-Title') + 1]])).toEqual([
      ['ZDesigner ZD421-300dpi ZPL', 'Zásilka č. 1'],
      ['ZDesigner ZD421-300dpi ZPL', 'Zásilka č. 2'],
      ['ZDesigner ZD421-300dpi ZPL', 'Zásilka č. 3'],
    ]);
    // Expected: the very text the label was made from, encoded as UTF-8 (written here, not computed by the station).
    expect(calls.map((c) => c.bytes.toString('utf8'))).toEqual([labelText(1), labelText(2), labelText(3)]);
    expect(calls[0]!.bytes.includes(Buffer.from([0xc5, 0xbd]))).toBe(true); // "Ž" as UTF-8, not one Latin-1 byte
  });

  it('a 203-dpi printer gets the label scaled (a 300-dpi field origin ^FO50,50 lands at 34,34), its Czech text intact', async () => {
    const { spooler, calls } = mockWindowsSpooler();
    const driver = createWindowsRawDriver({
      printer: 'ZDesigner ZD421-203dpi ZPL',
      settings: printerSettings.parse({ dpi: 203 }),
      spooler,
    });
    await driver.print(zplJob(1), noHooks);
    const sent = calls[0]!.bytes.toString('utf8');
    expect(sent).toContain('^FO34,34');
    expect(sent).toContain('Příjemce: Žofie Dvořáková 1');
    expect(sent).not.toContain('^FO50,50');
  });

  it('a queue that does not exist fails the job as not sent (safe to retry)', async () => {
    const { spooler } = mockWindowsSpooler(() => new Error('OpenPrinter failed: 1801'));
    const driver = createWindowsRawDriver({ printer: 'Gone', settings, spooler });
    await expect(driver.print(zplJob(1), noHooks)).rejects.toMatchObject({
      code: 'spooler_rejected',
      outcome: 'not_sent',
    });
  });

  it('a failed or partial write is uncertain: the worker decides, nothing is printed twice by itself', async () => {
    const failed = createWindowsRawDriver({
      printer: 'Z',
      settings,
      spooler: mockWindowsSpooler(() => new Error('WritePrinter failed: 6')).spooler,
    });
    await expect(failed.print(zplJob(1), noHooks)).rejects.toMatchObject({ outcome: 'unknown' });
    const partial = createWindowsRawDriver({
      printer: 'Z',
      settings,
      spooler: mockWindowsSpooler((c) => `written 10 of ${c.bytes.length}`).spooler,
    });
    await expect(partial.print(zplJob(1), noHooks)).rejects.toMatchObject({
      code: 'spooler_incomplete',
      outcome: 'unknown',
    });
  });

  it('refuses a PDF job: a raw queue takes ZPL', async () => {
    const { spooler, calls } = mockWindowsSpooler();
    const driver = createWindowsRawDriver({ printer: 'Z', settings, spooler });
    await expect(driver.print({ ...zplJob(1), format: 'pdf' }, noHooks)).rejects.toMatchObject({
      code: 'wrong_format',
    });
    expect(calls).toHaveLength(0);
  });
});
