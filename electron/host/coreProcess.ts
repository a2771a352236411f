/**
 * The station core as its own process: in the desktop app Electron's main process forks
 * dist/electron/core.cjs as a utility process (electron/host/coreEntry.ts), so synchronous SQLite,
 * PDF and label work never holds up the window's input events (a scanner types into it). The
 * main process keeps the window, menus, app:// and the seams that need Electron; this side
 * serves the contract on the MessagePorts the main process hands it, one per page.
 *
 * Plain Node, no `electron` import: the parent port is passed in, so a test drives this with a
 * named mock of Electron's `process.parentPort` and real worker_threads ports.
 */
import type { StationStatus } from '../../shared/contract/status';
import { storageFailure, type StorageFailure } from '../../shared/storageFailure';
import { createLogger } from '../base/log';
import { makeDataDirPrivate } from '../base/privateDataDir';
import { electronRpcPort, serveRpcPort, type MessagePortLike, type RpcPort } from '../rpc/messagePortBridge';
import type { Logger } from '../rpc/rpcServer';
import { createStation, type Station, type StationOptions } from '../station';
import { STORAGE_EXIT_GRACE_MS, STORAGE_FAILED_EXIT_CODE, storageFailureOf } from '../status/storageFailure';

/** Main process -> core. `connect` carries one port (a page's other end) in `ports`. */
export type MainToCore =
  /** `restartedAfter`: this core replaces one that stopped on a storage failure (the desk says why). */
  | { t: 'start'; dataDir: string; restartedAfter?: StorageFailure | null }
  | { t: 'connect' }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }
  | { t: 'close' };

/** Core -> main process: start and close outcomes, and the seams only the main process has. */
export type CoreToMain =
  | { t: 'ready'; logFile: string | null }
  | { t: 'failed'; message: string; logFile: string | null }
  | { t: 'openExternal'; url: string }
  /** The data folder cannot be written: the core exits with STORAGE_FAILED_EXIT_CODE right after, to be started again. */
  | { t: 'storageFailed'; failure: StorageFailure }
  | { t: 'closed' };

/** The shape of Electron's `process.parentPort` in a utility process. */
export interface ParentPortLike {
  on(event: 'message', listener: (e: { data: unknown; ports: MessagePortLike[] }) => void): unknown;
  postMessage(message: CoreToMain): void;
}

export interface CoreProcessOptions {
  version: string;
  exit(code: number): void;
  /** Turns a received port into the bridge's port (default: Electron's MessagePortMain). */
  wrapPort?: (port: MessagePortLike) => RpcPort;
  /** Extra station options (tests: an in-memory keychain). */
  station?: Partial<StationOptions>;
}

const LEVELS = new Set(['info', 'warn', 'error']);

export function runCoreProcess(parent: ParentPortLike, opts: CoreProcessOptions): { fatal(err: unknown): void } {
  const wrap = opts.wrapPort ?? electronRpcPort;
  let log: (Logger & { file: string | null }) | null = null;
  let station: Station | null = null;
  let starting = false;
  let closing = false;
  const waiting: MessagePortLike[] = [];
  const served = new Set<() => void>();
  const say = (msg: CoreToMain) => parent.postMessage(msg);

  const serve = (port: MessagePortLike) => {
    if (!station || !log) {
      waiting.push(port);
      return;
    }
    const stop = serveRpcPort(wrap(port), station.rpc, log);
    served.add(stop);
    // A page gets a new port when its core was started again (electron/shell/coreSupervisor.ts): it
    // does not reload, so the status (why the core was restarted) is sent to it.
    const rpc = station.rpc;
    void rpc.dispatch('station.status', {}).then((r) => {
      if (r.ok) rpc.emit('station.statusChanged', r.value as StationStatus);
    });
  };

  let dataDirInUse: string | undefined;
  /** Scanning has stopped and the desk has been told: main hears why, then the process ends (never waiting on the log). */
  let stoppingOnStorage = false;
  const stopOnStorageFailure = (failure: StorageFailure, graceMs: number) => {
    if (stoppingOnStorage) return;
    stoppingOnStorage = true;
    say({ t: 'storageFailed', failure });
    setTimeout(() => opts.exit(STORAGE_FAILED_EXIT_CODE), graceMs);
  };

  async function start(dataDir: string, restartedAfter: StorageFailure | null): Promise<void> {
    dataDirInUse = dataDir;
    try {
      // Before anything is opened in it: the folder and what it holds readable by this user only.
      const notPrivate = makeDataDirPrivate(dataDir);
      log = createLogger({ dataDir });
      if (notPrivate.length) log.warn('some files of the data folder could not be made private', { files: notPrivate });
      station = await createStation({
        dataDir,
        host: 'electron',
        version: opts.version,
        log,
        // The system browser is opened by the main process (Electron's shell); the core only asks.
        openExternal: (url) => say({ t: 'openExternal', url }),
        restartedAfter,
        onStorageFailed: (f) => stopOnStorageFailure(f, STORAGE_EXIT_GRACE_MS),
        ...opts.station,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log?.error('the station could not start', { error: message });
      say({ t: 'failed', message, logFile: log?.file ?? null });
      // Main shows why in a dialog (electron/shell/coreSupervisor.ts): a core that never ran is not restarted.
      opts.exit(1);
      return;
    }
    for (const port of waiting.splice(0)) serve(port);
    log.info('station core started in its own process', { pid: process.pid });
    say({ t: 'ready', logFile: log.file });
  }

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    for (const stop of served) stop();
    served.clear();
    // Bounded inside close(): the scan and the label in flight finish first.
    await station
      ?.close()
      .catch((err: unknown) => log?.error('the station did not close cleanly', { error: String(err) }));
    station = null;
    say({ t: 'closed' });
    opts.exit(0);
  }

  parent.on('message', (e) => {
    const msg = e.data as MainToCore | null;
    if (typeof msg !== 'object' || msg === null) return;
    if (msg.t === 'start' && typeof msg.dataDir === 'string' && !starting) {
      starting = true;
      const after = storageFailure.safeParse(msg.restartedAfter ?? null);
      void start(msg.dataDir, after.success ? after.data : null);
    } else if (msg.t === 'connect' && e.ports[0] && !closing) {
      serve(e.ports[0]);
    } else if (msg.t === 'log' && LEVELS.has(msg.level) && typeof msg.message === 'string') {
      // The main process's own lines (a core restart, an earlier data folder) go to the one log.
      if (log) log[msg.level](msg.message, { ...msg.fields, from: 'main' });
      else console.error(msg.message);
    } else if (msg.t === 'close') {
      void close();
    }
  });

  return {
    fatal(err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      const failure = storageFailureOf(err, dataDirInUse);
      // Written if the disk takes it, dropped if not (electron/base/log.ts): the exit never waits on it.
      log?.error(
        failure
          ? 'the station core stopped: it cannot write its data'
          : 'the station core stopped on an unexpected error',
        { error: message },
      );
      console.error(message);
      // A storage failure: main hears why (a message needs a turn of the event loop), then the exit.
      if (failure) stopOnStorageFailure(failure, 100);
      else opts.exit(1);
    },
  };
}
