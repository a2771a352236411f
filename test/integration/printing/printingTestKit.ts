/** Shared pieces for the printing tests: a fresh database, our own test ZPL, barcode decoding. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PrintHooks } from '../../../electron/printing/printerDriver';
import { openDatabase, type Db } from '../../../electron/store/database';

export function tempDir(prefix = 'printing-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function freshDb(dir = tempDir()): { db: Db; file: string } {
  const file = path.join(dir, 'station.db');
  return { db: openDatabase(file), file };
}

/**
 * A package label as the service lays it out: 300 dpi (12 dots/mm), 10x15 cm, a Code 128 of the
 * package barcode (module 3 dots) and its text. Written here, not by the sandbox's generator.
 */
export function packageLabelZpl(barcode: string, recipient = 'Jana Novakova'): string {
  return [
    '^XA',
    '^CI28^PW1200^LL1800^LH0,0',
    '^FO60,60^A0N,60,60^FDParcel label^FS',
    `^FO60,160^A0N,50,50^FD${recipient}^FS`,
    `^FO90,400^BY3,3,300^BCN,300,Y,N,N^FD${barcode}^FS`,
    '^XZ',
  ].join('\n');
}

/** Decodes every barcode in a PNG with zbarimg (what a scanner would read from the printed label). */
export function decodeBarcodes(png: Buffer, dir = tempDir('zbar-')): Promise<string[]> {
  const file = path.join(dir, `img-${Math.random().toString(36).slice(2)}.png`);
  writeFileSync(file, png);
  return new Promise((resolve) => {
    execFile('zbarimg', ['-q', '--raw', file], (err, stdout) => {
      resolve(err && !stdout ? [] : stdout.split('\n').map((s) => s.trim()).filter(Boolean));
    });
  });
}

/** Hooks for calling a driver directly, outside the queue. */
export function printHooks(accepted: () => void = () => undefined): PrintHooks {
  return { sending: () => undefined, accepted };
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000, stepMs = 20): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
