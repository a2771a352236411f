/**
 * Previews from the built station (dist/node/host.mjs, the bundle a station runs), on a machine
 * without poppler: the host runs with a PATH holding only `node`, so no pdftoppm can be found.
 * A ZPL label and a PDF page are previewed over the RPC, each rendered in a worker thread started
 * from the worker file shipped beside the bundle (dist/node/renderWorker.cjs): a probe loaded
 * with --import reports every worker thread the host starts, and the host's own thread never
 * loads a renderer.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { WebHost } from '../../../electron/host/webHost';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { pngBarcodes } from '../../support/pdfBarcodes';
import { needs } from '../../support/services';

const root = path.resolve(__dirname, '../../..');

/** Worker files and packages as the host process loads them, reported by the probe. */
const PROBE = `
import { createRequire, syncBuiltinESMExports } from 'node:module';
const require = createRequire(import.meta.url);
const wt = require('node:worker_threads');
// Worker threads inherit --import: only the host's own thread reports.
if (wt.isMainThread) {
const Original = wt.Worker;
wt.Worker = class extends Original {
  constructor(file, options) {
    console.log('probe: worker ' + String(file));
    super(file, options);
  }
};
syncBuiltinESMExports();
// Renderers loaded on the host's own thread would show up here.
const load = require('node:module')._load;
require('node:module')._load = function (request, ...rest) {
  if (/zpl-renderer-js|pdfjs-dist/.test(request)) console.log('probe: main thread loads ' + request);
  return load.call(this, request, ...rest);
};
}
`;

/** Share of dark pixels (luma < 128) in a rectangle of a PNG, and the image's size. */
async function darkShare(png: Buffer, box?: { x: number; y: number; w: number; h: number }) {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const b = box ?? { x: 0, y: 0, w: img.width, h: img.height };
  const data = ctx.getImageData(b.x, b.y, b.w, b.h).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4)
    if (0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]! < 128) dark++;
  return dark / (b.w * b.h);
}

describe('previews in the built host, with no pdftoppm on PATH', { timeout: 120_000 }, () => {
  let dir: string;
  let host: ChildProcess;
  let out = '';
  let rpc: RpcSocket;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--only', 'node'], {
      cwd: root,
      stdio: 'pipe',
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'previews-built-'));
    // A PATH with node alone: whatever the host needs beyond it, it must carry itself.
    const bin = path.join(dir, 'bin');
    execFileSync('mkdir', [bin]);
    symlinkSync(process.execPath, path.join(bin, 'node'));
    writeFileSync(path.join(dir, 'probe.mjs'), PROBE);
    host = spawn(
      path.join(bin, 'node'),
      [
        '--import',
        path.join(dir, 'probe.mjs'),
        path.join(root, 'dist/node/host.mjs'),
        '--data-dir',
        path.join(dir, 'data'),
      ],
      {
        cwd: dir,
        env: { PATH: bin, HOME: dir, LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    host.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<URL>((resolve, reject) => {
      const check = () => {
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
        if (m) resolve(new URL(m[1]!));
      };
      host.stdout!.on('data', check);
      host.on('exit', (code) => reject(new Error(`host exited (${code}): ${out}`)));
    });
    rpc = await connectRpc({
      port: Number(url.port),
      token: url.searchParams.get('token')!,
      origin: url.origin,
    } as WebHost);
  });

  afterAll(async () => {
    rpc?.close();
    if (host && host.exitCode === null) {
      const exited = new Promise((r) => host.on('exit', r));
      host.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the host really has no pdftoppm to call', () => {
    expect(() => execFileSync('pdftoppm', ['-v'], { env: { PATH: path.join(dir, 'bin') }, stdio: 'pipe' })).toThrow();
  });

  it('a ZPL test label previews at its real size with a scannable barcode, rendered in the shipped worker', async () => {
    const job = await rpc.call('printing.printers.testPrint', { printerId: 'virtual-zpl' });
    const [page] = await rpc.call('printing.preview', { jobId: job.id });
    // The test label is ^PW1200 ^LL600 at 300 dpi: 10 x 5 cm, 1200 x 600 dots.
    expect({ width: page!.width, height: page!.height }).toEqual({ width: 1200, height: 600 });
    const png = Buffer.from(page!.png, 'base64');
    const share = await darkShare(png);
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.6);
    if (needs('zbarimg')) expect(pngBarcodes(png)).toContain('TEST-PRINT');
    expect(out).toContain(`probe: worker ${path.join(root, 'dist', 'node', 'renderWorker.cjs')}`);
    expect(out).not.toContain('probe: main thread loads');
  });

  it('a PDF test page previews as the page drawn, without pdftoppm, in the same worker', async () => {
    const job = await rpc.call('printing.printers.testPrint', { printerId: 'virtual-pdf' });
    const pages = await rpc.call('printing.preview', { jobId: job.id });
    expect(pages).toHaveLength(1);
    // 283 x 425 pt at 96 dpi.
    expect({ width: pages[0]!.width, height: pages[0]!.height }).toEqual({
      width: Math.ceil((283 * 96) / 72),
      height: Math.ceil((425 * 96) / 72),
    });
    const png = Buffer.from(pages[0]!.png, 'base64');
    // The page's frame, rect(20, 150, 243, 120) pt: its top edge is ink, its inside is paper.
    const px = (pt: number) => Math.round((pt * 96) / 72);
    expect(await darkShare(png, { x: px(40), y: px(150) - 1, w: px(200), h: 3 })).toBeGreaterThan(0.3);
    expect(await darkShare(png, { x: px(40), y: px(170), w: px(200), h: px(80) })).toBe(0);
    // The title line at the top has text on it.
    expect(await darkShare(png, { x: px(20), y: px(20), w: px(200), h: px(18) })).toBeGreaterThan(0.02);
    // One render worker for both previews (the station's other worker is the WAL checkpointer's).
    expect(out.match(/probe: worker \S*renderWorker\.cjs/g)).toHaveLength(1);
    expect(out.match(/probe: worker /g)).toHaveLength(2);
    expect(out).toContain(`probe: worker ${path.join(root, 'dist', 'node', 'checkpointWorker.cjs')}`);
    expect(out).not.toContain('probe: main thread loads');
  });
});
