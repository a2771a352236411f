/**
 * A desk camera's picture for the camera benchmarks: a cardboard-brown field under 4,000 small
 * coloured squares, busy enough that its JPEG at the camera's default size (1280×720, about
 * 100 KB) weighs what a real desk's does. As a JPEG (sent as a page would send it) and as a
 * YUV4MPEG2 file for Chromium's fake capture device (`--use-file-for-fake-video-capture`: the
 * header, then 4:2:0 frames of a Y plane and quarter-size U and V planes,
 * https://wiki.multimedia.cx/index.php/YUV4MPEG2; BT.601 full-range, as C420jpeg says).
 */
import { writeFileSync } from 'node:fs';
import { createCanvas, type Canvas } from '@napi-rs/canvas';

function deskCanvas(width: number, height: number, seed: number): Canvas {
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = '#b08850';
  g.fillRect(0, 0, width, height);
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 4000; i++) {
    g.fillStyle = `rgb(${Math.floor(rnd() * 255)},${Math.floor(rnd() * 255)},${Math.floor(rnd() * 255)})`;
    g.fillRect(rnd() * width, rnd() * height, 2 + rnd() * 12, 2 + rnd() * 12);
  }
  return c;
}

/** The picture as the page sends it: a JPEG, base64, with its size. */
export function deskPhoto(width = 1280, height = 720): { jpeg: string; width: number; height: number } {
  return { jpeg: deskCanvas(width, height, 7).encodeSync('jpeg', 55).toString('base64'), width, height };
}

/** A y4m file of `frames` pictures of the desk (each a little different, as a camera's are). */
export function writeDeskY4m(file: string, width = 1280, height = 720, frames = 4): string {
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`)];
  for (let f = 0; f < frames; f++) {
    const rgba = deskCanvas(width, height, 7 + f)
      .getContext('2d')
      .getImageData(0, 0, width, height).data;
    const y = Buffer.alloc(width * height);
    const u = Buffer.alloc((width / 2) * (height / 2));
    const v = Buffer.alloc((width / 2) * (height / 2));
    for (let i = 0, p = 0; p < width * height; p++, i += 4)
      y[p] = Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!);
    // Each chroma sample from the top-left pixel of its 2×2 block (enough for a stand-in picture).
    for (let row = 0; row < height / 2; row++)
      for (let col = 0; col < width / 2; col++) {
        const i = (row * 2 * width + col * 2) * 4;
        const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
        const at = row * (width / 2) + col;
        u[at] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
        v[at] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
      }
    parts.push(Buffer.from('FRAME\n'), y, u, v);
  }
  writeFileSync(file, Buffer.concat(parts));
  return file;
}
