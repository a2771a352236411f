/**
 * The station's log: JSON lines in <dataDir>/logs/station.log, and the console when asked.
 *
 * Written with pino to an asynchronous file stream (sonic-boom): a line costs a string and a
 * buffer append, never a synchronous write on the scan-to-label path. The folder stays bounded:
 * when station.log passes `maxBytes` it becomes station.1.log (station.1 becomes station.2, ...)
 * and the oldest beyond `maxFiles` is deleted. Renames happen once per file, not per line.
 * (pino-roll would name the live file station.N.log; the error dialog and the README name
 * station.log, so the live file keeps that name.)
 *
 * Secrets never reach it: fields named like a secret are replaced before anything is written,
 * and callers never pass tokens in messages (tests search the log for them).
 */
import { existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from './rpc/rpcServer';

const SECRET_KEY = /secret|token|password|authorization|cookie/i;

function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!fields) return out;
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  return out;
}

export interface LogOptions {
  dataDir?: string;
  console?: boolean;
  /** Size at which station.log is rotated (default 5 MB). */
  maxBytes?: number;
  /** Files kept, station.log included (default 5: at most about 25 MB of log). */
  maxFiles?: number;
}

export type StationLogger = Logger & {
  file: string | null;
  /** Resolves when every line so far is on the disk (tests, orderly shutdown). */
  flush(): Promise<void>;
};

/** station.log -> station.1.log -> ... -> station.<maxFiles-1>.log, the oldest dropped. */
function shiftFiles(file: string, maxFiles: number) {
  const numbered = (n: number) => file.replace(/\.log$/, `.${n}.log`);
  rmSync(numbered(maxFiles - 1), { force: true });
  for (let n = maxFiles - 2; n >= 1; n--) if (existsSync(numbered(n))) renameSync(numbered(n), numbered(n + 1));
  if (maxFiles > 1) renameSync(file, numbered(1));
  else rmSync(file, { force: true });
}

export function createLogger(opts: LogOptions): StationLogger {
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const maxFiles = Math.max(1, opts.maxFiles ?? 5);
  let file: string | null = null;
  let dest: ReturnType<typeof pino.destination> | null = null;
  let size = 0;
  // Bytes handed to the stream and bytes it reported written: flush() waits for them to meet.
  let queued = 0;
  let written = 0;
  const waiters: (() => void)[] = [];
  const onWritten = (n: number) => {
    written += n;
    if (written >= queued) for (const w of waiters.splice(0)) w();
  };
  /**
   * An asynchronous stream on station.log: lines are buffered and written by the event loop, and
   * pino flushes the rest synchronously when the process exits. The file is opened here, once per
   * file, so the stream is ready (and can be rotated) from the first line.
   */
  const open = (f: string) => {
    const d = pino.destination({ dest: openSync(f, 'a'), sync: false });
    // A full disk must not take the station down with it; the console (if any) still has it.
    d.on('error', () => undefined);
    d.on('write', onWritten);
    return d;
  };
  if (opts.dataDir) {
    mkdirSync(path.join(opts.dataDir, 'logs'), { recursive: true });
    file = path.join(opts.dataDir, 'logs', 'station.log');
    size = existsSync(file) ? statSync(file).size : 0;
    dest = open(file);
  }

  let level: 'info' | 'warn' | 'error' = 'info';
  const out = {
    write(line: string) {
      if (dest && file) {
        if (size > 0 && size + Buffer.byteLength(line) > maxBytes) {
          try {
            // The old stream finishes its buffered lines into the renamed file, then closes.
            shiftFiles(file, maxFiles);
            const old = dest;
            dest = open(file);
            old.end();
            size = 0;
          } catch {
            // Could not rotate (a file held open elsewhere): keep writing where we are.
          }
        }
        const bytes = Buffer.byteLength(line);
        size += bytes;
        queued += bytes;
        dest.write(line);
      }
      if (opts.console) (level === 'error' ? process.stderr : process.stdout).write(line);
    },
  };
  // The line format the station has always written: {"level":"info","at":"…","message":"…",…fields}.
  const logger = pino(
    {
      base: null,
      messageKey: 'message',
      timestamp: () => `,"at":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    out,
  );
  const write = (l: typeof level) => (message: string, fields?: Record<string, unknown>) => {
    level = l;
    logger[l](redact(fields), message);
  };
  return {
    file,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    flush: () =>
      new Promise<void>((resolve) => {
        if (!dest || written >= queued) return resolve();
        waiters.push(resolve);
      }),
  };
}
