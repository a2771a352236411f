/**
 * The one small interface every printer path implements (TCP, USB, spooler, virtual, Windows).
 * The queue calls `print` for one job at a time per printer and learns two moments from it:
 * `onAccepted` when the printer or spooler has every byte (job state `sent`), and the promise
 * settling when the label is known printed (`done`) or not.
 */

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
    readonly code: string,
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
  reasonCode: string | null;
  reason: string | null;
}

export interface PrinterDriver {
  readonly formats: ReadonlyArray<'zpl' | 'pdf'>;
  /** Sends one job; rejects with PrintError. Calls onAccepted once every byte is accepted. */
  print(job: DriverJob, onAccepted: () => void): Promise<void>;
  status(): Promise<DriverStatus>;
  close?(): Promise<void>;
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

export function asPrintError(err: unknown, outcome: FailureOutcome, fallbackCode = 'printer_error'): PrintError {
  if (err instanceof PrintError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PrintError(fallbackCode, message, outcome);
}
