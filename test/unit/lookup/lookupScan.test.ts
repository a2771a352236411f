import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createShipmentsRepo, type ShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { lookupScan, type LookupDeps } from '../../../electron/lookup/lookupScan';
import { normaliseScan } from '../../../shared/scan/normaliseScan';
import { closedRecord, shipmentRecord } from '../../support/shipmentRecords';

const now = new Date('2026-11-22T09:00:00Z');
let dir: string;
let db: Db;
let repo: ShipmentsRepo;
let deps: LookupDeps;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-lookup-'));
  db = openDatabase(path.join(dir, 'station.db'));
  repo = createShipmentsRepo(db);
  // Offline (no service): only the cache answers. Service fallback: test/integration/sync.
  deps = { accountId: 'acc', shipments: repo, source: null, now: () => now };
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scanner code normalisation', () => {
  it('strips the Enter/Tab a wedge sends, framing control characters and surrounding spaces', () => {
    expect(normaliseScan('  ORD-1\r\n')).toEqual({ ok: true, code: 'ORD-1', raw: '  ORD-1\r\n' });
    expect(normaliseScan('\u0002DR123CZ\u0003\t')).toMatchObject({ code: 'DR123CZ' });
    expect(normaliseScan('ORD 1')).toMatchObject({ code: 'ORD 1' });
  });

  it("strips an AIM symbology identifier and the desk scanner's configured prefix and suffix", () => {
    expect(normaliseScan(']C1PKG42-1')).toMatchObject({ code: 'PKG42-1' });
    expect(normaliseScan(']E05901234123457')).toMatchObject({ code: '5901234123457' });
    expect(normaliseScan('#ORD-7$', { prefix: '#', suffix: '$' })).toMatchObject({ code: 'ORD-7' });
    expect(normaliseScan('ORD-7', { prefix: '#' })).toMatchObject({ code: 'ORD-7' });
  });

  it('refuses an empty or runaway scan with a message a worker can act on', () => {
    expect(normaliseScan(' \r\n')).toMatchObject({ ok: false, message: expect.stringMatching(/empty/) });
    expect(normaliseScan('x'.repeat(500))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/500 characters/),
    });
  });
});

describe('scanner lookup from the cache', () => {
  beforeEach(() => {
    repo.upsertMany(
      'acc',
      [
        closedRecord(100, { externalId: 'ORD-100' }),
        shipmentRecord(200, { externalId: 'ORD-200' }),
        shipmentRecord(300, { externalId: '777' }),
        shipmentRecord(777, { externalId: 'ORD-777' }),
        shipmentRecord(400, { externalId: 'DUP' }),
        shipmentRecord(401, { externalId: 'DUP' }),
        shipmentRecord(500, { externalId: 'REDO', state: 10, stateName: 'Zrušená' }),
        shipmentRecord(501, { externalId: 'REDO' }),
      ],
      now,
    );
    repo.upsertMany('other', [shipmentRecord(900, { externalId: 'ELSEWHERE' })], now);
  });

  it('finds a shipment by each key and says which one matched', async () => {
    expect(await lookupScan(deps, 'ORD-200\r')).toMatchObject({
      kind: 'found',
      matchedBy: 'externalId',
      source: 'cache',
      shipment: { deliveryId: 200 },
    });
    expect(await lookupScan(deps, 'DR000000100CZ')).toMatchObject({
      kind: 'found',
      matchedBy: 'deliveryNumber',
      shipment: { deliveryId: 100 },
    });
    expect(await lookupScan(deps, ']C1PKG100-1')).toMatchObject({
      kind: 'found',
      matchedBy: 'packageBarcode',
      shipment: { deliveryId: 100 },
    });
    expect(await lookupScan(deps, '200')).toMatchObject({
      kind: 'found',
      matchedBy: 'deliveryId',
      shipment: { deliveryId: 200 },
    });
  });

  it('asks instead of guessing when a code matches two live shipments, also across keys', async () => {
    const dup = await lookupScan(deps, 'DUP');
    expect(dup.kind).toBe('ambiguous');
    if (dup.kind === 'ambiguous') expect(dup.candidates.map((c) => c.shipment.deliveryId).sort()).toEqual([400, 401]);
    // "777" is the externalId of 300 and the deliveryId of 777.
    const cross = await lookupScan(deps, '777');
    expect(cross.kind).toBe('ambiguous');
    if (cross.kind === 'ambiguous')
      expect(cross.candidates.map((c) => [c.shipment.deliveryId, c.matchedBy])).toEqual([
        [300, 'externalId'],
        [777, 'deliveryId'],
      ]);
  });

  it('finds a code typed with Caps Lock on (inverted case), but an exact match always wins', async () => {
    expect(await lookupScan(deps, 'pkg100-1')).toMatchObject({
      kind: 'found',
      matchedBy: 'packageBarcode',
      shipment: { deliveryId: 100 },
      code: 'pkg100-1',
    });
    expect(await lookupScan(deps, 'dr000000100cz')).toMatchObject({ kind: 'found', matchedBy: 'deliveryNumber' });
    repo.upsertMany('acc', [shipmentRecord(600, { externalId: 'ord-200' })], now);
    expect(await lookupScan(deps, 'ord-200')).toMatchObject({ kind: 'found', shipment: { deliveryId: 600 } });
  });

  it('prefers the one live shipment over cancelled ones with the same externalId', async () => {
    expect(await lookupScan(deps, 'REDO')).toMatchObject({ kind: 'found', shipment: { deliveryId: 501, state: 0 } });
  });

  it("never finds another company's shipment, and says when the service was not asked", async () => {
    expect(await lookupScan(deps, 'ELSEWHERE')).toEqual({
      kind: 'not_found',
      code: 'ELSEWHERE',
      serviceChecked: false,
      serviceError: null,
    });
  });

  it('answers an empty scan as invalid, not as not_found', async () => {
    expect(await lookupScan(deps, '\r\n')).toMatchObject({ kind: 'invalid' });
  });
});
