/**
 * The station log (electron/base/log.ts) on a real folder: a flood of lines rotates station.log and
 * keeps the folder bounded; secrets passed in fields never reach the files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../electron/base/log';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'station-log-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A script that imports the station log (as `createLogger`), bundled to run in its own process. */
async function childScript(dir: string, body: string): Promise<string> {
  writeFileSync(
    path.join(dir, 'child.ts'),
    `import { createLogger } from ${JSON.stringify(path.resolve(__dirname, '../../../electron/base/log'))};\n${body}`,
  );
  const child = path.join(dir, 'child.cjs');
  await build({
    entryPoints: [path.join(dir, 'child.ts')],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    nodePaths: [path.resolve(__dirname, '../../../node_modules')],
    logLevel: 'silent',
  });
  return child;
}

describe('station log', () => {
  it('a flood of lines rotates station.log and keeps at most maxFiles files of about maxBytes each', async () => {
    const dataDir = tmp();
    const log = createLogger({ dataDir, maxBytes: 20_000, maxFiles: 3 });
    expect(log.file).toBe(path.join(dataDir, 'logs', 'station.log'));
    for (let i = 0; i < 5000; i++) log.info('štítek vytištěn', { line: i, printer: 'Zebra ZD421 – sklad' });
    log.warn('poslední řádek', { line: 5000 });
    await log.flush();

    const logs = path.join(dataDir, 'logs');
    const files = readdirSync(logs).sort();
    // 5,000 lines of ~90 bytes are ~450 KB: without rotation one file would hold them all.
    expect(files).toEqual(['station.1.log', 'station.2.log', 'station.log']);
    const longest = Math.max(
      ...readFileSync(path.join(logs, 'station.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => Buffer.byteLength(l) + 1),
    );
    for (const f of files) expect(statSync(path.join(logs, f)).size).toBeLessThanOrEqual(20_000 + longest);

    // The newest lines are in station.log, the oldest were dropped, and every line is whole JSON.
    const current = readFileSync(path.join(logs, 'station.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(current.at(-1)).toMatchObject({ level: 'warn', message: 'poslední řádek', line: 5000 });
    expect(typeof current.at(-1)!.at).toBe('string');
    const all = files.flatMap((f) =>
      readFileSync(path.join(logs, f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { line: number }).line),
    );
    expect(all).not.toContain(0);
    // What is kept is one unbroken run of the newest lines.
    const kept = [...all].sort((a, b) => a - b);
    expect(kept.at(-1)).toBe(5000);
    expect(kept.length).toBe(kept.at(-1)! - kept[0]! + 1);
  });

  it('goes on in the same station.log after a restart, and rotates it when it is already full', async () => {
    const dataDir = tmp();
    const first = createLogger({ dataDir, maxBytes: 2_000, maxFiles: 2 });
    first.info('první spuštění');
    await first.flush();
    const second = createLogger({ dataDir, maxBytes: 2_000, maxFiles: 2 });
    second.info('druhé spuštění');
    await second.flush();
    const text = readFileSync(path.join(dataDir, 'logs', 'station.log'), 'utf8');
    expect(text).toContain('první spuštění');
    expect(text).toContain('druhé spuštění');
    for (let i = 0; i < 100; i++) second.info('řádek', { i });
    await second.flush();
    expect(readdirSync(path.join(dataDir, 'logs')).sort()).toEqual(['station.1.log', 'station.log']);
  });

  it('lines logged just before the process exits (a failed start) are in the file', async () => {
    // Writes are asynchronous: what a process logs right before process.exit must still land.
    const dir = tmp();
    writeFileSync(
      path.join(dir, 'child.ts'),
      `import { createLogger } from ${JSON.stringify(path.resolve(__dirname, '../../../electron/base/log'))};
const log = createLogger({ dataDir: process.argv[2] });
for (let i = 0; i < 2000; i++) log.info('řádek', { i });
log.error('stanice nemohla začít', { i: 2000 });
process.exit(3);`,
    );
    const child = path.join(dir, 'child.cjs');
    await build({
      entryPoints: [path.join(dir, 'child.ts')],
      outfile: child,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      nodePaths: [path.resolve(__dirname, '../../../node_modules')],
      logLevel: 'silent',
    });
    expect(() => execFileSync(process.execPath, [child, path.join(dir, 'data')], { stdio: 'pipe' })).toThrow(
      expect.objectContaining({ status: 3 }),
    );
    const lines = readFileSync(path.join(dir, 'data', 'logs', 'station.log'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(2001);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'error', message: 'stanice nemohla začít' });
  });

  it('never writes a client secret, refresh token, access token or authorization header', async () => {
    const dataDir = tmp();
    const log = createLogger({ dataDir });
    const secrets = {
      clientSecret: 'cs-ŠEST-123456',
      refreshToken: 'rt-abcdef0123456789',
      accessToken: 'at-0123456789abcdef',
      authorization: 'Bearer at-zzz',
      client_secret: 'cs-snake-999',
    };
    log.info('token obnoven', { ...secrets, account: 'Demo obchod' });
    log.error('přihlášení selhalo', { refresh_token: 'rt-snake-888', status: 400 });
    await log.flush();
    const text = readFileSync(log.file!, 'utf8');
    for (const v of [...Object.values(secrets), 'rt-snake-888']) expect(text).not.toContain(v);
    expect(text).toContain('Demo obchod');
    expect(text).toContain('[redacted]');
  });

  it('an error logged right before a SIGKILL is in the file, after every line logged before it', async () => {
    // A log written only in batches had almost nothing of the minutes before a power cut or a kill.
    const dir = tmp();
    const child = await childScript(
      dir,
      `const log = createLogger({ dataDir: process.argv[2] });
for (let i = 0; i < 2000; i++) log.info('řádek', { i });
log.error('tiskárna nepřijala štítek', { i: 2000 });
process.kill(process.pid, 'SIGKILL');`,
    );
    const run = spawnSync(process.execPath, [child, path.join(dir, 'data')], { stdio: 'pipe', timeout: 60_000 });
    expect(run.signal).toBe('SIGKILL');
    const lines = readFileSync(path.join(dir, 'data', 'logs', 'station.log'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(Array.from({ length: 2001 }, (_, i) => i));
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'error', message: 'tiskárna nepřijala štítek' });
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a log file whose writes fail (disk full) never holds up the station or its exit',
    async () => {
      // pino's own exit hook retried a failing log write every 100 ms forever, so a
      // core that meant to exit hung. station.log here is /dev/full: every write fails with ENOSPC.
      const dir = tmp();
      mkdirSync(path.join(dir, 'data', 'logs'), { recursive: true });
      symlinkSync('/dev/full', path.join(dir, 'data', 'logs', 'station.log'));
      const child = await childScript(
        dir,
        `const log = createLogger({ dataDir: process.argv[2] });
for (let i = 0; i < 200; i++) log.info('řádek', { i });
log.warn('disk plný', {});
setTimeout(() => {
  for (let i = 0; i < 200; i++) log.info('další řádek', { i });
  log.error('stanice končí', {});
  process.stdout.write('went on\\n');
  process.exit(3);
}, 50);`,
      );
      // The bound is only there so a hang fails the test instead of stalling it.
      const run = spawnSync(process.execPath, [child, path.join(dir, 'data')], { stdio: 'pipe', timeout: 30_000 });
      expect(run.stdout.toString()).toBe('went on\n');
      expect({ status: run.status, signal: run.signal }).toEqual({ status: 3, signal: null });
    },
  );
});
