/**
 * ZPL to PNG with zpl-renderer-js (a WebAssembly build of zebrash). Loaded on first use: the
 * module is large (~8 MB) and most station runs never render.
 *
 * The render runs in a worker thread: one label takes 0.4-2 s of CPU, and on the main thread it
 * froze the whole station core (scans, printer sockets, RPC) after every scan whose previews the
 * station screen asked for (bench/scanToLabel: scans 100x the floor). Where the module is not a
 * file the worker can load (bundled into the Electron main), it renders here as before.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

type ZplApi = { zplToBase64MultipleAsync(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string[]> };
type Render = (zpl: string, widthMm: number, heightMm: number, dpmm: number) => Promise<string[]>;

// The worker loads the module by its absolute path and answers one request at a time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let api = null;
parentPort.on('message', async ({ id, zpl, widthMm, heightMm, dpmm }) => {
  try {
    api ??= require(workerData.modulePath).ready.then((r) => r.api);
    parentPort.postMessage({ id, pngs: await (await api).zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

let inProcessApi: Promise<ZplApi> | null = null;
const renderInProcess: Render = async (zpl, widthMm, heightMm, dpmm) => {
  inProcessApi ??= import('zpl-renderer-js').then(async (m) => (await m.ready).api as ZplApi);
  return (await inProcessApi).zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
};

function modulePath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('zpl-renderer-js');
  } catch {
    return null;
  }
}

/** A worker rendering for us, or null when it cannot run here. Restarted after it dies. */
function workerRenderer(path: string): Render {
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(p: string[]): void; reject(e: Error): void }>();
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  const start = () => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath: path } });
    // An idle renderer never keeps the station process alive.
    w.unref();
    w.on('message', (m: { id: number; pngs?: string[]; error?: string }) => {
      const p = waiting.get(m.id);
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      if (m.pngs) p?.resolve(m.pngs);
      else p?.reject(new Error(m.error ?? 'the ZPL renderer failed'));
    });
    w.on('error', failAll);
    w.on('exit', () => failAll(new Error('the ZPL renderer stopped')));
    return w;
  };
  return (zpl, widthMm, heightMm, dpmm) =>
    new Promise((resolve, reject) => {
      worker ??= start();
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      // Kept alive while a render is awaited, so a short script gets its answer.
      worker.ref();
      worker.postMessage({ id, zpl, widthMm, heightMm, dpmm });
    });
}

let render: Render | null = null;
// One render at a time: the Go runtime behind the WebAssembly module is single-threaded.
let chain: Promise<unknown> = Promise.resolve();

/** Renders every ^XA..^XZ label of `zpl`; base64 PNGs, one per label. */
export async function renderZplPngs(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<string[]> {
  if (!render) {
    const path = modulePath();
    render = path ? workerRenderer(path) : renderInProcess;
  }
  const r = render;
  const run = chain.then(async () => {
    if (r === renderInProcess) return r(zpl, widthMm, heightMm, dpmm);
    try {
      return await r(zpl, widthMm, heightMm, dpmm);
    } catch (err) {
      // The worker could not do it (say, no loadable module file): here it works, so stay here.
      const pngs = await renderInProcess(zpl, widthMm, heightMm, dpmm).catch(() => Promise.reject(err));
      render = renderInProcess;
      return pngs;
    }
  });
  chain = run.catch(() => undefined);
  return run;
}
