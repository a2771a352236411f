/**
 * The preview renderer's worker thread (previewRenderer.ts starts it): ZPL with zpl-renderer-js
 * (a WebAssembly build of zebrash) and PDF pages with pdfjs-dist drawing on @napi-rs/canvas. One
 * label takes 0.4-2 s of CPU and a page 0.1-0.3 s: on the core's thread that froze scans, printer
 * sockets and the RPC after every scan whose previews the station screen asked for.
 *
 * Plain CommonJS, shipped as its own file beside every bundle (scripts/build.mjs copies it to
 * dist/node and dist/electron; electron-builder.yml unpacks it and the packages it loads from the
 * asar archive), so a worker can load it wherever the core runs. It loads its packages by name
 * from node_modules, never from a bundle.
 */
'use strict';
const { parentPort } = require('node:worker_threads');
const path = require('node:path');

// pdfjs takes an Electron process whose type is not "browser" (the core's utility process) for a
// web page and reaches for DOM canvases and web workers. This thread is plain Node; say so here,
// in this worker's own process object only.
if (process.versions.electron && process.type && process.type !== 'browser') {
  try {
    Object.defineProperty(process, 'type', { value: undefined, configurable: true });
  } catch {
    // Not configurable: pdfjs then fails with its own error, reported as a render failure.
  }
}

let zplApi = null;
async function renderZpl({ zpl, widthMm, heightMm, dpmm }) {
  zplApi ??= require('zpl-renderer-js').ready.then((r) => r.api);
  const pngs = await (await zplApi).zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
  return pngs;
}

let pdfjs = null;
async function renderPdf({ pdf, dpi }) {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const { createCanvas } = require('@napi-rs/canvas');
  // Fonts the PDF does not embed (pdfkit embeds the station's; a service's PDF may name a base-14
  // font) come from pdfjs's own copies, read from the disk.
  const standardFontDataUrl =
    path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  try {
    const pages = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const ctx = canvas.getContext('2d');
      // Paper is white; an unpainted canvas is transparent.
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvasContext: ctx, canvas, viewport }).promise;
      pages.push({ png: (await canvas.encode('png')).toString('base64'), width: canvas.width, height: canvas.height });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

// One request at a time: the Go runtime behind the ZPL module is single-threaded.
let chain = Promise.resolve();
parentPort.on('message', (m) => {
  chain = chain.then(async () => {
    try {
      const value = m.kind === 'zpl' ? await renderZpl(m) : await renderPdf(m);
      parentPort.postMessage({ id: m.id, value });
    } catch (err) {
      parentPort.postMessage({ id: m.id, error: String((err && err.message) || err) });
    }
  });
});
