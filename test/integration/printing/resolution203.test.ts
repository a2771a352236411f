/**
 * Labels for a 203- or 600-dpi printer. The service lays its ZPL out at 300 dpi (spec: GET
 * /api/v3/deliveries/zpl, `size` in cm at 300 dpi) and in UTF-8 (^CI28). The station rewrites
 * each label's commands for the printer's dots: text stays text (the service's bytes, in the
 * printer's fonts), barcodes stay barcodes, and what the printer gets, rendered at its
 * resolution with zpl-renderer-js, fits the label and decodes with zbarimg.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderZplLabel } from '../../../sandbox/documents/index';
import { catalogue } from '../../../sandbox/domain/index';
import { decodePng } from '../../../electron/printing/png';
import { createZplTcpDriver } from '../../../electron/printing/zplTcpDriver';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { renderZplPngs } from '../../../electron/printing/zplRender';
import { printerSettings } from '../../../shared/contract/printing';
import { needs } from '../../support/services';
import { czechLabel } from './czechLabel';
import { decodeBarcodes, packageLabelZpl, printHooks } from './printingTestKit';

let printer: VirtualZplPrinter;
beforeAll(async () => {
  printer = await startVirtualZplPrinter();
});
afterAll(async () => {
  await printer.close();
});

/** Each ^FD's bytes, in order: what the printer prints as text. */
const fieldData = (zpl: Buffer) =>
  [...zpl.toString('latin1').matchAll(/\^FD([^^]*)/g)].map((m) => Buffer.from(m[1]!, 'latin1').toString('utf8'));

const SIZES_MM = { '10x5': [100, 50], '10x15': [100, 150], '10x17': [100, 170] } as const;

async function printOn(dpi: 203 | 300 | 600, zpl: Buffer, labelSize: string): Promise<Buffer> {
  printer.clear();
  const driver = createZplTcpDriver({
    host: '127.0.0.1',
    port: printer.port,
    settings: printerSettings.parse({ dpi }),
  });
  let accepted = false;
  await driver.print(
    { format: 'zpl', bytes: zpl, title: 't', copies: 1, labelSize },
    printHooks(() => (accepted = true)),
  );
  expect(accepted).toBe(true);
  return Buffer.concat(printer.printed().map((l) => l.bytes));
}

/** Every dot-placed element (^FO + ^GB / ^FB / ^BY module x width) inside ^PW x ^LL. */
function expectInside(zpl: string) {
  const pw = Number(/\^PW(\d+)/.exec(zpl)![1]);
  const ll = Number(/\^LL(\d+)/.exec(zpl)![1]);
  for (const m of zpl.matchAll(/\^FO(\d+),(\d+)(\^GB(\d+),(\d+)|\^A0N,(\d+),\d+\^FB(\d+)|)/g)) {
    const [x, y] = [Number(m[1]), Number(m[2])];
    expect(x).toBeLessThan(pw);
    expect(y).toBeLessThan(ll);
    if (m[4]) expect(x + Number(m[4])).toBeLessThanOrEqual(pw);
    if (m[4]) expect(y + Number(m[5])).toBeLessThanOrEqual(ll);
    if (m[7]) expect(x + Number(m[7])).toBeLessThanOrEqual(pw);
  }
}

