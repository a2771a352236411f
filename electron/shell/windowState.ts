/**
 * Remembers the main window's size and position between launches (a JSON file in the data
 * folder; window geometry is not worth a database row). A saved position that no longer lies
 * on any display (a monitor was unplugged) is dropped, so the window never opens off-screen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const saved = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20000),
  height: z.number().int().min(300).max(20000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof saved>;

export function loadWindowState(
  file: string,
  displays: readonly Rect[],
  fallback: { width: number; height: number },
): Partial<WindowState> & { width: number; height: number } {
  let state: WindowState;
  try {
    state = saved.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return fallback;
  }
  // At least 100x50 px of the title bar must be on some display.
  const visible = displays.some(
    (d) =>
      state.x + 100 <= d.x + d.width &&
      state.x + state.width - 100 >= d.x &&
      state.y >= d.y &&
      state.y + 50 <= d.y + d.height,
  );
  return visible ? state : { width: state.width, height: state.height, maximized: state.maximized };
}

export function saveWindowState(file: string, state: WindowState): void {
  try {
    // In the data folder, which is this user's only (electron/base/privateDataDir.ts); the main process
    // keeps the umask it was started with, so the mode is given here.
    writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
  } catch {
    // Losing the window position is not worth an error on quit.
  }
}
