/**
 * The desk camera (proof of packing): its settings (Settings → Camera), the still a page
 * takes when a parcel's scan is received (and, if the desk wants, when its label is printed), the
 * photos of a parcel (the shipment's detail) and the "Proof of packing" PDF of one or more parcels.
 *
 * The page owns the camera (getUserMedia): the core never opens a device. A photo is sent after the
 * scan's acknowledgement, linked to the scan's id; the scan never waits for it.
 */
import { z } from 'zod';

/** The largest JPEG the core stores (a 1280 px still at the default quality is about 100 KB). */
export const MAX_PHOTO_BYTES = 1_500_000;
/** Base64 of MAX_PHOTO_BYTES (4 characters for every 3 bytes, padded). */
const MAX_PHOTO_BASE64 = Math.ceil(MAX_PHOTO_BYTES / 3) * 4;
/** Parcels in one proof-of-packing file (a claim rarely names more; each brings its photos). */
export const MAX_PROOF_PARCELS = 50;

export const cameraSettings = z
  .object({
    /** Off by default: a desk turns the camera on in Settings → Camera. */
    enabled: z.boolean(),
    /** The browser's deviceId of the chosen camera; empty: the system's default camera. */
    deviceId: z.string().max(500),
    /** The camera's name as the browser gave it when chosen (shown when it is not plugged in). */
    deviceLabel: z.string().max(300),
    /** The photo's longer side in pixels. */
    sizePx: z.number().int().min(320).max(3840),
    /** About how large a photo may be (KB); the page lowers the JPEG quality until it fits. */
    targetKb: z.number().int().min(20).max(1000),
    /** A second photo when the parcel's label is printed (the closed parcel). */
    photoAtPrint: z.boolean(),
  })
  .strict();
export type CameraSettings = z.infer<typeof cameraSettings>;

export const defaultCameraSettings: CameraSettings = {
  enabled: false,
  deviceId: '',
  deviceLabel: '',
  sizePx: 1280,
  targetKb: 100,
  photoAtPrint: false,
};

export const photoKind = z.enum(['scan', 'printed']);
export type PhotoKind = z.infer<typeof photoKind>;

const photoInfo = z.object({
  id: z.number().int(),
  scanId: z.number().int(),
  kind: photoKind,
  takenAt: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  desk: z.string(),
  operatorName: z.string().nullable(),
});
export type PhotoInfo = z.infer<typeof photoInfo>;

const none = z.object({}).strict();
const deliveryId = z.number().int().positive();

export const cameraMethods = {
  'camera.getSettings': { reads: true, params: none, result: cameraSettings },
  'camera.setSettings': { params: cameraSettings, result: cameraSettings },
  /**
   * A still of the parcel whose scan has `scanId` (the page's answer to scan.submit). `jpeg` is the
   * file's bytes in base64; the core checks it is a JPEG of at most MAX_PHOTO_BYTES and stores it in
   * the data folder, linked to the scan's journal entry. An unknown scan is refused (`photo_scan_unknown`).
   */
  'camera.savePhoto': {
    params: z
      .object({
        scanId: z.number().int().positive(),
        kind: photoKind,
        jpeg: z
          .string()
          .min(4)
          .max(MAX_PHOTO_BASE64)
          .regex(/^[A-Za-z0-9+/]+={0,2}$/),
        width: z.number().int().min(1).max(8000),
        height: z.number().int().min(1).max(8000),
      })
      .strict(),
    result: z.object({ photoId: z.number().int() }),
  },
  /** The photos of a parcel of the active account, oldest first. */
  'camera.photos': { reads: true, params: z.object({ deliveryId }).strict(), result: z.array(photoInfo) },
  /** One photo's JPEG (base64), for the detail's thumbnails. */
  'camera.photo': {
    reads: true,
    params: z.object({ id: z.number().int().positive() }).strict(),
    result: z.object({ jpeg: z.string() }),
  },
  /** "Proof of packing": one PDF (base64) with a page per parcel, in the UI's language. */
  'camera.proofPdf': {
    params: z
      .object({
        deliveryIds: z.array(deliveryId).min(1).max(MAX_PROOF_PARCELS),
        language: z.enum(['en', 'cs']),
      })
      .strict(),
    result: z.object({ pdf: z.string(), fileName: z.string() }),
  },
};
