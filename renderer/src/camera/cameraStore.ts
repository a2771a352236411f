/**
 * The desk camera in the page: the page owns it (getUserMedia), the core only stores
 * what it is sent. One stream while the camera is on in Settings → Camera, whatever screen shows;
 * the Station screen's corner and Settings show it live, and a still is taken from it when a scan
 * is received (stillCapture.ts).
 *
 * A camera fault never holds a scan: the worker is told once when the camera is found missing (a
 * notice until they close it), Status keeps saying why, and the scans' outcomes do not repeat it.
 * A scan that got no photo while the camera was thought to work is marked ("no photo" on its
 * outcome). An unplugged camera is looked for again when the system's devices change.
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
  /** `device`: the name of the camera that went away (unplugged); never a raw error text, which is not in the UI language. */
  | { state: 'fault'; fault: CameraFault; device?: string };

interface CameraStore {
  settings: CameraSettings;
  camera: CameraState;
  stream: MediaStream | null;
  /** Scans that got no photo while the camera was not known to be at fault (the outcome shows it). */
  noPhoto: ReadonlySet<number>;
  /** The fault to tell the worker about, until they close the notice (null: nothing to tell). */
  notice: CameraFault | null;
  load(): Promise<void>;
  save(s: CameraSettings): Promise<boolean>;
  markNoPhoto(scanId: number): void;
  closeNotice(): void;
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
  /** The fault the worker was last told of; told again only when it changes or after the camera worked. */
  let told: CameraFault | null = null;
  function fault(f: CameraFault, device?: string) {
    const tell = f !== told;
    told = f;
    set({ stream: null, camera: { state: 'fault', fault: f, device }, ...(tell ? { notice: f } : {}) });
  }

  async function start() {
    const settings = get().settings;
    const mine = ++starting;
    stop(get().stream);
    if (!settings.enabled) {
      told = null;
      return set({ stream: null, camera: { state: 'off' }, notice: null });
    }
    // A page that may not use cameras at all (not a secure context) has none for the worker.
    if (!navigator.mediaDevices?.getUserMedia) return fault('no_camera');
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
        fault('unplugged', track.label);
      });
      grabVideo ??= Object.assign(document.createElement('video'), { muted: true, playsInline: true });
      grabVideo.srcObject = s;
      await grabVideo.play().catch(() => undefined);
      told = null;
      set({ stream: s, camera: { state: 'live', label: track?.label ?? '' }, notice: null });
    } catch (err) {
      if (mine !== starting) return;
      // The browser's own text ("NotFoundError: Requested device not found") is English whatever the
      // UI language: the worker gets the fault's catalogue text, the log the raw one.
      console.warn('camera:', err);
      fault(faultOf(err));
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
    notice: null,
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
      // A camera at fault was said once (the notice, Status): its scans' outcomes do not repeat it.
      if (get().camera.state === 'fault' || get().noPhoto.has(scanId)) return;
      // The last few are enough: an outcome on screen is one of the newest scans.
      const next = new Set([...get().noPhoto].slice(-50));
      next.add(scanId);
      set({ noPhoto: next });
    },
    closeNotice() {
      set({ notice: null });
    },
  };
});
