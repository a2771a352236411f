/**
 * Camera (camera): which permission asks the Electron shell grants, kept apart from `electron` so
 * plain Node tests can check it. The desk camera is the one permission the page uses:
 * video only (no microphone), only for the app's own page (app://station/, its top frame), asked
 * for or checked. Everything else (microphone, geolocation, notifications, clipboard reads, HID,
 * serial, USB) stays refused; an embedded frame or any other address gets nothing.
 */
import { APP_HOST } from './appProtocol';

export interface PermissionAsk {
  /** Electron's permission name ('media', 'geolocation', …). */
  permission: string;
  /** The address of the frame that asks (a request's requestingUrl, a check's requestingOrigin). */
  url: string;
  isMainFrame: boolean;
  /** A request: the kinds of media asked for; a check: its one mediaType ('video', 'audio', 'unknown'). */
  mediaTypes: readonly string[];
}

function isAppPage(url: string): boolean {
  try {
    // app: is a standard scheme in Electron; Node's URL reads it as an opaque one, so by its parts.
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === APP_HOST && !u.username && !u.password && !u.port;
  } catch {
    return false;
  }
}

export function grantsPermission(a: PermissionAsk): boolean {
  return (
    a.permission === 'media' &&
    a.isMainFrame &&
    isAppPage(a.url) &&
    a.mediaTypes.length > 0 &&
    a.mediaTypes.every((t) => t === 'video')
  );
}
