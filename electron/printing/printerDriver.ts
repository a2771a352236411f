/**
 * The one small interface every printer path implements (TCP, USB, spooler, virtual, Windows).
 * The queue calls `print` for one job at a time per printer and learns three moments from it:
 * `sending` right before the first job byte leaves (job state `sending`), `accepted` when the
 * printer or spooler has every byte (`sent`), and the promise settling when the label is known
 * printed (`done`), sent without the printer confirming it (`unconfirmed`), or not printed.
 */
import type { PrinterReasonCode } from '../../shared/errors/codes';

/** What happened when a job failed, which decides what the queue may do next. */
export type FailureOutcome =
  /** Nothing reached the printer: safe to retry by itself (with backoff). */
  | 'not_sent'
  /** Some or all bytes may have reached the printer: never retried silently (uncertain). */
  | 'unknown'
  /** The printer has the job but reports it cannot print it (paper out, head open...). */
  | 'not_printed';

export class PrintError extends Error {
  constructor(
    readonly code: PrinterReasonCode,
    message: string,
    readonly outcome: FailureOutcome,
  ) {
    super(message);
    this.name = 'PrintError';
  }
}

export interface DriverJob {
  format: 'zpl' | 'pdf';
  bytes: Buffer;
  title: string;
  copies: number;
  /** The service's ZPL size ("10x15"), for resolution conversion. */
  labelSize: string | null;
}

export interface DriverStatus {
  state: 'ready' | 'offline' | 'error' | 'unknown';
  reasonCode: PrinterReasonCode | null;
  reason: string | null;
}

export interface PrintHooks {
  /**
   * Called once, right before the first job byte is written: after connecting and after any
   * status pre-check, so a printer that is off never makes a job `sending` (which a crash would
   * turn into `uncertain`). A driver that cannot tell calls it just before handing the job over.
   * The queue commits `sending` here, before the write; the driver awaits the promise, which
   * resolves once that commit is on the disk (store/walSync.ts), before it writes. It throws (or
   * rejects) when the job must not go any more (cancelled while the printer was reached): the
   * driver then writes nothing.
   */
  sending(counter?: CounterMark): Promise<void> | void;
  /** Called once every byte is accepted by the printer or spooler. */
  accepted(): void;
  /**
   * Called when every byte was written to a connection whose later close proves the printer read
   * them (a raw port, labels streamed in a burst): the queue hands the driver the next job, and this
   * one stays `sending` until the driver settles it (`accepted` and printed, or not).
   */
  written?(): void;
  /**
   * Why a job the printer holds has not come out yet (out of labels, head open, not answering):
   * the job stays where it is (`sent`, never offered for reprint while in the printer), its row says why.
   */
  note?(code: PrinterReasonCode, reason: string): void;
  /**
   * The printer answered again without a stop after a note: the reason no longer holds (the
   * printer prints the job), so its row and the printer's state stop saying it.
   */
  resumed?(): void;
}

/**
 * Where the printer's label counter stands when the job's first label begins, and how many labels
 * it prints: the job printed once the counter reaches counterAt + labels. Kept with the job before
 * its first byte leaves, so a job cut off by a crash or a lost connection can be settled from the
 * printer's counter instead of the worker's memory.
 */
export interface CounterMark {
  counterAt: number;
  labels: number;
}

/**
 * How a print that did not fail ended: printed; every byte left but the printer never confirmed
 * taking them (a raw port that accepts and never reads or closes); or handed to the operating
 * system's print spooler, which has finished with it (CUPS `completed`, the Windows spooler took
 * it): the spooler's word is that it passed the job on, not that a label came out. Only `printed`
 * counts as printed; neither of the others is ever sent again by itself.
 */
export type PrintResult =
  | { kind: 'printed'; byCounter?: true }
  | { kind: 'unconfirmed'; code: PrinterReasonCode; reason: string }
  | { kind: 'spooled'; reason: string };

export const PRINTED: PrintResult = { kind: 'printed' };
/** Printed, as the printer's label counter shows (the connection was lost before it could say so itself). */
export const PRINTED_BY_COUNTER: PrintResult = { kind: 'printed', byCounter: true };

export interface PrinterDriver {
  readonly formats: ReadonlyArray<'zpl' | 'pdf'>;
  /**
   * True when the driver takes the next job once the printer has every byte of this one (it
   * calls `accepted`), or once they are written on a connection a later close proves (it calls
   * `written`), and confirms each job later (its promise settles when the label left the printer
   * or the close proved it, or names it as not printed). The queue then sends while the printer prints.
   */
  readonly streams?: boolean;
  /**
   * A streaming driver: how many of these jobs (their bytes, in lane order, read as far as it
   * iterates) it would write one after another right now, without waiting for the printer to make
   * room (at least 1). The queue commits that many `sending` in one commit (a burst; see
   * electron/queue/printQueue.ts).
   */
  readyFor?(payloads: Iterable<Buffer>): number;
  /** Sends one job; rejects with PrintError. Calls the hooks at their moments (see PrintHooks). */
  print(job: DriverJob, hooks: PrintHooks): Promise<PrintResult>;
  status(): Promise<DriverStatus>;
  /** Lets labels in the printer be confirmed for at most `boundMs`, then closes. */
  close?(boundMs?: number): Promise<void>;
  /** The printer's label counter now (null: it has none, or did not answer): settles jobs a crash left uncertain. */
  labelCounter?(): Promise<number | null>;
}

/** Runs tasks one after another: one writer per printer, so labels come out in order. */
export function createSerialWriter() {
  let tail: Promise<unknown> = Promise.resolve();
  return function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

export function asPrintError(
  err: unknown,
  outcome: FailureOutcome,
  fallbackCode: PrinterReasonCode = 'printer_error',
): PrintError {
  if (err instanceof PrintError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PrintError(fallbackCode, message, outcome);
}
