/**
 * The station's log: JSON lines in <dataDir>/logs/station.log, and the console when asked.
 *
 * pino formats each line; electron/base/log.ts writes them (logFile below), in order, two ways:
 * - info lines are gathered and written in one write() when the event loop next turns, so a line
 *   on the scan-to-label path costs a string and an array push, not a system call;
 * - a warning or an error is written at once, after every line gathered before it, and the file
 *   is synced (fdatasync) before the station goes on: the lines that explain a crash, a power
 *   cut or a kill are on the disk, not in a buffer.
 * A write that fails (disk full, the file system gone) drops its lines and is never retried: the
 * station goes on, and its exit never waits on the log (pino's own file stream, sonic-boom,
 * retried a failing write every 100 ms forever in its exit hook, so a core that meant to exit
 * hung). Lines still
 * gathered when the process exits are written once from its 'exit' event.
 *
 * The folder stays bounded: when station.log passes `maxBytes` it becomes station.1.log
 * (station.1 becomes station.2, ...) and the oldest beyond `maxFiles` is deleted. Renames happen
 * once per file, not per line. (pino-roll would name the live file station.N.log; the error
 * dialog and the README name station.log, so the live file keeps that name.) The folder is
 * created 0700 and the files 0600 (electron/base/privateDataDir.ts).
 *
 * Secrets never reach it: fields named like a secret are replaced before anything is written,
 * and callers never pass tokens in messages (tests search the log for them).
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from '../rpc/rpcServer';

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
  /** Resolves when every line so far is written to the file (tests, orderly shutdown). */
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

/** Writes `text` whole to `fd` or throws; a short write goes on from where it stopped (bounded). */
function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text);
  let off = 0;
  for (let tries = 0; off < buf.length && tries < 100; tries++) off += writeSync(fd, buf, off);
  if (off < buf.length) throw new Error('short write');
}

/** Open log files, written once more from the process's 'exit' event (lines still gathered). */
const openFiles = new Set<{ drain(): void }>();
let exitHooked = false;

/** station.log under the logger: ordered writes, warnings and errors synced at once (see above). */
function logFile(file: string) {
  const fd = openSync(file, 'a', 0o600);
  let gathered: string[] = [];
  let scheduled = false;
  let closed = false;
  const drain = () => {
    scheduled = false;
    if (!gathered.length || closed) return;
    const text = gathered.join('');
    gathered = [];
    try {
      writeAll(fd, text);
    } catch {
      // A full disk or a file system gone must not take the station down, nor hold it up: the
      // lines are dropped, never retried (the console, if any, still has them).
    }
  };
  const self = {
    /** `urgent`: written and synced before this returns (warnings and errors). */
    write(line: string, urgent: boolean) {
      if (closed) return;
      gathered.push(line);
      if (urgent) {
        drain();
        try {
          fdatasyncSync(fd);
        } catch {
          // As above: never an exception or a retry out of the log.
        }
      } else if (!scheduled) {
        scheduled = true;
        setImmediate(drain).unref();
      }
    },
    drain,
    close() {
      drain();
      closed = true;
      openFiles.delete(self);
      try {
        closeSync(fd);
      } catch {
        // Already gone with its file system.
      }
    },
  };
  openFiles.add(self);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      for (const f of openFiles) f.drain();
    });
  }
  return self;
}

export function createLogger(opts: LogOptions): StationLogger {
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const maxFiles = Math.max(1, opts.maxFiles ?? 5);
  let file: string | null = null;
  let dest: ReturnType<typeof logFile> | null = null;
  let size = 0;
  if (opts.dataDir) {
    mkdirSync(path.join(opts.dataDir, 'logs'), { recursive: true, mode: 0o700 });
    file = path.join(opts.dataDir, 'logs', 'station.log');
    size = existsSync(file) ? statSync(file).size : 0;
    dest = logFile(file);
  }

  let level: 'info' | 'warn' | 'error' = 'info';
  const out = {
    write(line: string) {
      if (dest && file) {
        if (size > 0 && size + Buffer.byteLength(line) > maxBytes) {
          try {
            // What the old file gathered goes into it before it is renamed.
            dest.close();
            shiftFiles(file, maxFiles);
            size = 0;
          } catch {
            // Could not rotate (a file held open elsewhere): keep writing where we are.
          }
          try {
            dest = logFile(file);
          } catch {
            // The folder is gone: the lines from here on reach the console only, if any.
            dest = null;
          }
        }
        size += Buffer.byteLength(line);
        dest?.write(line, level !== 'info');
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
    flush: () => {
      dest?.drain();
      return Promise.resolve();
    },
  };
}
