/**
 * The station's log: JSON lines in <dataDir>/logs/station.log, and the console when asked.
 * Secrets never reach it: fields named like a secret are replaced before anything is written,
 * and callers never pass tokens in messages (a test searches the log for them).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './rpc/rpcServer';

const SECRET_KEY = /secret|token|password|authorization|cookie/i;

function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!fields) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  return out;
}

export function createLogger(opts: { dataDir?: string; console?: boolean }): Logger & { file: string | null } {
  let file: string | null = null;
  if (opts.dataDir) {
    mkdirSync(path.join(opts.dataDir, 'logs'), { recursive: true });
    file = path.join(opts.dataDir, 'logs', 'station.log');
  }
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({ at: new Date().toISOString(), level, message, ...redact(fields) });
    if (file) {
      try {
        appendFileSync(file, line + '\n');
      } catch {
        // A full disk must not take the station down with it; the console still has it.
      }
    }
    if (opts.console) (level === 'error' ? console.error : console.log)(line);
  };
  return {
    file,
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
