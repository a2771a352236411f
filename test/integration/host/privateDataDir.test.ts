/**
 * The data folder is private: the real station (dist/node/host.mjs) started
 * under umask 022 on a data folder an older version left world-readable (0755 folders, 0644
 * station.db, -wal, -shm, sandbox.db, logs, the virtual PDF printer's files). After its start
 * and a scan that closes, stores and prints (so the databases and their WAL are written), every
 * folder in it is 0700 and every file 0600, whether it was there before or created by this run.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebHost } from '../../../electron/host/webHost';
import { hostBuilt, startChildHost, type ChildHost } from '../../support/childHost';
import { connectRpc } from '../../support/rpcSocket';

/** Every entry under `dir` (itself included) with its permission bits, e.g. `logs/station.log 600`. */
function modes(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const info = lstatSync(p);
    if (info.isSymbolicLink()) return;
    out.push(`${path.relative(dir, p) || '.'}${info.isDirectory() ? '/' : ''} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out.sort();
}

/** A data folder as an older version under umask 022 left it. */
function olderDataFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'station-private-'));
  for (const db of ['station.db', 'sandbox.db']) new Database(path.join(dir, db)).close();
  // A WAL and shared-memory file left by a station that did not close (both empty: SQLite starts them afresh).
  writeFileSync(path.join(dir, 'station.db-wal'), '');
  writeFileSync(path.join(dir, 'station.db-shm'), '');
  mkdirSync(path.join(dir, 'logs'));
  writeFileSync(path.join(dir, 'logs', 'station.log'), '{"level":"info","message":"an older run"}\n');
  writeFileSync(path.join(dir, 'logs', 'station.1.log'), '');
  mkdirSync(path.join(dir, 'virtual-pdf-printer'));
  writeFileSync(path.join(dir, 'virtual-pdf-printer', '2026-01-01T00-00-00-000Z-0001-label.pdf'), '%PDF-1.4\n');
  const open = (p: string) => {
    chmodSync(p, lstatSync(p).isDirectory() ? 0o755 : 0o644);
    if (lstatSync(p).isDirectory()) for (const n of readdirSync(p)) open(path.join(p, n));
  };
  open(dir);
  return dir;
}

describe.skipIf(!hostBuilt && !process.env.CI)('the data folder is private', { timeout: 120_000 }, () => {
  let ch: ChildHost | null = null;
  afterAll(async () => {
    await ch?.stop();
    if (ch) rmSync(ch.dataDir, { recursive: true, force: true });
  });

  it('under umask 022, an older world-readable folder and everything the station writes in it are 0700 / 0600', async () => {
    const dataDir = olderDataFolder();
    expect(modes(dataDir)).toContain('station.db 644');
    ch = await startChildHost({ dataDir, umask: '022' });
    const rpc = await connectRpc(ch.host as WebHost);
    try {
      const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1001' });
      expect(await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId, 30_000)).toMatchObject({ kind: 'printed' });
    } finally {
      rpc.close();
    }
    // While the station runs (its WAL and shared-memory files are there now) and after it stopped.
    const running = modes(dataDir);
    expect(running).toEqual(
      expect.arrayContaining([
        'station.db-wal 600',
        'station.db-shm 600',
        'sandbox.db 600',
        'logs/ 700',
        'logs/station.log 600',
      ]),
    );
    await ch.stop();
    for (const entries of [running, modes(dataDir)]) {
      // Folders are listed with a trailing slash.
      expect(entries.filter((e) => !e.endsWith(e.includes('/ ') ? '/ 700' : ' 600'))).toEqual([]);
    }
  });
});
