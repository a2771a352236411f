/**
 * ZPL to PNG with zpl-renderer-js (a WebAssembly build of zebrash), in the preview renderer's
 * worker thread (previewRenderer.ts): one label takes 0.4-2 s of CPU, and on the core's thread it
 * froze scans, printer sockets and the RPC after every scan whose previews the station screen
 * asked for (bench/scanToLabel: scans 100x the floor). The module (~8 MB) is loaded by the worker
 * on first use: most station runs never render.
 */
import { renderZplInWorker } from './previewRenderer';

/** Renders every ^XA..^XZ label of `zpl`; base64 PNGs, one per label. */
export function renderZplPngs(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<string[]> {
  return renderZplInWorker(zpl, widthMm, heightMm, dpmm);
}
