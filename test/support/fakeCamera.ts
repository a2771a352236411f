/**
 * Pictures for the camera tests: a QR code (the `qrcode` package's module matrix) painted as
 * Chromium's fake capture device reads it (a YUV4MPEG2 file: the header, then 4:2:0 frames of a Y
 * plane and quarter-size U and V planes, https://wiki.multimedia.cx/index.php/YUV4MPEG2), and as a
 * JPEG (@napi-rs/canvas) for tests that send a photo without a browser. No ffmpeg.
 */
import { writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import QRCode from 'qrcode';

/** The QR's dark modules, with the 4-module quiet zone the standard asks for around them. */
function qrModules(text: string): { size: number; dark(x: number, y: number): boolean } {
  const m = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const q = 4;
  return {
    size: m.size + 2 * q,
    dark: (x, y) => x >= q && y >= q && x < m.size + q && y < m.size + q && !!m.get(y - q, x - q),
  };
}

/** A y4m file of `frames` identical frames showing the QR code centred on white. */
export function qrY4m(text: string, o: { width?: number; height?: number; frames?: number } = {}): Buffer {
  const width = o.width ?? 640;
  const height = o.height ?? 480;
  const frames = o.frames ?? 5;
  const qr = qrModules(text);
  const scale = Math.floor((Math.min(width, height) * 0.9) / qr.size);
  const left = Math.floor((width - qr.size * scale) / 2);
  const top = Math.floor((height - qr.size * scale) / 2);
  const y = Buffer.alloc(width * height, 255);
  for (let py = 0; py < qr.size * scale; py++)
    for (let px = 0; px < qr.size * scale; px++)
      if (qr.dark(Math.floor(px / scale), Math.floor(py / scale))) y[(top + py) * width + left + px] = 0;
  // Grey has no colour: both chroma planes at their middle value.
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

export function writeQrY4m(file: string, text: string): string {
  writeFileSync(file, qrY4m(text));
  return file;
}

/** A JPEG photo (as a page would send) showing the QR code, `width`×`height` pixels. */
export async function qrJpeg(text: string, width = 640, height = 480): Promise<Buffer> {
  const qr = qrModules(text);
  const scale = Math.floor((Math.min(width, height) * 0.9) / qr.size);
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#000';
  const left = Math.floor((width - qr.size * scale) / 2);
  const top = Math.floor((height - qr.size * scale) / 2);
  for (let my = 0; my < qr.size; my++)
    for (let mx = 0; mx < qr.size; mx++)
      if (qr.dark(mx, my)) g.fillRect(left + mx * scale, top + my * scale, scale, scale);
  return c.encode('jpeg', 80);
}
