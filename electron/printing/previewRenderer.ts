/**
 * Renders previews off the core's thread: one worker thread running renderWorker.cjs, a file of
 * its own beside the code (source) or the bundle (dist/node, dist/electron; unpacked from the asar
 * archive in the packaged app). There is no in-thread fallback: a preview that cannot be rendered
 * in the worker fails with that reason instead of freezing the station while it renders.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreviewPage } from '../../shared/contract/printing';

type Request =
  | { kind: 'zpl'; zpl: string; widthMm: number; heightMm: number; dpmm: number }
  | { kind: 'pdf'; pdf: Uint8Array; dpi: number };
type Answer = { id: number; value?: unknown; error?: string };

/** Where the worker file is: beside this module, or in app.asar.unpacked when packaged. */
function renderWorkerFile(): string {
  const file = fileURLToPath(new URL('./renderWorker.cjs', import.meta.url));
  // A worker thread loads its file with plain Node file access, which cannot read inside app.asar.
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

function failAll(err: Error) {
  for (const w of waiting.values()) w.reject(err);
  waiting.clear();
  worker = null;
}

function start(): Worker {
  const w = new Worker(renderWorkerFile());
  // An idle renderer never keeps the station process alive.
  w.unref();
  w.on('message', (m: Answer) => {
    const p = waiting.get(m.id);
    waiting.delete(m.id);
    if (waiting.size === 0) w.unref();
    if (m.error === undefined) p?.resolve(m.value);
    else p?.reject(new Error(m.error));
  });
  w.on('error', (err) => {
    if (worker === w) failAll(err);
  });
  // A worker that died (out of memory in a huge label) is started again by the next request.
  w.on('exit', () => {
    if (worker === w) failAll(new Error('the preview renderer stopped'));
  });
  return w;
}

function render<T>(req: Request): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    worker ??= start();
    const id = ++nextId;
    waiting.set(id, { resolve, reject });
    // Kept alive while a render is awaited, so a short script gets its answer.
    worker.ref();
    worker.postMessage({ id, ...req });
  });
}

/** Every ^XA..^XZ label of `zpl` as a base64 PNG, one per label. */
export function renderZplInWorker(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<string[]> {
  return render<string[]>({ kind: 'zpl', zpl, widthMm, heightMm, dpmm });
}

/** Every page of a PDF as a PNG at `dpi` on white paper. */
export function renderPdfInWorker(pdf: Buffer, dpi: number): Promise<PreviewPage[]> {
  return render<PreviewPage[]>({ kind: 'pdf', pdf: new Uint8Array(pdf), dpi });
}
