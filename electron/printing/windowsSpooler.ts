/**
 * The Windows spooler: its printers (pdf-to-printer's getPrinters) and raw ZPL to a label printer's
 * queue. UNTESTED HERE against a real spooler (these machines are Linux): the tests drive it with a
 * named mock of the spooler's two entry points.
 *
 * Raw printing uses winspool's OpenPrinter / StartDocPrinter with the "RAW" datatype / WritePrinter,
 * reached from PowerShell through P/Invoke, so the bytes reach the printer unchanged (the driver
 * renders nothing) and no native module has to be built for Windows. The job's bytes go in a
 * temporary file; the queue name and title travel as arguments, never inside the script text.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PrinterSettings } from '../../shared/contract/printing';
import { PrintError, createSerialWriter, type PrinterDriver } from './printerDriver';
import { prepareZplForPrinter } from './zplPrepare';

export interface WindowsPrinter {
  deviceId: string;
  name: string;
}

/** The spooler's entry points; the real ones by default, a named mock in tests. */
export interface WindowsSpooler {
  getPrinters(): Promise<WindowsPrinter[]>;
  /** Runs PowerShell with a script and arguments; resolves with stdout, rejects with stderr. */
  powershell(script: string, args: string[], timeoutMs: number): Promise<string>;
}

export const RAW_PRINT_SCRIPT = `
param([string]$Printer, [string]$File, [string]$Title)
$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @"
using System; using System.Runtime.InteropServices;
public static class RawPrint {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  public class DOCINFO { public string pDocName; public string pOutputFile; public string pDataType; }
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] public static extern bool OpenPrinter(string name, out IntPtr h, IntPtr d);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool ClosePrinter(IntPtr h);
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] public static extern int StartDocPrinter(IntPtr h, int level, DOCINFO di);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool EndDocPrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool StartPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool EndPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool WritePrinter(IntPtr h, byte[] b, int n, out int written);
  public static int Send(string printer, byte[] bytes, string title) {
    IntPtr h;
    if (!OpenPrinter(printer, out h, IntPtr.Zero)) throw new Exception("OpenPrinter failed: " + Marshal.GetLastWin32Error());
    try {
      var di = new DOCINFO { pDocName = title, pDataType = "RAW" };
      if (StartDocPrinter(h, 1, di) == 0) throw new Exception("StartDocPrinter failed: " + Marshal.GetLastWin32Error());
      try {
        StartPagePrinter(h);
        int written;
        if (!WritePrinter(h, bytes, bytes.Length, out written)) throw new Exception("WritePrinter failed: " + Marshal.GetLastWin32Error());
        EndPagePrinter(h);
        return written;
      } finally { EndDocPrinter(h); }
    } finally { ClosePrinter(h); }
  }
}
"@
$bytes = [System.IO.File]::ReadAllBytes($File)
$n = [RawPrint]::Send($Printer, $bytes, $Title)
Write-Output "written $n of $($bytes.Length)"
`;

const realSpooler: WindowsSpooler = {
  getPrinters: async () => (await import('pdf-to-printer')).getPrinters(),
  powershell: (script, args, timeoutMs) =>
    new Promise((resolve, reject) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rawprint-'));
      const file = path.join(dir, 'rawprint.ps1');
      writeFileSync(file, script);
      execFile(
        'powershell.exe',
        ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file, ...args],
        { timeout: timeoutMs, windowsHide: true },
        (err, stdout, stderr) => {
          rmSync(dir, { recursive: true, force: true });
          if (err) reject(new Error((stderr || err.message).trim()));
          else resolve(stdout);
        },
      );
    }),
};

/** The spooler's printers; empty (not an error) when the spooler cannot be asked. */
export async function listWindowsPrinters(spooler: WindowsSpooler = realSpooler): Promise<WindowsPrinter[]> {
  try {
    return await spooler.getPrinters();
  } catch {
    return [];
  }
}

/** ZPL unchanged to a Windows printer queue (a label printer installed with a generic/text or ZDesigner driver). */
export function createWindowsRawDriver(opts: {
  printer: string;
  settings: PrinterSettings;
  spooler?: WindowsSpooler;
  timeoutMs?: number;
}): PrinterDriver {
  const spooler = opts.spooler ?? realSpooler;
  const serial = createSerialWriter();
  return {
    formats: ['zpl'],
    print: (job, hooks) =>
      serial(async () => {
        if (job.format !== 'zpl') throw new PrintError('wrong_format', 'This printer takes ZPL labels.', 'not_sent');
        const bytes = await prepareZplForPrinter(job, opts.settings);
        const dir = mkdtempSync(path.join(tmpdir(), 'label-'));
        const file = path.join(dir, 'label.zpl');
        writeFileSync(file, bytes);
        try {
          // WritePrinter runs inside the one PowerShell call: the job leaves when handed over.
          await hooks.sending();
          const out = await spooler.powershell(
            RAW_PRINT_SCRIPT,
            ['-Printer', opts.printer, '-File', file, '-Title', job.title.slice(0, 100) || 'label'],
            opts.timeoutMs ?? 30_000,
          );
          const m = /written (\d+) of (\d+)/.exec(out);
          if (!m || m[1] !== m[2]) {
            throw new PrintError(
              'spooler_incomplete',
              `Windows took only part of the label (${m ? `${m[1]} of ${m[2]} bytes` : 'no answer'}). Check the printer before printing again.`,
              'unknown',
            );
          }
        } catch (err) {
          if (err instanceof PrintError) throw err;
          const message = err instanceof Error ? err.message : String(err);
          // Refused before any byte went (no such printer, no document): safe to retry. A failed
          // write may have left part of the label in the printer: the worker decides.
          throw new PrintError(
            'spooler_rejected',
            `Windows refused the print job: ${message}`,
            /WritePrinter/.test(message) ? 'unknown' : 'not_sent',
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
