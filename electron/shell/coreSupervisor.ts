/**
 * The Electron shell's watch over its core process (electron/host/coreProcess.ts, forked as a utility
 * process): starts it, tells when it serves the contract, and starts it again when it stops on its
 * own. A core that stopped because its data folder could not be written (a storage failure, exit
 * code STORAGE_FAILED_EXIT_CODE) has said why first: the new core, started when the restart policy
 * says (electron/host/restartPolicy.ts, shared with `npm start -- --web`), is told, and its desk
 * shows it. A stop the policy gives up on: the shell says why and quits.
 *
 * Plain Node, no `electron` import: main.ts passes Electron's `utilityProcess.fork`, a unit test a
 * FakeUtilityProcess.
 */
import type { StorageFailure } from '../../shared/storageFailure';
import type { CoreToMain, MainToCore } from '../host/coreProcess';
import { createRestartPolicy } from '../host/restartPolicy';

/** The part of Electron's UtilityProcess the supervisor uses. */
export interface UtilityProcessLike {
  postMessage(message: MainToCore, transfer?: unknown[]): void;
  on(event: 'message', listener: (msg: CoreToMain) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'spawn', listener: () => void): unknown;
  kill(): boolean;
}

/** A core that stopped before it was ready, or too often: its reason and where its log is, for the dialog. */
export class CoreStartError extends Error {
  constructor(
    message: string,
    readonly logFile: string | null,
  ) {
    super(message);
  }
}

export interface CoreSupervisorOptions {
  fork(): UtilityProcessLike;
  dataDir: string;
  /** The core asks for the system browser. */
  openExternal(url: string): void;
  /** A new core serves the contract after a stop: the page gets a new port. */
  restarted(): void;
  /** The core cannot run (its start failed after a stop, or it stopped three times in a minute). */
  giveUp(err: CoreStartError, title?: string): void;
  now?: () => number;
  /** Waits before a restart after a storage failure (default: a timer). */
  wait?: (ms: number) => Promise<void>;
}

export interface CoreSupervisor {
  /** Forks the core; resolves once it serves the contract (rejects with a CoreStartError). */
  start(): Promise<void>;
  /** The running core when it serves the contract, else null. */
  ready(): UtilityProcessLike | null;
  /** The core in any state (quitting closes it). */
  current(): UtilityProcessLike | null;
  logFile(): string | null;
  /** The app quits: a core that stops now is not started again. */
  quitting(): void;
}

export function createCoreSupervisor(o: CoreSupervisorOptions): CoreSupervisor {
  const now = o.now ?? Date.now;
  const wait = o.wait ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let core: UtilityProcessLike | null = null;
  let coreReady = false;
  let logFile: string | null = null;
  let quitting = false;
  const policy = createRestartPolicy();

  function start(restartedAfter: StorageFailure | null = null): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = o.fork();
      core = child;
      coreReady = false;
      let settled = false;
      let wasReady = false;
      // What this core said before it stopped on a storage failure (the next core is told).
      let storageFailure: StorageFailure | null = null;
      child.once('spawn', () => child.postMessage({ t: 'start', dataDir: o.dataDir, restartedAfter }));
      child.on('message', (msg) => {
        if (msg.t === 'ready') {
          coreReady = true;
          wasReady = true;
          logFile = msg.logFile;
          settled = true;
          resolve();
        } else if (msg.t === 'failed') {
          settled = true;
          reject(new CoreStartError(msg.message, msg.logFile));
        } else if (msg.t === 'openExternal') {
          o.openExternal(msg.url);
        } else if (msg.t === 'storageFailed') {
          storageFailure = msg.failure;
        }
      });
      child.on('exit', (code) => {
        if (core === child) {
          core = null;
          coreReady = false;
        }
        if (!settled) {
          settled = true;
          reject(new CoreStartError(`The station core stopped (exit code ${code}) before it was ready.`, logFile));
        } else if (wasReady && !quitting) {
          // A core that failed its start has said why (the dialog shows it): only a running core is restarted.
          void stopped(code, storageFailure);
        }
      });
    });
  }

  /**
   * The core stopped on its own (a crash, or a storage failure it reported): a new one starts and
   * the page gets a new port (its calls in flight answer "unavailable"; the journal resumes the
   * scan that was cut off). A third stop within a minute means it cannot run.
   */
  async function stopped(code: number, storageFailure: StorageFailure | null): Promise<void> {
    const decision = policy.stopped(now());
    const why = storageFailure
      ? ` because it could not write its data: ${storageFailure.message} (${storageFailure.code})`
      : '';
    if (!decision.restart) {
      quitting = true;
      o.giveUp(
        new CoreStartError(
          `The station core stopped ${decision.stops} times within a minute${why} (last exit code ${code}).`,
          logFile,
        ),
        'Label Station stopped',
      );
      return;
    }
    try {
      // A crash restarts at once; a disk being freed or remounted gets the policy's moment.
      if (storageFailure) await wait(decision.delayMs);
      if (quitting) return;
      await start(storageFailure);
      const core = ready();
      core?.postMessage({
        t: 'log',
        level: 'error',
        message: storageFailure
          ? 'the station core stopped because it could not write its data and was started again'
          : 'the station core stopped unexpectedly and was started again',
        fields: {
          exitCode: code,
          ...(storageFailure ? { code: storageFailure.code, error: storageFailure.message } : {}),
        },
      });
      o.restarted();
    } catch (err) {
      quitting = true;
      o.giveUp(err instanceof CoreStartError ? err : new CoreStartError(String(err), logFile));
    }
  }

  const ready = () => (core && coreReady ? core : null);
  return {
    start: () => start(null),
    ready,
    current: () => core,
    logFile: () => logFile,
    quitting: () => {
      quitting = true;
    },
  };
}
