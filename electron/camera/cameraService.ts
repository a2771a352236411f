/**
 * The desk camera's core side: its settings, the photos a page sends after a scan
 * (checked: a JPEG, at most MAX_PHOTO_BYTES, for a scan the journal knows), stored under the data
 * folder by date and linked to the scan's journal entry, and the photos of a parcel. The page owns
 * the camera itself; nothing here is on a scan's path (a photo arrives after the scan's ack).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  cameraSettings,
  defaultCameraSettings,
  MAX_PHOTO_BYTES,
  type CameraSettings,
  type PhotoInfo,
} from '../../shared/contract/camera';
import type { DeskWho } from '../../shared/contract/operators';
import type { Clock } from '../base/clock';
import { StationError } from '../base/stationError';
import type { Handlers } from '../rpc/rpcServer';
import type { PhotosRepo, PhotoRow } from '../store/photosRepo';
import type { SettingsRepo } from '../store/settingsRepo';
import { checkJpeg } from './jpegInfo';
import { photoPath, readPhotoFile, writePhotoFile } from './photoFiles';

const KEY = 'camera';

export interface CameraServiceDeps {
  dataDir: string;
  settings: SettingsRepo;
  photos: PhotosRepo;
  clock: Clock;
  who(): DeskWho;
  activeAccountId(): string | null;
}

export const photoInfoOf = (r: PhotoRow): PhotoInfo => ({
  id: r.id,
  scanId: r.scanId,
  kind: r.kind,
  takenAt: r.takenAt,
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  desk: r.desk,
  operatorName: r.operatorName,
});

export function createCameraService(d: CameraServiceDeps) {
  let seq = 0;
  const settings = (): CameraSettings => {
    // A stored value from an older version gets the fields it lacks from the defaults.
    const parsed = cameraSettings.safeParse({ ...defaultCameraSettings, ...(d.settings.get<object>(KEY) ?? {}) });
    return parsed.success ? parsed.data : defaultCameraSettings;
  };

  async function savePhoto(p: {
    scanId: number;
    kind: 'scan' | 'printed';
    jpeg: string;
  }): Promise<{ photoId: number }> {
    const bytes = Buffer.from(p.jpeg, 'base64');
    if (bytes.length > MAX_PHOTO_BYTES)
      throw new StationError('photo_too_large', `The photo is larger than ${MAX_PHOTO_BYTES} bytes.`, {
        maxBytes: MAX_PHOTO_BYTES,
      });
    const jpeg = checkJpeg(bytes);
    if (!jpeg.ok)
      throw new StationError('photo_not_jpeg', `The photo is not a JPEG (${jpeg.reason}).`, { reason: jpeg.reason });
    const entryId = d.photos.entryOfScan(p.scanId);
    if (entryId === null)
      throw new StationError('photo_scan_unknown', `The station has no scan ${p.scanId}: the photo was not stored.`, {
        scanId: p.scanId,
      });
    const takenAt = d.clock.now();
    const who = d.who();
    const file = photoPath(takenAt, p.scanId, p.kind, ++seq);
    await writePhotoFile(d.dataDir, file, bytes);
    try {
      const photoId = d.photos.insert({
        entryId,
        scanId: p.scanId,
        kind: p.kind,
        takenAt: takenAt.toISOString(),
        file,
        bytes: bytes.length,
        width: jpeg.width,
        height: jpeg.height,
        desk: who.desk,
        operatorId: who.operator?.id ?? null,
      });
      return { photoId };
    } catch (err) {
      // No row, no file: a photo is kept whole or not at all.
      await rm(path.join(d.dataDir, file), { force: true });
      throw err;
    }
  }

  /** The photos of a parcel of the active account (none without one). */
  const photosOf = (deliveryId: number): PhotoRow[] => {
    const account = d.activeAccountId();
    return account ? d.photos.ofDelivery(account, deliveryId) : [];
  };

  async function photoBytes(row: PhotoRow): Promise<Buffer> {
    try {
      return await readPhotoFile(d.dataDir, row.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new StationError('photo_not_found', `The photo's file ${row.file} is no longer in the data folder.`);
      throw err;
    }
  }

  const handlers: Pick<
    Handlers,
    'camera.getSettings' | 'camera.setSettings' | 'camera.savePhoto' | 'camera.photos' | 'camera.photo'
  > = {
    'camera.getSettings': () => settings(),
    'camera.setSettings': (s) => {
      d.settings.set(KEY, s, d.clock.now());
      return settings();
    },
    'camera.savePhoto': (p) => savePhoto(p),
    'camera.photos': (p) => photosOf(p.deliveryId).map(photoInfoOf),
    'camera.photo': async (p) => {
      const row = d.photos.get(p.id);
      if (!row || row.accountId !== d.activeAccountId())
        throw new StationError('photo_not_found', `There is no photo ${p.id} of the active company.`);
      return { jpeg: (await photoBytes(row)).toString('base64') };
    },
  };
  return { settings, savePhoto, photosOf, photoBytes, handlers };
}

export type CameraService = ReturnType<typeof createCameraService>;
