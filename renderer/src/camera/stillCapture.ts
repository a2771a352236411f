/**
 * The still of a parcel, kept off the scan's path. The frame is grabbed from the camera's track the
 * moment the scan is sent (the scan.submit call has left already), scaled and encoded as a JPEG in
 * a worker (stillWorker.ts), and sent to the core only after the scan's outcome came (its label
 * left, or it will not for now) and while no other scan of this page waits for its outcome: a
 * photo never goes ahead of a scan. Whatever happens to the photo (no camera, a refusal, a lost
 * connection) only marks the scan "no photo".
 */
import type { RpcResult } from '../../../shared/rpcEnvelope';
import type { CameraSettings, PhotoKind } from '../../../shared/contract/camera';
import { rpc } from '../rpc/transport';
import { useCamera, videoForStills } from './cameraStore';
import { encodeStill, type EncodedStill } from './stillEncode';
import type { StillDone, StillJob } from './stillWorker';

/** Chromium's ImageCapture (https://w3c.github.io/mediacapture-image/#imagecaptureapi), not in TypeScript's DOM types. */
declare const ImageCapture: (new (track: MediaStreamTrack) => { grabFrame(): Promise<ImageBitmap> }) | undefined;

/** How long a grab from the track may take before the video element's current picture is used. */
const GRAB_MS = 1000;

/** The camera's current frame, from its track (or, failing that, the video playing it); null when it shows nothing yet. */
async function grabFrame(): Promise<ImageBitmap | null> {
  const cam = useCamera.getState();
  if (cam.camera.state !== 'live') return null;
  const track = cam.stream?.getVideoTracks()[0];
  if (track && typeof ImageCapture === 'function') {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grabbed = await Promise.race([
      new ImageCapture(track).grabFrame().catch(() => null),
      new Promise<null>((r) => (timer = setTimeout(() => r(null), GRAB_MS))),
    ]);
    clearTimeout(timer);
    if (grabbed) return grabbed;
  }
  const video = videoForStills();
  if (!video?.videoWidth || !video.videoHeight) return null;
  return createImageBitmap(video).catch(() => null);
}

/** The worker that encodes stills (null: none could be started; the page encodes them itself). */
let worker: Worker | null | undefined;
const encoding = new Map<number, (still: EncodedStill | null) => void>();
let jobs = 0;

function stillWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./stillWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<StillDone>) => {
      encoding.get(e.data.id)?.(e.data.still);
      encoding.delete(e.data.id);
    };
    worker.onerror = () => {
      // It did not load (or died): the stills it held are lost, the next ones are encoded in the page.
      worker = null;
      for (const done of encoding.values()) done(null);
      encoding.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

function encode(frame: ImageBitmap, s: CameraSettings): Promise<EncodedStill | null> {
  const w = stillWorker();
  if (!w) return encodeStill(frame, s.sizePx, s.targetKb).finally(() => frame.close());
  const id = ++jobs;
  return new Promise((resolve) => {
    encoding.set(id, resolve);
    const job: StillJob = { id, frame, sizePx: s.sizePx, targetKb: s.targetKb };
    w.postMessage(job, [frame]);
  });
}

/**
 * Scans of this page still waiting for their first outcome: photos wait while any is. A scan whose
 * outcome never comes (the connection went) stops counting after SCAN_TURN_MS.
 */
const unanswered = new Map<object, number | null>();
const SCAN_TURN_MS = 30_000;
let turnChanged: (() => void)[] = [];

function answered(ticket: object): void {
  if (!unanswered.delete(ticket)) return;
  const waiting = turnChanged;
  turnChanged = [];
  for (const wake of waiting) wake();
}

/** Scans whose outcome came (the last few): one may come before its scan's ack. */
const outcomeCame = new Set<number>();
rpc.on('scan.outcome', (o) => {
  outcomeCame.add(o.scanId);
  if (outcomeCame.size > 100) outcomeCame.delete(outcomeCame.values().next().value!);
  for (const [ticket, scanId] of unanswered) if (scanId === o.scanId) answered(ticket);
});

/** Counts a scan as waiting for its outcome from the moment it is sent. */
function scanSent(ack: Promise<RpcResult<{ scanId: number }>>): object {
  const ticket = {};
  unanswered.set(ticket, null);
  setTimeout(() => answered(ticket), SCAN_TURN_MS);
  void ack.then(
    (r) => {
      if (!r.ok || outcomeCame.has(r.value.scanId)) answered(ticket);
      else if (unanswered.has(ticket)) unanswered.set(ticket, r.value.scanId);
    },
    () => answered(ticket),
  );
  return ticket;
}

/** Resolves once no scan of this page waits for its outcome (its own scan, if any, included). */
async function photoTurn(): Promise<void> {
  while (unanswered.size) await new Promise<void>((r) => turnChanged.push(r));
}

/** Scans this page took the photo of (another page's scans are that page's to photograph at print). */
const photographed = new Set<number>();

/**
 * Takes the still now and sends it when its turn comes (`scanId`: the ack of scan.submit, or the
 * id itself for a photo at print). A camera that is on but gives no picture marks the scan.
 */
export function photoOfScan(scanId: Promise<RpcResult<{ scanId: number }>> | number, kind: PhotoKind = 'scan'): void {
  if (typeof scanId !== 'number') scanSent(scanId);
  const cam = useCamera.getState();
  if (!cam.settings.enabled) return;
  const frame = grabFrame();
  void (async () => {
    const ack = typeof scanId === 'number' ? { ok: true as const, value: { scanId } } : await scanId;
    // A scan refused before it was logged has no photo to keep.
    if (!ack.ok) return;
    const id = ack.value.scanId;
    if (kind === 'scan') photographed.add(id);
    const grabbed = await frame;
    const still = grabbed ? await encode(grabbed, cam.settings) : null;
    if (!still) return useCamera.getState().markNoPhoto(id);
    await photoTurn();
    const r = await rpc.request('camera.savePhoto', { scanId: id, kind, ...still });
    if (!r.ok) useCamera.getState().markNoPhoto(id);
  })().catch(() => undefined);
}

/** The second photo, of the closed parcel, when its label is printed (Settings → Camera). */
export function photoAtPrint(o: { scanId: number; kind: string; reprint?: boolean }): void {
  if (o.kind !== 'printed' || o.reprint || !photographed.has(o.scanId)) return;
  photographed.delete(o.scanId);
  if (useCamera.getState().settings.photoAtPrint) photoOfScan(o.scanId, 'printed');
}
