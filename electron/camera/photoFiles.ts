/**
 * Photo files in the data folder: photos/YYYY-MM-DD/<time>-s<scan>-<kind>.jpg (the day in UTC, as
 * every stored time). Written atomically: a temporary file in the same folder, synced, renamed over
 * the name, the folder synced, so a crash leaves the photo whole or absent, never a half file under
 * its name. Asynchronous: the core's event loop (and the scans) never wait for the disk here.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
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
