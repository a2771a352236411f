/** A logger that keeps every line (as the file logger would write it) for tests to search. */
import type { Logger } from '../../../electron/rpc/rpcServer';

export interface CapturedLog extends Logger {
  lines: string[];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, message, ...fields }));
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}
