/**
 * Proof-of-packing photos over the WebSocket bridge, as a page sends them after a scan: stored as a
 * JPEG under the data folder by date, linked to the scanned parcel, listed with desk and operator;
 * what is not a JPEG, too large, or for a scan the station never had is refused and nothing is
 * stored; the camera's settings are off by default and checked; the proof-of-packing PDF carries
 * the photo (its QR code reads) and the label as printed (its barcode reads).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { pdfBarcodes, pngBarcodes } from '../../support/pdfBarcodes';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';
import { qrJpeg } from '../../support/fakeCamera';

const refusal = async (p: Promise<unknown>) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StationCallError);
  return (err as StationCallError).code;
};

describe.skipIf(!needs('keychain', 'pdftoppm', 'zbarimg'))('camera photos', { timeout: 90_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;

  beforeAll(async () => {
    hs = await startHostedStation({ printWaitMs: 5000 });
    rpc = await connectRpc(hs.host);
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
  });

  async function scan(code: string) {
    const { scanId } = await rpc.call('scan.submit', { code });
    const outcome = await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId);
    return { scanId, outcome };
  }

  it('settings: off by default, 1280 px, about 100 KB, no second photo; a bad value is refused', async () => {
    expect(await rpc.call('camera.getSettings', {})).toEqual({
      enabled: false,
      deviceId: '',
      deviceLabel: '',
      sizePx: 1280,
      targetKb: 100,
      photoAtPrint: false,
    });
    const on = {
      enabled: true,
      deviceId: 'cam-1',
      deviceLabel: 'Desk camera',
      sizePx: 960,
      targetKb: 80,
      photoAtPrint: true,
    };
    expect(await rpc.call('camera.setSettings', on)).toEqual(on);
    expect(await rpc.call('camera.getSettings', {})).toEqual(on);
    expect(await refusal(rpc.call('camera.setSettings', { ...on, sizePx: 10 }))).toBe('invalid_params');
    expect(await refusal(rpc.call('camera.setSettings', { ...on, extra: 1 } as never))).toBe('invalid_params');
  });

  it('a scanned parcel’s photo is stored under photos/<day>/ and listed with its desk; it still shows the QR code', async () => {
    const { scanId, outcome } = await scan('ORD-1003');
    expect(outcome.kind).toBe('printed');
    const deliveryId = 'shipment' in outcome ? outcome.shipment.deliveryId : 0;
    const jpeg = await qrJpeg('PARCEL ORD-1003');
    const { photoId } = await rpc.call('camera.savePhoto', {
      scanId,
      kind: 'scan',
      jpeg: jpeg.toString('base64'),
      width: 640,
      height: 480,
    });
    const list = await rpc.call('camera.photos', { deliveryId });
    expect(list).toEqual([
      expect.objectContaining({ id: photoId, scanId, kind: 'scan', width: 640, height: 480, bytes: jpeg.length }),
    ]);
    expect(list[0]!.desk.length).toBeGreaterThan(0);
    const day = list[0]!.takenAt.slice(0, 10);
    const files = readdirSync(path.join(hs.dataDir, 'photos', day));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.jpg$/);
    expect(readFileSync(path.join(hs.dataDir, 'photos', day, files[0]!)).equals(jpeg)).toBe(true);
    const back = Buffer.from((await rpc.call('camera.photo', { id: photoId })).jpeg, 'base64');
    expect(pngBarcodes(back)).toEqual(['PARCEL ORD-1003']);
    // Another parcel has none.
    expect(await rpc.call('camera.photos', { deliveryId: deliveryId + 1 })).toEqual([]);
  });

  it('refuses a photo for an unknown scan, one that is not a JPEG, and one over the size cap; nothing is stored', async () => {
    const before = existsSync(path.join(hs.dataDir, 'photos'))
      ? readdirSync(path.join(hs.dataDir, 'photos'), { recursive: true }).length
      : 0;
    const jpeg = (await qrJpeg('X')).toString('base64');
    expect(
      await refusal(rpc.call('camera.savePhoto', { scanId: 999_999, kind: 'scan', jpeg, width: 640, height: 480 })),
    ).toBe('photo_scan_unknown');
    const { scanId } = await scan('ORD-1004');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    expect(await refusal(rpc.call('camera.savePhoto', { scanId, kind: 'scan', jpeg: png, width: 1, height: 1 }))).toBe(
      'photo_not_jpeg',
    );
    // A JPEG cut short (no end of image) is no picture either.
    const cut = (await qrJpeg('X')).subarray(0, 2000).toString('base64');
    expect(await refusal(rpc.call('camera.savePhoto', { scanId, kind: 'scan', jpeg: cut, width: 1, height: 1 }))).toBe(
      'photo_not_jpeg',
    );
    const huge = Buffer.alloc(1_600_000, 0x41).toString('base64');
    expect(await refusal(rpc.call('camera.savePhoto', { scanId, kind: 'scan', jpeg: huge, width: 1, height: 1 }))).toBe(
      'invalid_params',
    );
    const after = readdirSync(path.join(hs.dataDir, 'photos'), { recursive: true }).length;
    expect(after).toBe(before);
  });

  it('the proof-of-packing PDF shows the photo and the label as printed: both codes read', async () => {
    const { scanId, outcome } = await scan('ORD-1005');
    expect(outcome.kind).toBe('printed');
    const shipment = 'shipment' in outcome ? outcome.shipment : null;
    const deliveryId = shipment!.deliveryId;
    await rpc.call('camera.savePhoto', {
      scanId,
      kind: 'scan',
      jpeg: (await qrJpeg('PHOTO ORD-1005')).toString('base64'),
      width: 640,
      height: 480,
    });
    const { pdf, fileName } = await rpc.call('camera.proofPdf', { deliveryIds: [deliveryId], language: 'cs' });
    expect(fileName).toBe(`proof-of-packing-${deliveryId}.pdf`);
    const codes = pdfBarcodes(Buffer.from(pdf, 'base64'), 300);
    expect(codes).toContain('PHOTO ORD-1005');
    const full = await rpc.call('shipments.get', { deliveryId });
    const barcodes = full!.packages.map((p) => p.barcode).filter((b): b is string => !!b);
    expect(barcodes.length).toBeGreaterThan(0);
    expect(codes).toEqual(expect.arrayContaining(barcodes));
  });
});
