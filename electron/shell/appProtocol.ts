/**
 * What the Electron shell's app:// handler answers, kept apart from `electron` so plain Node
 * tests can check it. Only app://station/ is served (any other host is refused: a page must not
 * reach the renderer's files under a name of its own making), only files inside the renderer
 * build, and every answer carries the Content-Security-Policy as a response header (a header
 * also covers what a <meta> tag cannot: frame-ancestors, and documents that forget the tag).
 */
import path from 'node:path';

export const APP_HOST = 'station';
export const APP_ORIGIN = `app://${APP_HOST}`;

/** The same policy the web host sends, with no WebSocket: Electron talks over IPC. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export type AppRequestAnswer = { file: string } | { status: 404 | 405; text: string };

/** The renderer file an app:// request names, or why it is refused. */
export function resolveAppRequest(requestUrl: string, rendererDir: string, method = 'GET'): AppRequestAnswer {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { status: 404, text: 'Not found' };
  }
  if (url.protocol !== 'app:' || url.host !== APP_HOST) return { status: 404, text: 'Not found' };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, text: 'Method not allowed' };
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return { status: 404, text: 'Not found' };
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, '.' + rel);
  if (!file.startsWith(root + path.sep)) return { status: 404, text: 'Not found' };
  return { file };
}

/** The headers every app:// answer carries. */
export function appResponseHeaders(): Record<string, string> {
  return { 'content-security-policy': APP_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
}
