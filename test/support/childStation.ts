/**
 * What the station child processes (the crash tests' stationChild.ts, the benchmarks' coreChild.ts)
 * share: the test-only seams that open the station's database with another `synchronous` setting
 * or leave its write-ahead log unsynced, and a logger that keeps stdout for the child's line protocol.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
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

/**
 * With `on`, every `fdatasync` of this process answers at once without syncing anything (until
 * the function it returns is called): the
 * station still awaits its write-ahead log's sync before each side effect (electron/store/walSync.ts),
 * but the commit stays in the page cache (the lossy file system's overlay), as if nothing awaited it.
 * SQLite's own syncs (checkpoints, a FULL commit) go through its C code and are untouched.
 */
export function skipWalSyncs(on: boolean): () => void {
  if (!on) return () => undefined;
  const original = fs.fdatasync;
  fs.fdatasync = ((_fd: number, callback: (err: NodeJS.ErrnoException | null) => void) =>
    process.nextTick(callback, null)) as typeof fs.fdatasync;
  // The ES module view of node:fs (how the station imports it) follows the patched object.
  syncBuiltinESMExports();
  /** Syncs again. */
  return () => {
    fs.fdatasync = original;
    syncBuiltinESMExports();
  };
}

/** Warnings and errors as JSON lines on stderr; stdout belongs to the protocol. */
export const stderrLogger: Logger = {
  info: () => undefined,
  warn: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`),
  error: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'error', message, ...fields })}\n`),
};
