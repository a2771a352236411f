/**
 * Scanner lookup over a 100,000-shipment cache (a temp SQLite file, WAL): codes drawn at random
 * across the four keys (package barcode, carrier number, externalId, deliveryId) plus codes that
 * match nothing, resolved from the cache only (no service). Reports p50/p99 in microseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { lookupScan } from '../electron/lookup/lookupScan';
import { openDatabase } from '../electron/store/database';
import { createShipmentsRepo, type ShipmentRecord } from '../electron/store/shipmentsRepo';
import { closedRecord, shipmentRecord } from '../test/support/shipmentRecords';
import { percentile } from './stats';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 20_000);

export async function run(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-lookup-'));
  const db = openDatabase(path.join(dir, 'station.db'));
  try {
    const repo = createShipmentsRepo(db);
    const fillStart = performance.now();
    const now = new Date();
    for (let start = 1; start <= SHIPMENTS; start += 5000) {
      const batch: ShipmentRecord[] = [];
      for (let id = start; id < start + 5000 && id <= SHIPMENTS; id++) {
        batch.push(
          id % 2 === 0
            ? closedRecord(id, { externalId: `ORD-${id}` })
            : shipmentRecord(id, { externalId: `ORD-${id}` }),
        );
      }
      repo.upsertMany('bench', batch, now);
      // Another company's shipments in the same file: the account column must keep lookups narrow.
      repo.upsertMany('other', batch.slice(0, 500), now);
    }
    const fillMs = performance.now() - fillStart;

    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const codes: string[] = [];
    for (let i = 0; i < LOOKUPS; i++) {
      const id = 1 + rand(SHIPMENTS);
      const evenId = id - (id % 2) || 2;
      switch (i % 5) {
        case 0:
          codes.push(`ORD-${id}\r`);
          break;
        case 1:
          codes.push(`PKG${evenId}-1`);
          break;
        case 2:
          codes.push(`DR${String(evenId).padStart(9, '0')}CZ`);
          break;
        case 3:
          codes.push(`]C1${id}`);
          break;
        default:
          codes.push(`MISSING-${id}`);
      }
    }
    const deps = { accountId: 'bench', shipments: repo, source: null, now: () => now };
    for (const c of codes.slice(0, 500)) await lookupScan(deps, c); // warm-up
    const samples: number[] = [];
    let found = 0;
    for (const c of codes) {
      const t0 = performance.now();
      const r = await lookupScan(deps, c);
      samples.push((performance.now() - t0) * 1000);
      if (r.kind === 'found') found++;
    }
    samples.sort((a, b) => a - b);

    // The shipments list over the same cache (what the virtualised list asks for), median of 20.
    const listMs = (q: Parameters<typeof repo.query>[1]) => {
      const t: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        repo.query('bench', q);
        t.push(performance.now() - t0);
      }
      return percentile(
        t.sort((a, b) => a - b),
        50,
      );
    };
    const list = {
      listFirstPageMs: listMs({ limit: 100 }),
      listDeepPageMs: listMs({ offset: 90_000, limit: 100 }),
      listStateFilterMs: listMs({ states: [0], limit: 100 }),
      listTextSearchMs: listMs({ text: 'ord-4242', limit: 100 }),
    };
    return {
      ...list,
      cachedShipments: SHIPMENTS,
      lookups: LOOKUPS,
      found,
      fillCacheMs: Math.round(fillMs),
      p50Us: percentile(samples, 50),
      p99Us: percentile(samples, 99),
      maxUs: samples[samples.length - 1]!,
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
