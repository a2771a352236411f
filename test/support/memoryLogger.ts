/** A logger that keeps lines in memory, so tests can read what the station logged. */
import type { Logger } from '../../electron/rpc/rpcServer';

export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}
