/**
 * Entry of dist/electron/core.cjs, which electron/shell/main.ts forks with `utilityProcess.fork`:
 * the station core serving the contract (electron/host/coreProcess.ts) on the ports main hands it.
 */
import { runCoreProcess, type ParentPortLike } from './coreProcess';

declare const STATION_VERSION: string;

const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (!parentPort) {
  console.error('core.cjs runs as an Electron utility process (forked by the main process), not on its own.');
  process.exit(2);
}
const core = runCoreProcess(parentPort, { version: STATION_VERSION, exit: (code) => process.exit(code) });
// One unexpected error ends the process (its state is unknown): logged, and main starts a new core.
process.on('uncaughtException', (err) => core.fatal(err));
process.on('unhandledRejection', (err) => core.fatal(err));
