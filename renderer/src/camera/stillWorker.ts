/**
 * The stills' worker: a parcel's frame is scaled and encoded here, off the page's thread, so a
 * JPEG being made never holds a scan's keys, its outcome or the screen (stillCapture.ts).
 */
import { encodeStill, type EncodedStill } from './stillEncode';

export interface StillJob {
  id: number;
  frame: ImageBitmap;
  sizePx: number;
  targetKb: number;
}
export interface StillDone {
  id: number;
  still: EncodedStill | null;
}

/** The worker's own scope (the renderer's types are the page's: DOM, not WebWorker). */
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<StillJob>) => void) | null;
  postMessage(message: StillDone): void;
};

scope.onmessage = (e) => {
  const { id, frame, sizePx, targetKb } = e.data;
  void encodeStill(frame, sizePx, targetKb)
    .catch(() => null)
    .then((still) => {
      frame.close();
      scope.postMessage({ id, still });
    });
};
