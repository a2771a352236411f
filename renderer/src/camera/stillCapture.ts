/**
 * The still of a parcel: drawn from the camera's video the moment its scan is sent (the
 * scan.submit call has left already), encoded as a JPEG of the desk's size and about its target
 * size, and sent to the core once the scan's id is known. Nothing here is on the scan's path: the
 * scan is sent first, and whatever happens to the photo (no camera, a refusal, a lost connection)
 * only marks the scan "no photo".
 */
import type { RpcResult } from '../../../shared/rpcEnvelope';
import type { CameraSettings, PhotoKind } from '../../../shared/contract/camera';
import { rpc } from '../rpc/transport';
import { useCamera, videoForStills } from './cameraStore';

interface Frame {
  canvas: HTMLCanvasElement;
}

/** The video's current frame, its longer side at most the desk's size (never enlarged). */
function grabFrame(s: CameraSettings): Frame | null {
  const video = videoForStills();
  if (!video || useCamera.getState().camera.state !== 'live') return null;
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) return null;
  const scale = Math.min(1, s.sizePx / Math.max(w, h));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round(h * scale);
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.drawImage(video, 0, 0, canvas.width, canvas.height);
  return { canvas };
}

const toBlob = (c: HTMLCanvasElement, quality: number) =>
  new Promise<Blob | null>((resolve) => c.toBlob(resolve, 'image/jpeg', quality));

/** A JPEG about `targetKb` large: the quality is lowered step by step until it fits (or reaches its floor). */
async function encode(frame: Frame, targetKb: number): Promise<Blob | null> {
  let blob: Blob | null = null;
  for (const q of [0.85, 0.75, 0.65, 0.55, 0.45, 0.35]) {
    blob = await toBlob(frame.canvas, q);
    if (!blob || blob.size <= targetKb * 1024) break;
  }
  return blob;
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Scans this page took the photo of (another page's scans are that page's to photograph at print). */
const photographed = new Set<number>();

/**
 * Takes the still now and sends it when the scan's id comes (`scanId`: the ack of scan.submit, or
 * the id itself for a photo at print). A camera that is on but gives no picture marks the scan.
 */
export function photoOfScan(scanId: Promise<RpcResult<{ scanId: number }>> | number, kind: PhotoKind = 'scan'): void {
  const cam = useCamera.getState();
  if (!cam.settings.enabled) return;
  const frame = grabFrame(cam.settings);
  void (async () => {
    const ack = typeof scanId === 'number' ? { ok: true as const, value: { scanId } } : await scanId;
    // A scan refused before it was logged has no photo to keep.
    if (!ack.ok) return;
    const id = ack.value.scanId;
    if (kind === 'scan') photographed.add(id);
    const blob = frame ? await encode(frame, cam.settings.targetKb) : null;
    if (!frame || !blob) return useCamera.getState().markNoPhoto(id);
    const r = await rpc.request('camera.savePhoto', {
      scanId: id,
      kind,
      jpeg: await base64Of(blob),
      width: frame.canvas.width,
      height: frame.canvas.height,
    });
    if (!r.ok) useCamera.getState().markNoPhoto(id);
  })().catch(() => undefined);
}

/** The second photo, of the closed parcel, when its label is printed (Settings → Camera). */
export function photoAtPrint(o: { scanId: number; kind: string; reprint?: boolean }): void {
  if (o.kind !== 'printed' || o.reprint || !photographed.has(o.scanId)) return;
  photographed.delete(o.scanId);
  if (useCamera.getState().settings.photoAtPrint) photoOfScan(o.scanId, 'printed');
}
