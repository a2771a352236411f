/**
 * A storage failure: the station's data folder cannot be written. One model
 * for the core (which detects it, electron/status/storageFailure.ts), the status it reports and the desk
 * that says it in the worker's language. `kind` is what a worker can act on; `code` is the system's
 * own name for it (SQLITE_IOERR_WRITE, ENOSPC, ...) for whoever reads the log.
 */
import { z } from 'zod';

export const storageFailureKinds = ['io', 'full', 'gone', 'readonly'] as const;

export const storageFailure = z.object({
  kind: z.enum(storageFailureKinds),
  code: z.string(),
  /** The system's English sentence (SQLite's "disk I/O error"), for the log and support. */
  message: z.string(),
  at: z.string(),
});

export type StorageFailure = z.infer<typeof storageFailure>;

/**
 * The core's exit code when it stops because its data cannot be written (sysexits.h EX_TEMPFAIL:
 * "try again later"): the Electron shell and `npm start` restart a core that exits with it.
 */
export const STORAGE_FAILED_EXIT_CODE = 75;
