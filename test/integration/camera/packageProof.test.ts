/**
 * The proof of packing of a multi-package parcel one of whose labels was reprinted (issue 41,
 * point 2): the PDF shows every package's label (each barcode reads), and per package the first
 * print stays beside the reprint's time and reason. The whole station behind its web host, on its
 * embedded sandbox and virtual printers; the demo parcel ORD-1002 has three packages.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { pdfBarcodes } from '../../support/pdfBarcodes';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain', 'pdftoppm', 'zbarimg'))(
  'proof of packing with one package reprinted',
  { timeout: 90_000 },
  () => {
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
      return { scanId, outcome: await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId) };
    }

    /** The PDF's text in one line (pdftotext reads the embedded DejaVu text, diacritics included; long facts wrap). */
    const textOf = (pdf: Buffer) =>
      execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' }).replace(/\s+/g, ' ');

    it('every package’s label reads, and package 2 shows its first print and its reprint with the reason', async () => {
      const first = await scan('ORD-1002');
      expect(first.outcome.kind).toBe('printed');
      const deliveryId = 'shipment' in first.outcome ? first.outcome.shipment.deliveryId : 0;
      const again = await scan('ORD-1002');
      expect(again.outcome.kind).toBe('already_closed');
      const reprint = await rpc.call('scan.reprint', {
        deliveryId,
        scanId: again.scanId,
        why: { code: 'other', note: 'Štítek spadl za stůl' },
        packageNumber: 2,
      });
      expect(reprint.kind).toBe('printed');

      const full = await rpc.call('shipments.get', { deliveryId });
      const barcodes = full!.packages.map((p) => p.barcode!);
      expect(barcodes).toHaveLength(3);

      const cs = Buffer.from(
        (await rpc.call('camera.proofPdf', { deliveryIds: [deliveryId], language: 'cs' })).pdf,
        'base64',
      );
      expect(pdfBarcodes(cs, 300)).toEqual(expect.arrayContaining(barcodes));
      const text = textOf(cs);
      /** A package's fact: from its name to the next fact's. */
      const line = (n: number) =>
        new RegExp(`Štítek balíku ${n}/3: (.*?) (Štítek balíku|Zvážená)`).exec(text)?.[1] ?? '';
      expect(line(1)).toMatch(/poprvé vytištěn \S/);
      expect(line(1)).not.toContain('znovu');
      expect(line(2)).toMatch(/poprvé vytištěn .+; znovu vytištěn .+ \(jiný důvod: Štítek spadl za stůl\)/);
      // The first print of package 2 is the parcel's first print, the same time as package 1's.
      const firstOf = (l: string) => /poprvé vytištěn ([^;]+)/.exec(l)?.[1]?.trim();
      expect(firstOf(line(2))).toBe(firstOf(line(1)));
      expect(line(3)).not.toContain('znovu');

      const en = Buffer.from(
        (await rpc.call('camera.proofPdf', { deliveryIds: [deliveryId], language: 'en' })).pdf,
        'base64',
      );
      expect(textOf(en)).toMatch(
        /Label of package 2\/3: +first printed .+; reprinted .+ \(other: Štítek spadl za stůl\)/,
      );
    });
  },
);
