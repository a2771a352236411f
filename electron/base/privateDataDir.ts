/**
 * The data folder is private to the user who runs the station: station.db and
 * its WAL hold recipients' names and e-mail addresses, the logs and the virtual PDF printer's
 * labels the same. Under the usual umask 022 everything was created 0755 / 0644, readable by
 * every account on the machine.
 *
 * At core start, before anything is opened: the process umask becomes 077 (so whatever SQLite,
 * pino or a driver creates later is 0600 / 0700 whatever mode it asks for; SQLite gives -wal and
 * -shm the database file's own mode), the folder is created 0700, and what an older version left
 * in it is tightened: folders 0700, files 0600, symbolic links left alone (never followed).
 * Windows keeps its ACLs (the folder under %APPDATA% is the user's already); nothing is done there.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dataDir` private as described above. Returns what could not be tightened (a file owned
 * by another account, say), for the caller to log once its log exists; never throws for those.
 */
export function makeDataDirPrivate(dataDir: string, platform = process.platform): string[] {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (platform === 'win32') return [];
  try {
    process.umask(0o077);
  } catch {
    // A worker thread cannot change the umask (tests); the explicit modes below still hold.
  }
  const problems: string[] = [];
  const tighten = (p: string) => {
    try {
      const info = lstatSync(p);
      if (info.isSymbolicLink()) return;
      if (info.isDirectory()) {
        if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(p, PRIVATE_DIR_MODE);
        for (const name of readdirSync(p)) tighten(path.join(p, name));
      } else if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(p, PRIVATE_FILE_MODE);
    } catch (err) {
      problems.push(`${p}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  tighten(dataDir);
  return problems;
}
