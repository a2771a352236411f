/**
 * Tests that need a system service (keychain, CUPS, Chromium, zbarimg, pdftoppm, FUSE) ask here first.
 * Locally a missing service skips the test with a one-line reason; under CI=true it fails the
 * run, so CI never passes by skipping.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** The python3 that runs test/support/lossyfs.py (Debian's, where python3-fusepy is installed). */
export function lossyFsPython(): string {
  return process.env.LOSSYFS_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
}
export const lossyFsScript = path.join(__dirname, 'lossyfs.py');

/** FUSE that mounts here: /dev/fuse, fusepy, and a probe mount by lossyfs.py itself (needs CAP_SYS_ADMIN or fusermount). */
function fuse(): Availability {
  const pkgs = '(Debian packages fuse3 python3-fusepy)';
  if (!existsSync('/dev/fuse'))
    return { ok: false, reason: 'no /dev/fuse (FUSE is not available in this kernel or container)' };
  if (!hasCommand('fusermount3') && !hasCommand('umount'))
    return { ok: false, reason: `neither fusermount3 nor umount found ${pkgs}` };
  try {
    execFileSync(lossyFsPython(), ['-c', 'import fusepy'], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync(lossyFsPython(), ['-c', 'import fuse; fuse.FUSE'], { stdio: 'ignore' });
    } catch {
      return { ok: false, reason: `fusepy (over libfuse2) not importable by ${lossyFsPython()} ${pkgs}` };
    }
  }
  try {
    execFileSync(lossyFsPython(), [lossyFsScript, '--probe'], { encoding: 'utf8', timeout: 30_000, stdio: 'pipe' });
    return { ok: true };
  } catch (err) {
    const out = String((err as { stdout?: string }).stdout ?? '').trim() || (err as Error).message.split('\n')[0];
    return { ok: false, reason: `a FUSE mount does not work here: ${out} (needs /dev/fuse and CAP_SYS_ADMIN)` };
  }
}

/** A small tmpfs that mounts here (a disk that can be filled to the last byte): needs root / CAP_SYS_ADMIN. */
function tmpfs(): Availability {
  if (!hasCommand('mount') || !hasCommand('umount'))
    return { ok: false, reason: 'mount / umount not found (util-linux)' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return { ok: true };
  } catch (err) {
    const why = String((err as { stderr?: Buffer }).stderr ?? '').trim() || (err as Error).message.split('\n')[0];
    return { ok: false, reason: `a tmpfs cannot be mounted here: ${why} (needs root or CAP_SYS_ADMIN)` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const checks: Record<string, () => Availability> = {
  chromium: () =>
    chromiumPath() ? { ok: true } : { ok: false, reason: 'Chromium not found (install Debian package chromium)' },
  keychain: () =>
    process.env.DBUS_SESSION_BUS_ADDRESS
      ? { ok: true }
      : {
          ok: false,
          reason: 'no session bus with a Secret Service (run under dbus-run-session with gnome-keyring unlocked)',
        },
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
  socat: () =>
    hasCommand('socat')
      ? { ok: true }
      : { ok: false, reason: 'socat not installed (Debian package socat): no virtual serial scale' },
  pdftoppm: () =>
    hasCommand('pdftoppm') ? { ok: true } : { ok: false, reason: 'pdftoppm not installed (poppler-utils)' },
  fuse,
  tmpfs,
  prometheus: () =>
    prometheusPath()
      ? { ok: true }
      : {
          ok: false,
          reason: 'prometheus not installed (Debian package prometheus): no real scrape of the metrics endpoint',
        },
};

/** Debian's Prometheus server (the metrics endpoint's scrape test starts it on a loopback port). */
export function prometheusPath(): string | null {
  for (const p of [process.env.PROMETHEUS_PATH, '/usr/bin/prometheus']) if (p && existsSync(p)) return p;
  return hasCommand('prometheus') ? 'prometheus' : null;
}

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
