/**
 * Events scale: the line of scans reaches the page as what changed, not as the
 * whole line again on every change. 200 scans wait while the service is down, then run when it
 * is back; the page — the changes applied in order to the list it loaded at the start — shows
 * what the station's own list call shows, and the entries sent across all `scan.pending` frames
 * grow with the number of scans, not with its square (the whole list re-sent would be ~20,000
 * entries here). Real parts: the composed station, a real sandbox over HTTP stopped and started
 * again on the same port and data file.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createStation, type Station } from '../../../electron/station';
import type {
  BatchItem,
  BatchItems,
  BatchItemsChange,
  PendingScan,
  PendingScans,
  PendingScansChange,
} from '../../../shared/contract/workflows';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { memoryLogger } from '../../support/memoryLogger';
import { waitFor } from '../printing/printingTestKit';

const SCANS = 200;
const dir = mkdtempSync(path.join(os.tmpdir(), 'station-line-events-'));
let sb: Sandbox | null = null;
let station: Station | null = null;

afterAll(async () => {
  await station?.close();
  await sb?.close();
});

describe('the line of scans as the page receives it', () => {
  it('sends each change once, not the whole line again: 200 waiting scans cost a few entries each', async () => {
    const dataFile = path.join(dir, 'sandbox.db');
    sb = await startSandbox({ seed: 'demo', dataFile });
    const port = sb.port;
    station = await createStation({
      dataDir: path.join(dir, 'station'),
      host: 'web',
      version: 'test',
      log: memoryLogger(),
      sandbox: sb,
      secrets: createMemorySecretStore(),
      printWaitMs: 2000,
      healthIntervalMs: 600_000,
    });
    const call = async <T>(method: string): Promise<T> => {
      const r = await station!.rpc.dispatch(method, {});
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };

    // The page: the whole list once, then every change applied in order (a skipped version would be a lost change).
    const start = await call<PendingScans>('scan.pending');
    expect(start.scans).toEqual([]);
    const view = new Map<number, PendingScan>();
    let version = start.version;
    const frames: PendingScansChange[] = [];
    let outcomes = 0;
    station.rpc.onEvent((name, payload) => {
      if (name === 'scan.outcome') outcomes++;
      if (name !== 'scan.pending') return;
      const c = payload as PendingScansChange;
      frames.push(c);
      // Changes close together come as one, from the version the page holds (none skipped).
      expect(c.since ?? c.version - 1).toBe(version);
      version = c.version;
      for (const id of c.remove) view.delete(id);
      for (const p of c.put) view.set(p.scanId, p);
    });
    /** Polls the station's own list call until `check` holds. */
    const untilList = async (check: (l: PendingScans) => boolean, timeoutMs: number) => {
      const end = Date.now() + timeoutMs;
      while (!check(await call<PendingScans>('scan.pending'))) {
        if (Date.now() > end) throw new Error('the line did not get there in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const shown = () => [...view.values()].sort((a, b) => a.scanId - b.scanId);
    /** What a screen shows of a scan in line (when it was received is in the list call only; no reason is no reason). */
    const onScreen = (l: PendingScan[]) =>
      l.map(({ receivedAt: _r, reason, ...p }) => ({ ...p, reason: reason ?? null }));
    const entries = () => frames.reduce((n, c) => n + c.put.length + c.remove.length, 0);

    await sb.close();
    sb = null;
    const codes = Array.from({ length: SCANS }, (_, i) => `ŽLUŤOUČKÝ-KŮŇ-${i + 1}`);
    for (const code of codes) expect(await station.rpc.dispatch('scan.submit', { code })).toMatchObject({ ok: true });
    // Every scan hears it waits (the first for the service, the rest behind it).
    await waitFor(() => outcomes >= SCANS, 30_000);
    await untilList((l) => l.version === version, 5000);

    const whole = await call<PendingScans>('scan.pending');
    expect(whole.scans.map((p) => p.code)).toEqual(codes);
    expect(onScreen(shown())).toEqual(onScreen(whole.scans));
    expect(whole.scans[0]?.reason?.code).toBeTruthy(); // the head says why it waits
    // Each scan came into the line once; the head changed twice (working, then waiting and why).
    expect(entries()).toBeLessThanOrEqual(SCANS + 5);

    // The service is back: every scan runs (none of these codes exists) and leaves the line.
    sb = await startSandbox({ port, dataFile });
    station.workflows.scanToClose.wake();
    await untilList((l) => l.scans.length === 0, 60_000);
    await waitFor(() => view.size === 0, 5000);
    expect(shown()).toEqual([]);
    // In, working, out: at most three entries per scan over its whole life, however long the line.
    expect(entries()).toBeLessThanOrEqual(3 * SCANS + 5);
  }, 120_000);

  it('sends the batch as what changed: each collected code once, not the whole batch after every collect', async () => {
    const st = station!;
    const call = async <T>(method: string, params: object = {}): Promise<T> => {
      const r = await st.rpc.dispatch(method, params);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    const start = await call<BatchItems>('batch.items');
    const view = new Map(start.items.map((i) => [i.code, i]));
    let version = start.version;
    let entries = 0;
    st.rpc.onEvent((name, payload) => {
      if (name !== 'batch.items') return;
      const c = payload as BatchItemsChange;
      expect(c.version).toBe(version + 1);
      version = c.version;
      entries += c.put.length + c.remove.length;
      for (const code of c.remove) view.delete(code);
      for (const i of c.put) view.set(i.code, i);
    });
    const shown = (): BatchItem[] => [...view.values()];

    const codes = Array.from({ length: 40 }, (_, i) => `NEZNÁMÁ-ZÁSILKA-${i + 1}`);
    for (const code of codes) await call('batch.collect', { code });
    await call('batch.collect', { code: codes[0] }); // scanned again: it moves to the end of the list
    const whole = await call<BatchItems>('batch.items');
    expect(whole.items.map((i) => i.code)).toEqual([...codes.slice(1), codes[0]]);
    expect(whole.items.every((i) => i.status === 'not_found')).toBe(true);
    expect(shown()).toEqual(whole.items);
    // One entry per collect (two for the one collected again), not the batch so far each time (~800).
    expect(entries).toBeLessThanOrEqual(codes.length + 2);

    await call('batch.remove', { code: codes[5] });
    await call('batch.clear');
    expect(shown()).toEqual([]);
    expect((await call<BatchItems>('batch.items')).items).toEqual([]);
    expect(entries).toBeLessThanOrEqual(2 * codes.length + 3);
  }, 60_000);
});
