/**
 * The journal's promise, seen from outside at the moment each side effect happens: the station's
 * database commits at `synchronous = NORMAL` and syncs its -wal file on the thread pool
 * (electron/store/walSync.ts), so what it acts on must be on the disk before it acts. The data
 * folder is a lossy FUSE mount (test/support/lossyfs.py): written data reaches the backing folder
 * only when synced, so the backing folder is what a power cut would leave. At each side effect the
 * backing folder is copied and read:
 *   - a set-up's answer (a printer saved over the RPC): the printer is on the disk;
 *   - a scan's acknowledgement: its scan log row is on the disk;
 *   - the close request arriving at the service (a real sandbox behind an HTTP proxy): as many
 *     journal entries reached `close_requested` on the disk as closes arrived;
 *   - a label's bytes arriving at the printer (a real TCP listener behind a TCP tap): as many print
 *     jobs are past `queued` (`sending` on) on the disk as labels arrived.
 * The station runs in this process, so it stands still while a copy is taken. The same desk with
 * the -wal syncs doing nothing (childStation.ts skipWalSyncs: the station awaits them, they sync
 * nothing) shows that the checks catch a station acting before its commit is on the disk.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createStation, type Station } from '../../../electron/station';
import { printerSettings } from '../../../shared/contract/printing';
import { skipWalSyncs } from '../../support/childStation';
import { barcodeOf, startRig, type Rig } from '../../support/crashRig';
import { startFlakyProxy, type FlakyProxy } from '../../support/flakyProxy';
import { mountLossyFs, type LossyMount } from '../../support/lossyFs';
import { memoryLogger } from '../../support/memoryLogger';
import { needs } from '../../support/services';

const fuseOk = needs('fuse');
/** Shipments of one package (the rig gives n % 4 == 0 two, n % 9 == 0 three): one label, one job each. */
const CODES = [1, 2, 3, 5, 6, 7, 10, 11].map((n) => `CR-${n}`);

/** A TCP tap in front of the printer: calls `seen` with each chunk the station sends (and its connection's number), before passing it on. */
async function startTap(
  port: number,
  seen: (connection: number, chunk: Buffer) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    const printer = net.connect(port, '127.0.0.1');
    const id = connections++;
    sockets.add(client).add(printer);
    client.on('data', (d: Buffer) => {
      seen(id, d);
      printer.write(d);
    });
    printer.on('data', (d: Buffer) => client.write(d));
    client.on('close', () => printer.destroy());
    printer.on('close', () => client.destroy());
    client.on('error', () => printer.destroy());
    printer.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}

interface DeskRun {
  /** Side effects that happened before what allowed them was on the disk. */
  early: string[];
  checks: Record<'setup' | 'ack' | 'close' | 'label', number>;
}

