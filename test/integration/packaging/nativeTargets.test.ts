/**
 * better-sqlite3 for Electron per target: scripts/native-electron.mjs makes
 * native/electron/<os>-<arch>/better_sqlite3.node from the package's published Electron prebuild
 * for that target, and refuses — loudly, with no file left for electron-builder to copy — a target
 * whose binary cannot be had, or a binary whose header names another platform or CPU. It never
 * puts this machine's binary in another target's place.
 *
 * The published prebuilds are served here by a local mirror (prebuild-install's own
 * npm_config_better_sqlite3_binary_host setting), so the test needs no internet: it serves this
 * machine's Node build of better-sqlite3 under whatever name is asked for, exactly the mix-up the
 * script must catch.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync, copyFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/station';

const nodeBuild = path.join(repoRoot, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const work = mkdtempSync(path.join(tmpdir(), 'native-targets-'));
let mirror: http.Server;
let mirrorUrl = '';
const asked: string[] = [];

/** A prebuild tarball as prebuild-install unpacks it: build/Release/better_sqlite3.node. */
async function tarball(): Promise<string> {
  const stage = path.join(work, 'stage');
  mkdirSync(path.join(stage, 'build', 'Release'), { recursive: true });
  copyFileSync(nodeBuild, path.join(stage, 'build', 'Release', 'better_sqlite3.node'));
  const file = path.join(work, 'prebuild.tar.gz');
  await new Promise<void>((resolve, reject) =>
    execFile('tar', ['-czf', file, '-C', stage, 'build'], (err: Error | null) => (err ? reject(err) : resolve())),
  );
  return file;
}

/** Runs the script as the packaging does; resolves with its exit code and output. */
function nativeElectron(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'native-electron.mjs'), ...args],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          STATION_NATIVE_DIR: path.join(work, 'native'),
          npm_config_better_sqlite3_binary_host: mirrorUrl,
          npm_config_cache: path.join(work, 'npm-cache'),
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

const hostOs = ({ win32: 'win', darwin: 'mac', linux: 'linux' } as Record<string, string>)[process.platform]!;
const hostArch = process.arch;

describe('better-sqlite3 for Electron, per target', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const file = await tarball();
    mirror = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      // Win arm64 is "not published" here; every other name gets this machine's binary.
      if ((req.url ?? '').includes('win32-arm64')) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/gzip' });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => mirror.close(() => r()));
    rmSync(work, { recursive: true, force: true });
  });

  it("takes the published prebuild for this machine's target and keeps it in native/electron/<os>-<arch>", async () => {
    const r = await nativeElectron(['--os', hostOs, '--arch', hostArch]);
    expect(r.code, r.out).toBe(0);
    const electronVersion = JSON.parse(
      readFileSync(path.join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8'),
    ).version as string;
    expect(asked.some((u) => u.includes(`electron-v`) && u.endsWith(`-${process.platform}-${hostArch}.tar.gz`))).toBe(
      true,
    );
    const file = path.join(work, 'native', `${hostOs}-${hostArch}`, 'better_sqlite3.node');
    expect(readFileSync(file).equals(readFileSync(nodeBuild))).toBe(true);
    expect(
      readFileSync(path.join(work, 'native', `${hostOs}-${hostArch}`, 'electron-version.txt'), 'utf8').trim(),
    ).toBe(electronVersion);
  });

  it('refuses a binary whose header names another platform or CPU: the macOS arm64 package gets none', async () => {
    const r = await nativeElectron(['--os', 'mac', '--arch', 'arm64']);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain(`obtained for darwin-arm64 is built for ${process.platform}-${process.arch}; not packaged`);
    expect(existsSync(path.join(work, 'native', 'mac-arm64', 'better_sqlite3.node'))).toBe(false);
  });

  it("fails loudly for a target whose prebuild cannot be had, rather than building this machine's binary in its place", async () => {
    const r = await nativeElectron(['--os', 'win', '--arch', 'arm64']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/No Electron .* build of better-sqlite3 for win32-arm64/);
    expect(existsSync(path.join(work, 'native', 'win-arm64', 'better_sqlite3.node'))).toBe(false);
  });
});
