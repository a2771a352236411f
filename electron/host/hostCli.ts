/**
 * `node dist/node/host.mjs [--port N] [--data-dir DIR] [--renderer DIR]`: the station in the
 * loopback web host, for browsers (thin-client stations) and for the e2e tests.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../dataDir';
import { createLogger } from '../log';
import { makeDataDirPrivate } from '../privateDataDir';
import { createStation } from '../station';
import { startWebHost } from './webHost';

declare const STATION_VERSION: string;

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.STATION_PORT ?? '0' },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
      reason: { type: 'string' },
    },
  });
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
  // (electron/coreEntry.ts); the line is written to station.log before the exit (electron/log.ts
  // writes errors synchronously), not only to a stderr nobody may be reading.
  const fatal = (err: unknown) => {
    log.error('the station stopped on an unexpected error', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    console.error(err);
    process.exit(1);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  const station = await createStation({ dataDir, host: 'web', version: STATION_VERSION, log });
  const staticDir = path.resolve(values.renderer ?? path.join(import.meta.dirname, '..', 'renderer'));
  const host = await startWebHost({ rpc: station.rpc, log, staticDir, port });
  log.info('web host started', { origin: host.origin });
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
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`The station could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