describe.skipIf(!needs('zbarimg'))('labels for a 203-dpi printer', () => {
  const carriers = catalogue.carriers.filter((c) => c.zpl);
  const cases = carriers.flatMap((c) => c.zpl!.sizes.map((size) => ({ carrier: c, size })));

  it.each(cases.map((c) => [c.carrier.code, c.size, c] as const))(
    "%s %s: Czech text stays the service's text, in printer fonts; fits the label; decodes at 8 dots/mm",
    async (_code, size, { carrier }) => {
      const barcode = `${carrier.code}2030${size.replace('x', '')}CZ`;
      const service = Buffer.from(
        renderZplLabel(czechLabel({ code: carrier.code, name: `${carrier.name} – Česko` }, barcode), size),
        'utf8',
      );
      const sent = await printOn(203, service, size);
      const text = sent.toString('latin1');
      // Commands, not a bitmap: no ^GF, a few hundred bytes, the label in 203-dpi dots.
      expect(text).not.toContain('^GF');
      expect(sent.length).toBeLessThan(service.length * 1.05);
      const [wMm, hMm] = SIZES_MM[size];
      expect(text).toContain(`^PW${wMm * 8}`);
      expect(text).toContain(`^LL${hMm * 8}`);
      expectInside(text);
      // Byte for byte the service's field data (UTF-8): "Karel Černý", not "Karel ÄernÃ½".
      expect(fieldData(sent)).toEqual(fieldData(service));
      expect(fieldData(sent)).toContain('Karel Černý');
      expect(printer.printed()[0]!.zpl).toContain('Dlouhá 12');

      const [png] = await renderZplPngs(sent.toString('utf8'), wMm, hMm, 8);
      const img = decodePng(Buffer.from(png!, 'base64'));
      expect([img.width, img.height]).toEqual([wMm * 8, hMm * 8]);
      expect(await decodeBarcodes(Buffer.from(png!, 'base64'))).toEqual([barcode]);
    },
  );

  it('a 600-dpi printer gets every dot doubled, and the label still decodes at 24 dots/mm', async () => {
    const service = Buffer.from(
      renderZplLabel(czechLabel({ code: 'NP', name: 'National Post' }, 'DR6000001CZ'), '10x15'),
      'utf8',
    );
    const sent = await printOn(600, service, '10x15');
    const text = sent.toString('latin1');
    expect(text).toContain('^PW2362');
    expect(text).toContain('^LL3544');
    expect(fieldData(sent)).toEqual(fieldData(service));
    const [png] = await renderZplPngs(sent.toString('utf8'), 100, 150, 24);
    expect(await decodeBarcodes(Buffer.from(png!, 'base64'))).toEqual(['DR6000001CZ']);
  }, 120_000); // a 600-dpi render of a 10x15 label (2362x3544 dots) is slow on a busy machine

  it('a 300-dpi printer gets the service bytes unchanged, Czech included', async () => {
    const service = Buffer.from(
      renderZplLabel(czechLabel({ code: 'NP', name: 'National Post' }, 'DR3000001CZ'), '10x15'),
      'utf8',
    );
    printer.clear();
    const driver = createZplTcpDriver({
      host: '127.0.0.1',
      port: printer.port,
      settings: printerSettings.parse({ dpi: 300 }),
    });
    await driver.print({ format: 'zpl', bytes: service, title: 't', copies: 1, labelSize: '10x15' }, printHooks());
    expect(Buffer.concat(printer.connections()).equals(service)).toBe(true);
    expect(printer.printed()[0]!.zpl).toContain('Karel Černý');
  });

  it('two labels in one job: each converted, in order, and each decodes', async () => {
    const zpl = Buffer.from(
      [packageLabelZpl('DR2030001CZ', 'Jiří Dvořák'), packageLabelZpl('DR2030002CZ')].join('\n'),
      'utf8',
    );
    await printOn(203, zpl, '10x15');
    const labels = printer.printed();
    expect(labels).toHaveLength(2);
    expect(labels[0]!.zpl).toContain('Jiří Dvořák');
    const decoded: string[] = [];
    for (const l of labels) {
      const [png] = await renderZplPngs(l.zpl, 100, 150, 8);
      decoded.push(...(await decodeBarcodes(Buffer.from(png!, 'base64'))));
    }
    expect(decoded).toEqual(['DR2030001CZ', 'DR2030002CZ']);
  });

  it('a label with a command the converter does not know is sent whole as a graphic, and logged as such', async () => {
    const { onRasterFallback } = await import('../../../electron/printing/zplPrepare');
    const reported: string[][] = [];
    const restore = onRasterFallback((info) => reported.push(info.reasons));
    try {
      const zpl = Buffer.from(
        '^XA^CI28^PW1181^LL1772^FO60,60^A0N,60,60^FDČerný^FS^FO90,400^BY3,3,300^BCN,300,Y,N,N^FDDR2039999CZ^FS^ZZ1^XZ',
        'utf8',
      );
      const sent = (await printOn(203, zpl, '10x15')).toString('latin1');
      expect(sent).toMatch(/^\^XA\^PW800\^LL1200\^LH0,0\^FO0,0\^GFA,120000,120000,100,/);
      expect(reported).toEqual([[expect.stringContaining('^ZZ')]]);
      const [png] = await renderZplPngs(sent, 100, 150, 8);
      expect(await decodeBarcodes(Buffer.from(png!, 'base64'))).toEqual(['DR2039999CZ']);
    } finally {
      restore();
    }
  });
});
