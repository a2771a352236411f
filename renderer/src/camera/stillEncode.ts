/**
 * A parcel's still as the core stores it: a frame of the camera's track drawn at the desk's size
 * (never enlarged) and encoded as a JPEG about the desk's target size. Runs in the stills' worker
 * (stillWorker.ts), or in the page where no worker can be started; OffscreenCanvas serves both.
 */
export interface EncodedStill {
  /** The JPEG, base64 (as camera.savePhoto takes it). */
  jpeg: string;
  width: number;
  height: number;
}

/** The qualities tried, best first, until the JPEG fits the target (or the last is reached). */
const QUALITIES = [0.85, 0.75, 0.65, 0.55, 0.45, 0.35];

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export async function encodeStill(frame: ImageBitmap, sizePx: number, targetKb: number): Promise<EncodedStill | null> {
  const scale = Math.min(1, sizePx / Math.max(frame.width, frame.height));
  const canvas = new OffscreenCanvas(Math.round(frame.width * scale), Math.round(frame.height * scale));
  const g = canvas.getContext('2d');
  if (!g || !canvas.width || !canvas.height) return null;
  g.drawImage(frame, 0, 0, canvas.width, canvas.height);
  let blob: Blob | null = null;
  for (const quality of QUALITIES) {
    blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    if (blob.size <= targetKb * 1024) break;
  }
  return blob ? { jpeg: await base64Of(blob), width: canvas.width, height: canvas.height } : null;
}
