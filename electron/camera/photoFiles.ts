/**
 * Photo files in the data folder: photos/YYYY-MM-DD/<time>-s<scan>-<kind>.jpg (the day in UTC, as
 * every stored time). Written atomically: a temporary file in the same folder, synced, renamed over
 * the name, the folder synced, so a crash leaves the photo whole or absent, never a half file under
 * its name. Asynchronous: the core's event loop (and the scans) never wait for the disk here.
 */
import { mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { PhotoKind } from '../../shared/contract/camera';

export const PHOTOS_FOLDER = 'photos';

/** The photo's path relative to the data folder (what the database keeps). */
export function photoPath(takenAt: Date, scanId: number, kind: PhotoKind, seq: number): string {
  const iso = takenAt.toISOString();
  const time = iso.slice(11, 23).replace(/[:.]/g, '');
  return path.posix.join(PHOTOS_FOLDER, iso.slice(0, 10), `${time}-s${scanId}-${kind}-${seq}.jpg`);
}

/** Resolves a stored relative path inside the data folder; anything leading out of photos/ is refused. */
function inside(dataDir: string, rel: string): string {
  const root = path.resolve(dataDir, PHOTOS_FOLDER);
  const abs = path.resolve(dataDir, rel);
  if (!abs.startsWith(root + path.sep)) throw new Error(`not a photo path: ${rel}`);
  return abs;
}

export async function writePhotoFile(dataDir: string, rel: string, bytes: Buffer): Promise<void> {
  const file = inside(dataDir, rel);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  // The rename itself on the disk: the folder's entry (not possible on Windows, where it is durable).
  if (process.platform !== 'win32') {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
}

export function readPhotoFile(dataDir: string, rel: string): Promise<Buffer> {
  return readFile(inside(dataDir, rel));
}

/**
 * Removes the photo files of days before `beforeDay` (YYYY-MM-DD, UTC) that no photo row names:
 * those retention removed, and any a crash left without a row (a row rides on a later commit
 * than its file, store/photosRepo.ts) or half written (a `.tmp`). An emptied day's folder goes
 * too. Returns the files removed.
 */
export async function sweepPhotoFiles(
  dataDir: string,
  beforeDay: string,
  named: (rel: string) => boolean,
): Promise<number> {
  const root = path.join(dataDir, PHOTOS_FOLDER);
  let days: string[];
  try {
    days = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const day of days.filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && d < beforeDay).sort()) {
    const folder = path.join(root, day);
    const files = await readdir(folder).catch(() => [] as string[]);
    for (const f of files) {
      if (named(path.posix.join(PHOTOS_FOLDER, day, f))) continue;
      await rm(path.join(folder, f), { force: true });
      removed++;
    }
    // Only an empty folder goes (a photo saved there meanwhile keeps it).
    await rmdir(folder).catch(() => undefined);
  }
  return removed;
}
