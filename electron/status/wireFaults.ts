/**
 * The station's faults, wired first by the composition root (electron/station.ts): the first
 * storage error anywhere stops scanning and tells the desk (the status), then the host; work nobody
 * awaits that fails is either that state or a logged error; and once the data cannot be written,
 * the RPC server refuses a scan with why, never acknowledging it.
 */
import type { StorageFailure } from '../../shared/storageFailure';
import type { Logger, RpcGuards } from '../rpc/rpcServer';
import { createStorageGuard, storageRefusal } from './storageFailure';

/**
 * What a page may still ask once the data cannot be written: what its top bar and the banner
 * saying why are drawn from (reads; one that fails on the disk is refused like the rest).
 */
const ANSWERED_WHILE_STORAGE_FAILED: ReadonlySet<string> = new Set([
  'station.status',
  'settings.get',
  'settings.pageLanguage',
  'accounts.list',
  'printing.printers.list',
  'printing.routes.get',
]);

export function wireFaults(o: { dataDir: string; log: Logger }) {
  // Told once the status exists (wireStatus); a failure before that only sets the state.
  let onFailed = (_f: StorageFailure): void => undefined;
  const storage = createStorageGuard({ dataDir: o.dataDir, log: o.log, onFailed: (f) => onFailed(f) });
  const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
  return {
    storage,
    /** Work nobody awaits failed: a storage failure is the station's state, anything else a logged error. */
    fault(what: string, err: unknown): void {
      if (!storage.check(err)) o.log.error(what, { error: messageOf(err) });
    },
    whenStorageFailed(fn: (f: StorageFailure) => void): void {
      onFailed = fn;
    },
    rpc: {
      // Once the data cannot be written, a scan is refused with why, never acknowledged.
      refuse: (method: string) => {
        const f = storage.failed();
        return f && !ANSWERED_WHILE_STORAGE_FAILED.has(method) ? storageRefusal(f) : null;
      },
      fault: (err: unknown) => (storage.check(err) ? storageRefusal(storage.failed()!) : null),
    } satisfies RpcGuards,
  };
}

export type StationFaults = ReturnType<typeof wireFaults>;
