/**
 * A failing disk is a state, not a hang. The real station (dist/node/host.mjs:
 * the core, its embedded sandbox and virtual printers, the web host) runs on a data folder that is a
 * FUSE mount (test/support/lossyfs.py) whose writes can be made to fail on demand: EIO (the disk's
 * I/O errors, as a dying disk gives them) or ENOSPC (a full disk). What a worker would see:
 *   - a scan made after the failure is refused with the storage reason, never acknowledged;
 *   - the desk's status says the station cannot write its data, and why;
 *   - the process ends by itself with its own exit code (75), instead of hanging in a log flush;
 *   - `npm start -- --web` (scripts/start.mjs) starts it again on the same address, and the page,
 *     reconnected with the same token, is told why;
 *   - started again on a healthy disk, nothing it acknowledged is lost.
 * A real full disk too: a 64 MB tmpfs filled to its last byte (a FUSE layer's ENOSPC is our own
 * model of one; the kernel's is not).
 * Needs FUSE and a tmpfs mount (`needs('fuse')`, `needs('tmpfs')`: skipped locally without them,
 * failing under CI=true) and the built dist/.
 * 20 s bounds below are failure bounds (the exit comes about a second after the failure), not measurements.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebHost } from '../../../electron/host/webHost';
import { hostBuilt, startChildHost, type ChildHost } from '../../support/childHost';
import { mountLossyFs, type LossyMount } from '../../support/lossyFs';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { repoRoot } from '../../support/station';

const fuseOk = needs('fuse');
const tmpfsOk = needs('tmpfs');
if (fuseOk && !hostBuilt && process.env.CI) throw new Error('dist/node/host.mjs is not built (npm test builds it)');
const FAIL_BOUND_MS = 20_000;

let top: string;
const mounts: LossyMount[] = [];
const tmpfsMounts: string[] = [];
const stops: (() => Promise<void>)[] = [];
const sockets: RpcSocket[] = [];

async function mountFailable(name: string): Promise<{ dataDir: string; fs: LossyMount }> {
  const backing = path.join(top, `${name}-backing`);
  const dataDir = path.join(top, `${name}-data`);
  mkdirSync(backing);
  mkdirSync(dataDir);
  const fs = await mountLossyFs(backing, dataDir, { failFlag: path.join(top, `${name}-fail`) });
  mounts.push(fs);
  return { dataDir, fs };
}

async function rpcOf(host: Pick<WebHost, 'port' | 'token' | 'origin'>): Promise<RpcSocket> {
  const rpc = await connectRpc(host as WebHost);
  sockets.push(rpc);
  return rpc;
}

/** A scan acknowledged and its outcome (what the Station screen shows for it). */
async function scan(rpc: RpcSocket, code: string): Promise<{ scanId: number; kind: string }> {
  const { scanId } = await rpc.call('scan.submit', { code });
  const outcome = await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId, 30_000);
  return { scanId, kind: outcome.kind };
}

/** What a scan.submit made on the failing disk answered: a refusal (code and sentence), or the acknowledgement. */
async function submitAnswer(
  rpc: RpcSocket,
  code: string,
): Promise<{ refused: { code: string; message: string } } | { acknowledged: number }> {
  try {
    return { acknowledged: (await rpc.call('scan.submit', { code })).scanId };
  } catch (err) {
    if (err instanceof StationCallError) return { refused: { code: err.code, message: err.message } };
    throw err;
  }
}

function exitOf(child: ChildProcess, boundMs: number): Promise<number | null | 'still running'> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), boundMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Writes zeros into `file` until the file system has not one byte left. */
function fillToLastByte(file: string): void {
  const fd = openSync(file, 'w');
  let chunk = 1 << 20;
  const zeros = Buffer.alloc(chunk);
  try {
    for (;;) {
      try {
        writeSync(fd, zeros, 0, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        if (chunk === 1) return;
        chunk >>= 1;
      }
    }
  } finally {
    closeSync(fd);
  }
}

beforeAll(() => {
  if (fuseOk || tmpfsOk) top = mkdtempSync(path.join(tmpdir(), 'station-storage-failure-'));
});

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const stop of stops.reverse()) await stop();
  for (const m of mounts) await m.unmount();
  for (const dir of tmpfsMounts) execFileSync('umount', ['-l', dir]);
  if (top) rmSync(top, { recursive: true, force: true });
});

