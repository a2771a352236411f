/**
 * The crash tests' verdict (test/support/crashRig.ts `judge`), on hand-made outcomes: a verdict that
 * cannot see a loss would let crashChain and powerCut pass on a station that loses work.
 */
import { describe, expect, it } from 'vitest';
import { judge, type JobRow, type ServiceShipment, type VerdictInput } from '../../support/crashRig';

const prepared = 0;
const closed = 1;
const shipment = (n: number, state: number, packages = 1): ServiceShipment => ({
  deliveryId: n,
  externalId: `CR-${n}`,
  deliveryState: state,
  packages: Array.from({ length: packages }, (_, k) => ({ barcode: `PKG${n}-${k + 1}` })),
});
const job = (id: number, state: string, barcodes: string[], reprintOf: number | null = null): JobRow => ({
  id,
  state,
  barcodes,
  reprintOf,
});
const input = (o: Partial<VerdictInput>): VerdictInput => ({
  shipments: [],
  printedBarcodes: [],
  scanRows: new Map(),
  jobs: [],
  flaggedJobIds: new Set(),
  acked: new Map(),
  collected: new Set(),
  ...o,
});

describe('the crash verdict, per scan', () => {
  it('counts an acknowledged scan that ended as an error, its shipment still prepared at the service, as lost', () => {
    const v = judge(
      input({
        shipments: [shipment(1, prepared)],
        scanRows: new Map([[7, { code: 'CR-1', outcome: 'error' }]]),
        acked: new Map([[7, 'CR-1']]),
      }),
    );
    expect(v.lostScanIds).toEqual([[7, 'CR-1 ended error, not closed at the service']]);
    expect(v.lostScans).toBe(1);
  });

  it('counts a code the batch list showed and the service never closed as lost', () => {
    const v = judge(
      input({
        shipments: [shipment(2, prepared)],
        scanRows: new Map([[8, { code: 'CR-2', outcome: 'refused' }]]),
        collected: new Set(['CR-2']),
      }),
    );
    expect(v.lostBatchCodes).toEqual(['CR-2']);
  });

  it('passes an acknowledged scan closed at the service and printed', () => {
    const v = judge(
      input({
        shipments: [shipment(3, closed)],
        scanRows: new Map([[9, { code: 'CR-3', outcome: 'printed' }]]),
        acked: new Map([[9, 'CR-3']]),
        jobs: [job(1, 'done', ['PKG3-1'])],
        printedBarcodes: ['PKG3-1'],
      }),
    );
    expect([v.lostScans, v.lostLabels, v.duplicates]).toEqual([0, [], []]);
  });
});

describe('the crash verdict, per print job', () => {
  it('an uncertain job excuses only its own labels: a package whose own job was confirmed and never came out is lost', () => {
    // Three packages; the first two in a job the printer confirmed, the third in an uncertain one.
    const v = judge(
      input({
        shipments: [shipment(4, closed, 3)],
        jobs: [job(1, 'done', ['PKG4-1', 'PKG4-2']), job(2, 'uncertain', ['PKG4-3'])],
        printedBarcodes: ['PKG4-1'],
      }),
    );
    expect(v.lostLabels).toEqual(['CR-4(4) printed 1+0+0 of 3, missing PKG4-2']);
  });

  it('a reprint of one package does not excuse a second copy of another', () => {
    const v = judge(
      input({
        shipments: [shipment(5, closed, 2)],
        jobs: [job(1, 'done', ['PKG5-1', 'PKG5-2']), job(2, 'done', ['PKG5-1'], 1)],
        printedBarcodes: ['PKG5-1', 'PKG5-2', 'PKG5-1', 'PKG5-2'],
      }),
    );
    expect(v.duplicates).toEqual(['CR-5(5) printed 2+2, too often PKG5-2']);
  });

  it("a label of a flagged job that never came out is the worker's to decide, not lost", () => {
    const v = judge(
      input({ shipments: [shipment(6, closed)], jobs: [job(1, 'sent', ['PKG6-1'])], flaggedJobIds: new Set([1]) }),
    );
    expect(v.lostLabels).toEqual([]);
  });

  it("a label held for the worker's word (found closed, maybe another desk's close) waits on a list they see: not lost", () => {
    const held: JobRow = {
      ...job(1, 'failed', ['PKG7-1']),
      reasonCode: 'held_closed_elsewhere',
      nextRetryAt: null,
    };
    expect(judge(input({ shipments: [shipment(7, closed)], jobs: [held] })).lostLabels).toEqual([]);
  });

  it('a closed parcel with neither a label out nor a visible wait is lost, also with a failed job that retries by itself', () => {
    const waiting: JobRow = {
      ...job(1, 'failed', ['PKG8-1']),
      reasonCode: 'offline',
      nextRetryAt: '2026-01-01T00:00:00Z',
    };
    expect(judge(input({ shipments: [shipment(8, closed)], jobs: [waiting] })).lostLabels).toHaveLength(1);
    expect(judge(input({ shipments: [shipment(9, closed)] })).noJob).toEqual(['CR-9']);
  });
});
