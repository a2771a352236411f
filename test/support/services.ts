/**
 * Tests that need a system service (keychain, CUPS, Chromium, zbarimg, pdftoppm) ask here first.
 * Locally a missing service skips the test with a one-line reason; under CI=true it fails the
 * run, so CI never passes by skipping.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const inCI = process.env.CI === 'true' || process.env.CI === '1';

export type Availability = { ok: true } | { ok: false; reason: string };

function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function chromiumPath(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && existsSync(p)) return p;
  }
  return null;
}

export const checks: Record<string, () => Availability> = {
  chromium: () => (chromiumPath() ? { ok: true } : { ok: false, reason: 'Chromium not found (install Debian package chromium)' }),
  keychain: () =>
    process.env.DBUS_SESSION_BUS_ADDRESS
      ? { ok: true }
      : { ok: false, reason: 'no session bus with a Secret Service (run under dbus-run-session with gnome-keyring unlocked)' },
  cups: () => {
    if (!hasCommand('lpstat')) return { ok: false, reason: 'CUPS client tools not installed (cups)' };
    try {
      execFileSync('lpstat', ['-r'], { stdio: 'pipe' });
      const out = execFileSync('lpstat', ['-r'], { encoding: 'utf8' });
      return /is running/.test(out) ? { ok: true } : { ok: false, reason: 'cupsd is not running' };
    } catch {
      return { ok: false, reason: 'cupsd is not running' };
    }
  },
  zbarimg: () => (hasCommand('zbarimg') ? { ok: true } : { ok: false, reason: 'zbarimg not installed (zbar-tools)' }),
  pdftoppm: () => (hasCommand('pdftoppm') ? { ok: true } : { ok: false, reason: 'pdftoppm not installed (poppler-utils)' }),
};

/**
 * Returns true when every named service is there. Otherwise: under CI throws (the suite fails);
 * locally returns false and the caller skips: `describe.skipIf(!needs('cups'))(...)`.
 */
export function needs(...names: (keyof typeof checks)[]): boolean {
  for (const name of names) {
    const a = checks[name]!();
    if (!a.ok) {
      if (inCI) throw new Error(`Required system service missing in CI: ${name}: ${a.reason}`);
      console.warn(`skipped: ${name}: ${a.reason}`);
      return false;
    }
  }
  return true;
}