describe.skipIf(!fuseOk || !hostBuilt)('a failing disk under a scanning station', { timeout: 120_000 }, () => {
  it('an I/O error: the next scan is refused with the reason, the desk is told, the core exits (75) and, on a healthy disk, has lost nothing it acknowledged', async () => {
    const { dataDir, fs: disk } = await mountFailable('eio');
    const ch: ChildHost = await startChildHost({ dataDir });
    stops.push(ch.stop);
    const rpc = await rpcOf(ch.host);
    const before = await scan(rpc, 'ORD-1001');
    expect(before.kind).toBe('printed');

    disk.failWrites('EIO');
    const answer = await submitAnswer(rpc, 'ORD-1002');
    expect(answer).toEqual({
      refused: { code: 'storage_failed', message: expect.stringContaining('The station cannot write its data') },
    });
    const status = await rpc.waitFor('station.statusChanged', (s) => s.storage.failed !== null, FAIL_BOUND_MS);
    expect(status.storage.failed).toMatchObject({ kind: 'io', code: expect.stringMatching(/^SQLITE_IOERR/) });
    // A second scan while the station goes down: refused too, never acknowledged.
    const again = await submitAnswer(rpc, 'ORD-1003');
    if ('refused' in again) expect(again.refused.code).toMatch(/^(storage_failed|unavailable)$/);
    else expect.unreachable(`scan acknowledged on a failing disk: ${again.acknowledged}`);

    expect(await exitOf(ch.child, FAIL_BOUND_MS)).toBe(75);

    // The disk is healthy again: a new start on the same folder.
    disk.failWrites(null);
    const next = await startChildHost({ dataDir });
    stops.push(next.stop);
    const rpc2 = await rpcOf(next.host);
    const recent = await rpc2.call('scans.recent', { limit: 50 });
    const kept = recent.find((s) => s.id === before.scanId);
    expect(kept).toMatchObject({ code: 'ORD-1001' });
    // Refused scans were never acknowledged: scanned again, they close and print now.
    expect((await scan(rpc2, 'ORD-1002')).kind).toBe('printed');
    expect((await scan(rpc2, 'ORD-1003')).kind).toBe('printed');
    // ORD-1001 stays closed: scanning it again asks before printing twice.
    expect((await scan(rpc2, 'ORD-1001')).kind).toBe('already_closed');
    await next.stop();
  });

  it('a full disk under `npm start -- --web`: the station stops (75), is started again on the same address and the reconnected page is told why', async () => {
    const { dataDir, fs: disk } = await mountFailable('full');
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'start.mjs'), '--web', '--port', '0', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    const waitOut = async (re: RegExp, from = 0): Promise<RegExpExecArray> => {
      for (let waited = 0; waited < 45_000; waited += 100) {
        const m = re.exec(out.slice(from));
        if (m) return m;
        if (child.exitCode !== null) throw new Error(`npm start ended (${child.exitCode}):\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no ${re} in npm start's output:\n${out}`);
    };
    const address = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/;
    const first = await waitOut(address);
    const host = { origin: `http://127.0.0.1:${first[1]}`, port: Number(first[1]), token: first[2]! };
    const rpc = await rpcOf(host);
    expect((await scan(rpc, 'ORD-1004')).kind).toBe('printed');

    const mark = out.length;
    disk.failWrites('ENOSPC');
    const answer = await submitAnswer(rpc, 'ORD-1005');
    expect(answer).toEqual({
      refused: { code: 'storage_failed', message: expect.stringContaining('The station cannot write its data') },
    });
    expect(
      (await rpc.waitFor('station.statusChanged', (s) => s.storage.failed !== null, FAIL_BOUND_MS)).storage.failed,
    ).toMatchObject({ kind: 'full', code: 'SQLITE_FULL' });

    // npm start says the station stopped and why, and starts it again.
    await waitOut(/could not write its data \(.*SQLITE_FULL.*it is started again/, mark);
    disk.failWrites(null);
    const second = await waitOut(address, mark);
    // The same address: the open page's token still works, so it reconnects by itself.
    expect(second.slice(1)).toEqual(first.slice(1));
    const rpc2 = await rpcOf(host);
    const status = await rpc2.call('station.status', {});
    expect(status.storage).toMatchObject({ failed: null, restartedAfter: { kind: 'full', code: 'SQLITE_FULL' } });
    expect((await scan(rpc2, 'ORD-1005')).kind).toBe('printed');
    expect(child.exitCode).toBeNull();
  });
});

describe.skipIf(!tmpfsOk || !hostBuilt)('a full disk, filled to the last byte (tmpfs)', { timeout: 120_000 }, () => {
  it('scans go on while SQLite has room; the first it cannot commit is refused, the core exits (75), and every acknowledged scan is kept', async () => {
    const dataDir = path.join(top, 'tmpfs-data');
    mkdirSync(dataDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dataDir]);
    tmpfsMounts.push(dataDir);
    const ch = await startChildHost({ dataDir });
    stops.push(ch.stop);
    const rpc = await rpcOf(ch.host);
    const acknowledged = [(await scan(rpc, 'ORD-1006')).scanId];

    const filler = path.join(dataDir, 'filler');
    fillToLastByte(filler);
    // SQLite may still have room in its WAL: scans it commits are acknowledged (and must be kept);
    // the first it cannot commit is refused. Bounded: a full disk must show within a few scans.
    let refusal: { code: string; message: string } | null = null;
    for (let i = 0; i < 20 && !refusal; i++) {
      const answer = await submitAnswer(rpc, 'ORD-1006');
      if ('refused' in answer) refusal = answer.refused;
      else acknowledged.push(answer.acknowledged);
    }
    expect(refusal).toEqual({
      code: 'storage_failed',
      message: expect.stringContaining('The station cannot write its data'),
    });
    expect(
      (await rpc.waitFor('station.statusChanged', (s) => s.storage.failed !== null, FAIL_BOUND_MS)).storage.failed,
    ).toMatchObject({ kind: 'full', code: 'SQLITE_FULL' });
    expect(await exitOf(ch.child, FAIL_BOUND_MS)).toBe(75);

    // Space freed: a new start on the same folder keeps every scan it acknowledged.
    rmSync(filler);
    const next = await startChildHost({ dataDir });
    stops.push(next.stop);
    const rpc2 = await rpcOf(next.host);
    const kept = new Set((await rpc2.call('scans.recent', { limit: 100 })).map((s) => s.id));
    expect(acknowledged.filter((id) => !kept.has(id))).toEqual([]);
    expect((await scan(rpc2, 'ORD-1007')).kind).toBe('printed');
    await next.stop();
  });
});
