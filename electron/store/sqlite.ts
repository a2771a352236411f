/**
 * The one place the station opens a better-sqlite3 database (station.db here; the embedded
 * sandbox gets the same binding through its `sqliteBinding` option, as sandbox/ imports nothing
 * from the station).
 *
 * better-sqlite3 is built twice: node_modules holds the Node build (tests, web host), and
 * native/electron (resources/native when packaged) holds the Electron build, which main.ts names
 * in STATION_SQLITE_BINDING. A binding that is missing or built for another runtime fails here
 * with a message naming the file, not deep inside the first query.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** The better-sqlite3 binary to load instead of node_modules' (undefined: node_modules'). */
export function sqliteBinding(): string | undefined {
  return process.env.STATION_SQLITE_BINDING || undefined;
}

export function openSqlite(file: string, nativeBinding = sqliteBinding(), options: Database.Options = {}): Db {
  if (!nativeBinding) return new Database(file, options);
  if (!existsSync(nativeBinding)) {
    throw new Error(
      `The SQLite driver binding ${nativeBinding} (STATION_SQLITE_BINDING) does not exist. Run \`npm start\` once to build it for Electron, or unset STATION_SQLITE_BINDING under Node.`,
    );
  }
  try {
    return new Database(file, { ...options, nativeBinding });
  } catch (err) {
    throw new Error(
      `The SQLite driver binding ${nativeBinding} (STATION_SQLITE_BINDING) could not be loaded: ${(err as Error).message}`,
      { cause: err },
    );
  }
}
