/** Where the station keeps its database and logs when no folder is given (the web host). */
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.STATION_DATA_DIR) return path.resolve(env.STATION_DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Label Station');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Label Station');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'label-station');
}
