/**
 * `node dist/node/host.mjs [--port N] [--data-dir DIR] [--renderer DIR]`: the station in the
 * loopback web host, for browsers (thin-client stations) and for the e2e tests.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../base/dataDir';
import { createLogger } from '../base/log';
import { makeDataDirPrivate } from '../base/privateDataDir';
import { storageFailure, type StorageFailure } from '../../shared/storageFailure';
import { createStation } from '../station';
import {
  exitCodeFor,
  STORAGE_EXIT_GRACE_MS,
  STORAGE_FAILED_EXIT_CODE,
  storageFailureOf,
} from '../status/storageFailure';
import { startWebHost } from './webHost';

declare const STATION_VERSION: string;

/** Messages to scripts/start.mjs when it started this process with an IPC channel (none otherwise). */
type ToSupervisor = { t: 'listening'; port: number; token: string } | { t: 'storageFailed'; failure: StorageFailure };
const toSupervisor = (msg: ToSupervisor): void => {
  if (process.send && process.connected) process.send(msg);
};

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.STATION_PORT ?? '0' },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
      reason: { type: 'string' },
      // Set by scripts/start.mjs when it starts the station again after a storage failure (JSON).
      'restarted-after': { type: 'string' },
    },
  });
  // A start after a storage failure keeps the address the open page knows (scripts/start.mjs hands
  // the earlier launch's token over in the environment), so the page reconnects by itself.
  const token = /^[\w-]{32,}$/.test(process.env.STATION_WEB_TOKEN ?? '') ? process.env.STATION_WEB_TOKEN : undefined;
  // Not passed on to the programs the station runs (lp, udevadm...).
  delete process.env.STATION_WEB_TOKEN;
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, not "${values.port}".`);
    process.exit(2);
  }
  const dataDir = resolveDataDir(values['data-dir']);
  // Before anything is opened in it: the folder and what it holds readable by this user only.
  const notPrivate = makeDataDirPrivate(dataDir);
  const log = createLogger({ dataDir });
  if (notPrivate.length) log.warn('some files of the data folder could not be made private', { files: notPrivate });
  // One unexpected error ends the process (its state is unknown), as in the desktop app's core
  // (electron/host/coreEntry.ts); the line is written to station.log before the exit (electron/base/log.ts
  // writes errors synchronously), not only to a stderr nobody may be reading.
  // A storage error (the data folder's disk failing) exits with its own code, which the
  // supervisor (scripts/start.mjs) answers with a new start; the log line is dropped if the disk
  // cannot take it (electron/base/log.ts), so the exit never waits on it.
  const fatal = (err: unknown) => {
    const failure = storageFailureOf(err, dataDir);
    log.error(
      failure ? 'the station stopped: it cannot write its data' : 'the station stopped on an unexpected error',
      { error: err instanceof Error ? (err.stack ?? err.message) : String(err) },
    );
    console.error(err);
    if (!failure) process.exit(1);
    // The supervisor is told why (a message needs a turn of the event loop to leave), then the exit.
    toSupervisor({ t: 'storageFailed', failure });
    setTimeout(() => process.exit(STORAGE_FAILED_EXIT_CODE), 100);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  let restartedAfter: StorageFailure | null = null;
  try {
    const parsed = storageFailure.safeParse(JSON.parse(values['restarted-after'] ?? 'null'));
    if (parsed.success) restartedAfter = parsed.data;
  } catch {
    // Not JSON: the desk simply does not say why the station was restarted.
  }
  const station = await createStation({
    dataDir,
    host: 'web',
    version: STATION_VERSION,
    log,
    restartedAfter,
    // The data folder cannot be written: the desk has been told and scans are refused; after a
    // short grace (the page hears why) the process ends with its own code, never blocked in a
    // log flush, and scripts/start.mjs starts it again.
    onStorageFailed: (f) => {
      toSupervisor({ t: 'storageFailed', failure: f });
      console.error(
        `The station cannot write its data: ${f.message} (${f.code}). It stops now (exit code ${STORAGE_FAILED_EXIT_CODE}).`,
      );
      setTimeout(() => process.exit(STORAGE_FAILED_EXIT_CODE), STORAGE_EXIT_GRACE_MS);
    },
  });
  const staticDir = path.resolve(values.renderer ?? path.join(import.meta.dirname, '..', 'renderer'));
  const host = await startWebHost({ rpc: station.rpc, log, staticDir, port, token });
  log.info('web host started', { origin: host.origin });
  toSupervisor({ t: 'listening', port: host.port, token: host.token });
  if (values.reason) console.log(values.reason);
  console.log(`Label Station is running. Data folder: ${dataDir}`);
  console.log(`Open this address in a browser on this computer (it holds this launch's access token):`);
  console.log(`  ${host.url}`);
  let stopping = false;
  const stop = async () => {
    // Once: a second signal while the station finishes its label in flight changes nothing.
    if (stopping) return;
    stopping = true;
    await host.close();
    await station.close();
    process.exit(0);
  };
  // A close that fails still ends the process (it was asked to stop), with the reason in the log.
  const stopOrExit = () =>
    void stop().catch((err: unknown) => {
      log.error('the station did not close cleanly', { error: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    });
  process.on('SIGINT', stopOrExit);
  process.on('SIGTERM', stopOrExit);
}

main().catch((err) => {
  console.error(`The station could not start: ${err instanceof Error ? err.message : String(err)}`);
  // A start on a disk that still fails exits with the storage code too: the supervisor tries again (bounded).
  process.exit(exitCodeFor(err));
});
