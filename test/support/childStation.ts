/**
 * What the station child processes (the crash tests' stationChild.ts, the benchmarks' coreChild.ts)
 * share: the test-only seam that opens the station's database with a weaker `synchronous` setting,
 * and a logger that keeps stdout for the child's line protocol.
 */
import Database from 'better-sqlite3';
import type { Logger } from '../../electron/rpc/rpcServer';

/**
 * Every `PRAGMA synchronous = ...` the station runs becomes `synchronous = <value>` (OFF, NORMAL,
 * FULL or EXTRA); nothing changes without a value. `who` names the child in the error.
 */
export function forceSynchronous(value: string | undefined, who: string): void {
  if (!value) return;
  if (!/^(OFF|NORMAL|FULL|EXTRA)$/i.test(value)) throw new Error(`${who}: synchronous=${value}`);
  const pragma = Database.prototype.pragma;
  Database.prototype.pragma = function (this: Database.Database, source: string, options?: Database.PragmaOptions) {
    return pragma.call(this, /^\s*synchronous\s*=/i.test(source) ? `synchronous = ${value}` : source, options);
  };
}

/** Warnings and errors as JSON lines on stderr; stdout belongs to the protocol. */
export const stderrLogger: Logger = {
  info: () => undefined,
  warn: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`),
  error: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'error', message, ...fields })}\n`),
};
