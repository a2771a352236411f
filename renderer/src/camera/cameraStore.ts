/**
 * The desk camera in the page: the page owns it (getUserMedia), the core only stores
 * what it is sent. One stream while the camera is on in Settings → Camera, whatever screen shows;
 * the Station screen's corner and Settings show it live, and a still is taken from it when a scan
 * is received (stillCapture.ts).
 *
 * A camera fault never holds a scan: the camera's state says why (Status shows it), each scan taken
 * without a photo is marked once ("no photo" on its outcome), and an unplugged camera is looked for
 * again when the system's devices change.
 */
import { create } from 'zustand';
import { defaultCameraSettings, type CameraSettings } from '../../../shared/contract/camera';
import { rpc } from '../rpc/transport';

/** Why there is no picture: no camera at all, another program has it, the browser (or the worker) refused, it went away, anything else. */
export type CameraFault = 'no_camera' | 'in_use' | 'denied' | 'unplugged' | 'failed';

export type CameraState =
  | { state: 'off' }
  | { state: 'starting' }
  | { state: 'live'; label: string }
  | { state: 'fault'; fault: CameraFault; detail: string };

interface CameraStore {
  settings: CameraSettings;
  camera: CameraState;
  stream: MediaStream | null;
  /** Scans that got no photo (the outcome shows it once). */
  noPhoto: ReadonlySet<number>;
  load(): Promise<void>;
  save(s: CameraSettings): Promise<boolean>;
  markNoPhoto(scanId: number): void;
}

/** getUserMedia's errors as the worker understands them (https://w3c.github.io/mediacapture-main/#dom-mediadevices-getusermedia). */
export function faultOf(err: unknown): CameraFault {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return 'no_camera';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'in_use';
  return 'failed';
}

/** The hidden video the stills are drawn from (the preview elements may be off screen or unmounted). */
let grabVideo: HTMLVideoElement | null = null;
export function videoForStills(): HTMLVideoElement | null {
  return grabVideo;
}

let starting = 0;

function stop(s: MediaStream | null) {
  s?.getTracks().forEach((t) => t.stop());
  if (grabVideo) grabVideo.srcObject = null;
}

export const useCamera = create<CameraStore>((set, get) => {
  async function start() {
    const settings = get().settings;
    const mine = ++starting;
    stop(get().stream);
    if (!settings.enabled) return set({ stream: null, camera: { state: 'off' } });
    if (!navigator.mediaDevices?.getUserMedia)
      return set({
        stream: null,
        camera: { state: 'fault', fault: 'no_camera', detail: 'this page cannot use cameras (no mediaDevices)' },
      });
    set({ camera: { state: 'starting' } });
    try {
      const s = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: settings.deviceId
          ? { deviceId: { exact: settings.deviceId }, width: { ideal: 1920 } }
          : { width: { ideal: 1920 } },
      });
      if (mine !== starting) return stop(s);
      const track = s.getVideoTracks()[0];
      // Unplugged (or taken away by the system) mid-shift: scans go on, Status says why.
      track?.addEventListener('ended', () => {
        if (get().stream !== s) return;
        set({ stream: null, camera: { state: 'fault', fault: 'unplugged', detail: track.label } });
      });
      grabVideo ??= Object.assign(document.createElement('video'), { muted: true, playsInline: true });
      grabVideo.srcObject = s;
      await grabVideo.play().catch(() => undefined);
      set({ stream: s, camera: { state: 'live', label: track?.label ?? '' } });
    } catch (err) {
      if (mine !== starting) return;
      set({
        stream: null,
        camera: {
          state: 'fault',
          fault: faultOf(err),
          detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        },
      });
    }
  }

  // A camera plugged in again (or a first one) is tried again by itself.
  navigator.mediaDevices?.addEventListener?.('devicechange', () => {
    const c = get().camera;
    if (get().settings.enabled && c.state === 'fault' && (c.fault === 'unplugged' || c.fault === 'no_camera'))
      void start();
  });

  return {
    settings: defaultCameraSettings,
    camera: { state: 'off' },
    stream: null,
    noPhoto: new Set(),
    async load() {
      const r = await rpc.request('camera.getSettings', {});
      if (!r.ok) return;
      const same = JSON.stringify(r.value) === JSON.stringify(get().settings);
      set({ settings: r.value });
      // A page reconnecting keeps its running camera; changed settings (another page saved them) restart it.
      if (!same || get().camera.state === 'off' || get().camera.state === 'fault') await start();
    },
    async save(s) {
      const r = await rpc.request('camera.setSettings', s);
      if (!r.ok) return false;
      set({ settings: r.value });
      await start();
      return true;
    },
    markNoPhoto(scanId) {
      if (get().noPhoto.has(scanId)) return;
      // The last few are enough: an outcome on screen is one of the newest scans.
      const next = new Set([...get().noPhoto].slice(-50));
      next.add(scanId);
      set({ noPhoto: next });
    },
  };
});
