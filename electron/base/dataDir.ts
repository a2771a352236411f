/**
 * Where the station keeps its database, logs, the built-in sandbox's data and the virtual PDF
 * printer's folder: one rule for both hosts (the Electron app and the web host), as docs/OPERATIONS.md
 * states it: `--data-dir DIR`, else STATION_DATA_DIR, else the per-OS default below.
 */
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.STATION_DATA_DIR) return path.resolve(env.STATION_DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Label Station');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Label Station');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'label-station');
}

/** The `--data-dir DIR` (or `--data-dir=DIR`) among command-line arguments, if given. */
export function dataDirArgument(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--data-dir' && args[i + 1] !== undefined) return args[i + 1];
    if (a.startsWith('--data-dir=')) return a.slice('--data-dir='.length);
  }
  return undefined;
}

/** The data folder: the command line's, else STATION_DATA_DIR, else the per-OS default. */
export function resolveDataDir(
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  return given ? path.resolve(given) : defaultDataDir(env, platform);
}
