/**
 * ZPL to PNG with zpl-renderer-js (a WebAssembly build of zebrash). Loaded on first use: the
 * module is large (~8 MB) and most station runs never render.
 */
type ZplApi = { zplToBase64MultipleAsync(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string[]> };

let api: Promise<ZplApi> | null = null;
// One render at a time: the Go runtime behind the WebAssembly module is single-threaded.
let chain: Promise<unknown> = Promise.resolve();

function loadApi(): Promise<ZplApi> {
  api ??= import('zpl-renderer-js').then(async (m) => (await m.ready).api as ZplApi);
  return api;
}

/** Renders every ^XA..^XZ label of `zpl`; base64 PNGs, one per label. */
export async function renderZplPngs(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<string[]> {
  const run = chain.then(async () => (await loadApi()).zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm));
  chain = run.catch(() => undefined);
  return run;
}