/** A desk on a lossy data folder: a printer set up, the codes scanned, every label out; each side effect checked against the disk. */
async function deskRun(): Promise<DeskRun> {
  const top = mkdtempSync(path.join(tmpdir(), 'station-sync-order-'));
  const backing = path.join(top, 'backing');
  const dataDir = path.join(top, 'data');
  mkdirSync(backing);
  mkdirSync(dataDir);
  const early: string[] = [];
  const checks = { setup: 0, ack: 0, close: 0, label: 0 };
  let fs: LossyMount | null = null;
  let rig: Rig | null = null;
  let proxy: FlakyProxy | null = null;
  let tap: Awaited<ReturnType<typeof startTap>> | null = null;
  let station: Station | null = null;

  /** What the backing folder (the disk after a power cut) holds, read from a copy. */
  function onDisk(sql: string, ...params: unknown[]): number {
    const dir = mkdtempSync(path.join(top, 'disk-'));
    try {
      for (const f of ['station.db', 'station.db-wal'])
        if (existsSync(path.join(backing, f))) copyFileSync(path.join(backing, f), path.join(dir, f));
      const db = new Database(path.join(dir, 'station.db'));
      try {
        return db
          .prepare(sql)
          .pluck()
          .get(...params) as number;
      } catch {
        return 0; // the schema itself is not on the disk yet
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  try {
    fs = await mountLossyFs(backing, dataDir);
    rig = await startRig();
    const externals = await rig.insertShipments(Math.max(...CODES.map((c) => Number(c.slice(3)))));
    expect(externals.size).toBeGreaterThan(0);

    let closes = 0;
    proxy = await startFlakyProxy(rig.sandbox.url);
    proxy.decide = (_n, req) => {
      if (req.method === 'PATCH' && req.url?.startsWith('/api/v3/deliveries')) {
        closes++;
        checks.close++;
        const onTheDisk = onDisk("SELECT count(DISTINCT entry_id) FROM journal_steps WHERE step = 'close_requested'");
        if (onTheDisk < closes) early.push(`close ${closes} arrived with ${onTheDisk} close_requested on the disk`);
      }
      return 'pass';
    };

    const labels = new Set<string>();
    const streams = new Map<number, string>();
    tap = await startTap(rig.printer.port, (id, chunk) => {
      // What each connection carried: a barcode in it is a label whose bytes reached the printer.
      const text = (streams.get(id) ?? '') + chunk.toString('latin1');
      streams.set(id, text);
      const before = labels.size;
      for (const m of text.matchAll(/\^BC[^\n]*?\^FD.*?\^FS/g)) {
        const code = barcodeOf(m[0]);
        if (code) labels.add(code);
      }
      if (labels.size === before) return;
      checks.label++;
      const onTheDisk = onDisk("SELECT count(*) FROM print_jobs WHERE state <> 'queued'");
      if (onTheDisk < labels.size)
        early.push(`label ${labels.size} reached the printer with ${onTheDisk} jobs past queued on the disk`);
    });

    station = await createStation({
      dataDir,
      host: 'web',
      version: '0.0.0-sync-order',
      log: memoryLogger(),
      sandbox: { url: proxy.url, demo: rig.sandbox.demo },
      secrets: createMemorySecretStore(),
      printWaitMs: 60_000,
      healthIntervalMs: 60_000,
    });
    const s = station;
    const call = async (method: string, params: unknown) => {
      const r = await s.rpc.dispatch(method, params);
      if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
      return r.value;
    };
    await call('printing.printers.save', {
      id: 'desk',
      name: 'Desk Zebra',
      connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: tap.port },
      settings: printerSettings.parse({ hostStatus: true }),
    });
    checks.setup++;
    if (onDisk("SELECT count(*) FROM printers WHERE id = 'desk'") !== 1)
      early.push('printer answered saved, not on the disk');
    await call('printing.routes.set', {
      carriers: {},
      defaultRoute: { format: 'zpl', printerId: 'desk' },
      protocolPrinterId: null,
    });

    const outcomes: Promise<unknown>[] = [];
    const acked = async (code: string) => {
      const { scanId, done } = await s.workflows.scanToClose.submit(code);
      checks.ack++;
      if (onDisk('SELECT count(*) FROM scan_log WHERE id = ?', scanId) !== 1)
        early.push(`scan ${scanId} (${code}) acknowledged, not on the disk`);
      outcomes.push(done);
    };
    // One at a time (each scan alone on an idle line), then the rest in one turn (one shared commit).
    for (const code of CODES.slice(0, 4)) {
      await acked(code);
      await outcomes[outcomes.length - 1];
    }
    await Promise.all(CODES.slice(4).map(acked));
    await Promise.all(outcomes);
    await expect
      .poll(() => rig!.printer.printed().length, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(CODES.length);
    return { early, checks };
  } finally {
    await station?.close();
    await tap?.close();
    await proxy?.close();
    await rig?.close();
    await fs?.unmount();
    rmSync(top, { recursive: true, force: true });
  }
}

describe.skipIf(!fuseOk)(
  'each side effect after its commit is on the disk (a lossy file system read at that moment)',
  () => {
    let syncAgain: () => void = () => undefined;
    afterEach(() => syncAgain());

    it('a set-up answered, scans acknowledged, closes sent and labels printed find what allows them on the disk', async () => {
      const run = await deskRun();
      expect(run.early).toEqual([]);
      expect(run.checks).toMatchObject({ setup: 1, ack: CODES.length, close: CODES.length });
      expect(run.checks.label).toBeGreaterThanOrEqual(1);
    }, 180_000);

    it('with the -wal syncs doing nothing (awaited, syncing nothing) the same checks catch the station acting first', async () => {
      syncAgain = skipWalSyncs(true);
      const run = await deskRun();
      expect(run.early.length, run.early.join('\n')).toBeGreaterThan(0);
      expect(run.early.some((e) => e.startsWith('scan '))).toBe(true);
      expect(run.early.some((e) => e.startsWith('close '))).toBe(true);
      expect(run.early.some((e) => e.startsWith('label '))).toBe(true);
    }, 180_000);
  },
);
