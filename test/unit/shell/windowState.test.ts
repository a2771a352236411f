import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWindowState, saveWindowState } from '../../../electron/shell/windowState';

const display = { x: 0, y: 0, width: 1366, height: 768 };
const fallback = { width: 1366, height: 768 };
const tmpFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'win-')), 'window.json');

describe('main window state', () => {
  it('reopens where it was closed', () => {
    const file = tmpFile();
    saveWindowState(file, { x: 40, y: 30, width: 1200, height: 700, maximized: false });
    expect(loadWindowState(file, [display], fallback)).toEqual({
      x: 40,
      y: 30,
      width: 1200,
      height: 700,
      maximized: false,
    });
  });

  it('opens with the default size the first time', () => {
    expect(loadWindowState(tmpFile(), [display], fallback)).toEqual(fallback);
  });

  it('keeps the size but drops a position on a display that is gone', () => {
    const file = tmpFile();
    saveWindowState(file, { x: 2000, y: 100, width: 1200, height: 700, maximized: true });
    expect(loadWindowState(file, [display], fallback)).toEqual({ width: 1200, height: 700, maximized: true });
  });

  it('ignores a damaged file', () => {
    const file = tmpFile();
    writeFileSync(file, '{"x": "left"');
    expect(loadWindowState(file, [display], fallback)).toEqual(fallback);
  });
});
