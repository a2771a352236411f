/**
 * A 203-dpi printer: the service's ZPL is laid out at 300 dpi (spec: GET /api/v3/deliveries/zpl,
 * `size` in cm at 300 dpi), so the station sends each label as a ^GF graphic scaled to 8 dots/mm.
 * What the printer receives, rendered at 8 dots/mm, must fit the label and still scan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../../electron/printing/png';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { renderZplPngs } from '../../../electron/printing/zplRender';
import { printerSettings } from '../../../shared/contract/printing';
import { needs } from '../../support/services';
import { decodeBarcodes, packageLabelZpl, printHooks } from './printingTestKit';

let printer: VirtualZplPrinter;
beforeAll(async () => {
  printer = await startVirtualZplPrinter();
});
afterAll(async () => {
  await printer.close();
});

describe.skipIf(!needs('zbarimg'))('labels for a 203-dpi printer', () => {
  it('arrive as one ^GF graphic per package, 800 x 1200 dots for 10x15, and decode at 8 dots/mm', async () => {
    const driver = createZplTcpDriver({ host: '127.0.0.1', port: printer.port, settings: printerSettings.parse({ dpi: 203 }) });
    const zpl = [packageLabelZpl('DR2030001CZ'), packageLabelZpl('DR2030002CZ')].join('\n');
    let accepted = false;
    await driver.print({ format: 'zpl', bytes: Buffer.from(zpl, 'latin1'), title: 't', copies: 1, labelSize: '10x15' }, printHooks(() => (accepted = true)));
    expect(accepted).toBe(true);
    const labels = printer.printed();
    expect(labels).toHaveLength(2);
    const decoded: string[] = [];
    for (const l of labels) {
      expect(l.zpl).toMatch(/^\^XA\^PW800\^LL1200\^LH0,0\^FO0,0\^GFA,120000,120000,100,/);
      const [png] = await renderZplPngs(l.zpl, 100, 150, 8);
      const img = decodePng(Buffer.from(png!, 'base64'));
      expect([img.width, img.height]).toEqual([800, 1200]);
      decoded.push(...(await decodeBarcodes(Buffer.from(png!, 'base64'))));
    }
    expect(decoded).toEqual(['DR2030001CZ', 'DR2030002CZ']);
  });

  it('a 300-dpi printer gets the service bytes unchanged', async () => {
    printer.clear();
    const driver = createZplTcpDriver({ host: '127.0.0.1', port: printer.port, settings: printerSettings.parse({ dpi: 300 }) });
    const zpl = packageLabelZpl('DR3000001CZ');
    await driver.print({ format: 'zpl', bytes: Buffer.from(zpl, 'latin1'), title: 't', copies: 1, labelSize: '10x15' }, printHooks());
    expect(Buffer.concat(printer.connections()).toString('latin1')).toBe(zpl);
  });
});
