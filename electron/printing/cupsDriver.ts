/**
 * Printing through CUPS (Linux, macOS) with `lp`: PDFs to a system queue, and ZPL to a raw queue
 * (`-o raw`: CUPS passes the bytes unchanged to the label printer).
 *
 * execFile('lp') rather than unix-print: unix-print builds a shell command line from the printer
 * name and options without quoting, which breaks on unusual queue names and lets an option
 * string run commands. The job goes on stdin, so no temporary file is left behind.
 * `sent` is when CUPS accepted the job; `spooled` when CUPS reports it completed. CUPS calls a job
 * completed when its backend has passed the data on and exited without an error: the socket
 * backend (backend/socket.c) writes the job to the printer's port and ends, so a raw queue to a
 * printer that resets the connection without reading a byte ends `completed` too
 * (test/integration/printing/cupsPrinting.test.ts). It is therefore never counted as printed.
 */
import { execFile, spawn } from 'node:child_process';
import type { PrinterSettings } from '../../shared/contract/printing';
import {
  PrintError,
  createSerialWriter,
  type DriverJob,
  type DriverStatus,
  type PrintHooks,
  type PrintResult,
  type PrinterDriver,
} from './printerDriver';
import { prepareZplForPrinter } from './zplPrepare';

const C_LOCALE = { ...process.env, LC_ALL: 'C', LANG: 'C' };

export interface LpJob {
  queue: string;
  data: Buffer;
  title: string;
  copies: number;
  raw: boolean;
  options: string[];
}

/** The lp arguments for a job; exported so the options a label printer needs are visible and tested. */
export function lpArgs(job: Omit<LpJob, 'data'>): string[] {
  const args = [
    '-d',
    job.queue,
    '-t',
    job.title.replace(/[^\w .\-#]/g, '_').slice(0, 100) || 'label',
    '-n',
    String(job.copies),
  ];
  if (job.raw) args.push('-o', 'raw');
  for (const o of job.options) args.push('-o', o);
  return args;
}

export function pdfOptions(s: PrinterSettings): string[] {
  const out: string[] = [];
  if (s.media) out.push(`media=${s.media}`);
  if (s.fitToPage) out.push('fit-to-page');
  return out;
}

/** Submits a job to CUPS; resolves with the CUPS job id ("PDF-12"). */
export function lpSubmit(job: LpJob, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('lp', lpArgs(job), { env: C_LOCALE, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new PrintError(
          'spooler_missing',
          e.code === 'ENOENT' ? 'CUPS (the lp command) is not installed on this computer.' : e.message,
          'not_sent',
        ),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const id = /request id is (\S+)/.exec(out)?.[1];
      if (code === 0 && id) resolve(id);
      else
        reject(
          new PrintError(
            'spooler_rejected',
            `The print system refused the job: ${(err || out).trim() || `lp exited with ${code}`}`,
            'not_sent',
          ),
        );
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(job.data);
  });
}

function lpstat(args: string[], timeoutMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    execFile('lpstat', args, { env: C_LOCALE, timeout: timeoutMs }, (_e, stdout) => resolve(stdout ?? ''));
  });
}

/** Waits until CUPS no longer lists the job as not completed. */
export async function waitForCupsJob(queue: string, jobId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await lpstat(['-W', 'not-completed', '-o', queue]);
    if (!pending.split('\n').some((l) => l.split(/\s+/)[0] === jobId)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function cupsQueueStatus(queue: string): Promise<DriverStatus> {
  const out = await lpstat(['-p', queue]);
  if (!out.trim())
    return {
      state: 'offline',
      reasonCode: 'no_queue',
      reason: `The print queue "${queue}" does not exist (or CUPS is not running).`,
    };
  if (/disabled/.test(out))
    return {
      state: 'error',
      reasonCode: 'queue_disabled',
      reason: `The print queue "${queue}" is stopped. Resume it in the printer settings.`,
    };
  return { state: 'ready', reasonCode: null, reason: null };
}

export interface CupsDriverOptions {
  queue: string;
  settings: PrinterSettings;
  /** `pdf`: a system printer; `zpl`: a raw queue in front of a label printer. */
  mode: 'pdf' | 'zpl';
  completionTimeoutMs?: number;
}

export function createCupsDriver(opts: CupsDriverOptions): PrinterDriver {
  const serial = createSerialWriter();
  async function printOnce(job: DriverJob, hooks: PrintHooks): Promise<PrintResult> {
    let data: Buffer;
    let copies: number;
    if (opts.mode === 'zpl') {
      data = await prepareZplForPrinter(job, opts.settings); // copies are in ^PQ
      copies = 1;
    } else {
      if (job.format !== 'pdf')
        throw new PrintError(
          'wrong_format',
          'This system printer takes PDF labels. Route ZPL to a label printer.',
          'not_sent',
        );
      data = job.bytes;
      copies = Math.max(1, job.copies * opts.settings.copies);
    }
    // lp cannot say when its first byte reaches the printer: the job counts as leaving when handed over.
    await hooks.sending();
    const id = await lpSubmit({
      queue: opts.queue,
      data,
      title: job.title,
      copies,
      raw: opts.mode === 'zpl',
      options: opts.mode === 'pdf' ? pdfOptions(opts.settings) : [],
    });
    hooks.accepted();
    const completed = await waitForCupsJob(opts.queue, id, opts.completionTimeoutMs ?? 60_000);
    if (!completed) {
      const st = await cupsQueueStatus(opts.queue);
      throw new PrintError(
        'held_by_spooler',
        `The print system still holds job ${id}${st.reason ? `: ${st.reason}` : '.'} It prints when the printer is back.`,
        'not_printed',
      );
    }
    return {
      kind: 'spooled',
      reason: `The print system (CUPS queue "${opts.queue}") finished job ${id}: it passed the label on to the printer, which does not say whether it printed.`,
    };
  }
  return {
    formats: [opts.mode],
    print: (job, hooks) => serial(() => printOnce(job, hooks)),
    status: () => cupsQueueStatus(opts.queue),
  };
}
