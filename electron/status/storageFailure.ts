/**
 * A failing disk is a state, not a hang. When the data folder's file system dies
 * under the station (an I/O error, a full disk, the folder gone or read-only), every later commit
 * fails too, and a core left running in that state answers nothing useful. So the first storage
 * error anywhere in the core (a scan's commit, a print lane, a promise chain nobody awaited)
 * puts the station into one "storage failed" state: the desk is told why, scans are refused with
 * that reason instead of being acknowledged, and the host ends the process with
 * STORAGE_FAILED_EXIT_CODE after a short grace (so the page hears it), which its supervisor
 * (the Electron shell, `npm start`) answers with a fresh core. Nothing acknowledged is lost: an
 * acknowledgement follows its commit, and a commit that failed was never acknowledged.
 */
import { STORAGE_FAILED_EXIT_CODE, type StorageFailure } from '../../shared/storageFailure';
import type { Logger } from '../rpc/rpcServer';
import { StationError } from '../base/stationError';

export { STORAGE_FAILED_EXIT_CODE };

/** How long a failed core keeps answering (refusals, the status) before it exits. */
export const STORAGE_EXIT_GRACE_MS = 1000;

/** SQLite's result codes (better-sqlite3's SqliteError.code, extended codes included) by kind. */
const SQLITE_KINDS: [RegExp, StorageFailure['kind']][] = [
  [/^SQLITE_FULL/, 'full'],
  [/^SQLITE_IOERR/, 'io'],
  [/^SQLITE_CANTOPEN/, 'gone'],
  [/^SQLITE_READONLY/, 'readonly'],
];
/** The file system's own errors, counted only for a path inside the data folder (a scale's serial port may say EIO too). */
const FS_KINDS: Record<string, StorageFailure['kind']> = {
  EIO: 'io',
  ENOTCONN: 'io',
  ESTALE: 'io',
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'readonly',
};

/** The storage failure an error is, or null for any other error. `dataDir` admits file-system errors on its paths. */
export function storageFailureOf(err: unknown, dataDir?: string, at = new Date()): StorageFailure | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; message?: unknown; path?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a thrown non-Error: its own toString is all it says
  const message = typeof e.message === 'string' ? e.message : String(err);
  const sqlite = SQLITE_KINDS.find(([re]) => re.test(code));
  if (sqlite) return { kind: sqlite[1], code, message, at: at.toISOString() };
  const fsKind = FS_KINDS[code];
  if (fsKind && dataDir && typeof e.path === 'string' && e.path.startsWith(dataDir))
    return { kind: fsKind, code, message, at: at.toISOString() };
  return null;
}

/** The refusal a call gets once the station's data cannot be written. */
export function storageRefusal(f: StorageFailure): StationError {
  return new StationError('storage_failed', `The station cannot write its data: ${f.message} (${f.code}).`, f);
}

export interface StorageGuard {
  /** The failure the station is in, or null while its data can be written. */
  failed(): StorageFailure | null;
  /** True when `err` is a storage failure (the first one puts the station into the failed state). */
  check(err: unknown): boolean;
}

export function createStorageGuard(o: {
  dataDir: string;
  log: Logger;
  onFailed(f: StorageFailure): void;
}): StorageGuard {
  let failed: StorageFailure | null = null;
  return {
    failed: () => failed,
    check(err) {
      const f = storageFailureOf(err, o.dataDir);
      if (!f) return false;
      if (!failed) {
        failed = f;
        // Written if the log's disk still takes it; dropped (never retried) if not (electron/base/log.ts).
        o.log.error('the station cannot write its data: scanning stopped', {
          kind: f.kind,
          code: f.code,
          error: f.message,
        });
        o.onFailed(f);
      }
      return true;
    },
  };
}

/**
 * The process-level end of a core (an uncaught error, an unhandled rejection): a storage failure
 * exits with STORAGE_FAILED_EXIT_CODE, anything else with 1. Never waits on the log.
 */
export function exitCodeFor(err: unknown, dataDir?: string): number {
  return storageFailureOf(err, dataDir) ? STORAGE_FAILED_EXIT_CODE : 1;
}
