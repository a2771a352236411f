/**
 * The printing RPC as the UI uses it: the embedded virtual printers, test prints, what a virtual
 * printer received, previews, routing validation, discovery, the TCP connection test, and
 * (Scans that wait for the service live in the journal: test/integration/workflows/scanToClose.test.ts.)
 */
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/base/clock';
import { createPrintingService, type PrintingService } from '../../../electron/printing/printingService';
import { createUsbDeviceDriver } from '../../../electron/printing/usbDeviceDriver';
import { startVirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createRpcServer, type Handlers, type RpcServer } from '../../../electron/rpc/rpcServer';
import { printerSettings } from '../../../shared/contract/printing';
import { renderZplLabel } from '../../../sandbox/documents/index';
import { renderZplPngs } from '../../../electron/printing/zplRender';
import { needs } from '../../support/services';
import { czechLabel } from './czechLabel';
import { decodeBarcodes, freshDb, packageLabelZpl, printHooks, tempDir, waitFor } from './printingTestKit';

const log = { info() {}, warn() {}, error() {} };
let printing: PrintingService;
let rpc: RpcServer;
const events: { name: string; payload: unknown }[] = [];
const dbg = process.env.DBG
  ? (n: string, p: unknown) => console.log('EV', n, JSON.stringify(p).slice(0, 160))
  : () => undefined;

beforeAll(async () => {
  const dir = tempDir('printing-rpc-');
  const { db } = freshDb(dir);
  printing = await createPrintingService({
    db,
    clock: systemClock,
    dataDir: dir,
    emit: (name: string, payload: unknown) => {
      dbg(name, payload);
      events.push({ name, payload });
    },
  });
  await printing.start();
  // Only the printing domain's handlers: the real validation and envelopes of the RPC server,
  // without starting the other domains (other methods answer as not handled).
  rpc = createRpcServer(printing.handlers as Handlers, log);
  rpc.onEvent((name, payload) => events.push({ name, payload }));
});
afterAll(async () => {
  await printing.close();
});

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const r = await rpc.dispatch(method, params);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as T;
}

describe('printing RPC', () => {
  it('lists the embedded virtual printers, ready', async () => {
    const list = await call<{ id: string; status: { state: string } }[]>('printing.printers.list');
    expect(list.map((p) => [p.id, p.status.state])).toEqual([
      ['virtual-zpl', 'ready'],
      ['virtual-pdf', 'ready'],
    ]);
  });

  it.skipIf(!needs('zbarimg'))(
    'a test print on the virtual label printer comes out, is listed, and its preview scans',
    async () => {
      const job = await call<{ id: number }>('printing.printers.testPrint', { printerId: 'virtual-zpl' });
      await printing.queue.settle();
      expect((await call<{ state: string }[]>('printing.queue.list', { limit: 5 }))[0]).toMatchObject({
        id: job.id,
        state: 'done',
      });
      const received = await call<{ text: string }[]>('printing.printers.received', { printerId: 'virtual-zpl' });
      expect(received.at(-1)!.text).toContain('TEST-PRINT');
      const pages = await call<{ png: string; width: number; height: number }[]>('printing.preview', { jobId: job.id });
      expect(pages).toHaveLength(1);
      expect([pages[0]!.width, pages[0]!.height]).toEqual([1200, 600]);
      expect(await decodeBarcodes(Buffer.from(pages[0]!.png, 'base64'))).toEqual(['TEST-PRINT']);
      expect(events.some((e) => e.name === 'printing.jobs')).toBe(true);
    },
  );

  it.skipIf(!needs('zbarimg'))(
    "previews show what prints: Czech text decoded as UTF-8, the bytes sent to a 203-dpi printer, at 8 dots/mm, on the label's real size",
    async () => {
      const service = Buffer.from(
        renderZplLabel(czechLabel({ code: 'PPR', name: 'ParcelPro – Česko' }, 'PPR0000777CZ'), '10x5'),
        'utf8',
      );
      await call('printing.printers.save', {
        id: 'desk-203',
        name: 'Desk 203',
        connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: printing.virtual.zpl.port },
        settings: printerSettings.parse({ dpi: 203, hostStatus: true }),
      });
      const before = printing.virtual.zpl.printed().length;
      // No size name (the route asked for the carrier's default): the label's own ^PW/^LL say 10x5.
      const job = printing.queue.enqueue({
        kind: 'print',
        printerId: 'desk-203',
        format: 'zpl',
        payload: service,
        labelSize: null,
        title: 'Czech 10x5',
      });
      await waitFor(() => printing.queue.get(job.id).state === 'done');
      const sent = printing.virtual.zpl.printed()[before]!;
      expect(sent.zpl).toContain('Karel Černý');
      const received = await call<{ text: string; bytes: number }[]>('printing.printers.received', {
        printerId: 'virtual-zpl',
      });
      expect(received.at(-1)!.text).toContain('Dlouhá 12');
      expect(received.at(-1)!.bytes).toBe(sent.bytes.length);

      const pages = await call<{ png: string; width: number; height: number }[]>('printing.preview', { jobId: job.id });
      expect(pages.map((p) => [p.width, p.height])).toEqual([[800, 400]]);
      // The same bytes with every non-ASCII byte written as a ^FH escape render the printer's
      // reading of them; a latin1 reading of the raw bytes draws other glyphs.
      const escaped = sent.bytes
        .toString('latin1')
        .replace(
          /\^FD([^^]*)/g,
          (_m, d: string) =>
            '^FD' +
            [...Buffer.from(d, 'latin1')]
              .map((b) => (b >= 0x80 ? `_${b.toString(16).toUpperCase()}` : String.fromCharCode(b)))
              .join(''),
        );
      const [expected] = await renderZplPngs(escaped, 100, 50, 8);
      expect(pages[0]!.png).toBe(expected);
      expect(await decodeBarcodes(Buffer.from(pages[0]!.png, 'base64'))).toEqual(['PPR0000777CZ']);
    },
  );

  it('a test print on the virtual PDF printer writes a file and previews as a page', async () => {
    const job = await call<{ id: number }>('printing.printers.testPrint', { printerId: 'virtual-pdf' });
    await printing.queue.settle();
    const files = await call<{ name: string; bytes: number }[]>('printing.printers.received', {
      printerId: 'virtual-pdf',
    });
    expect(files).toHaveLength(1);
    expect(files[0]!.bytes).toBeGreaterThan(500);
    const pages = await call<{ width: number }[]>('printing.preview', { jobId: job.id });
    expect(pages).toHaveLength(1);
  });

  it('refuses bad input with a clear error: unknown printer in a route, out-of-range settings', async () => {
    await expect(
      call('printing.routes.set', {
        carriers: {},
        defaultRoute: { format: 'zpl', printerId: 'nope' },
        protocolPrinterId: null,
      }),
    ).rejects.toMatchObject({ code: 'printer_not_found' });
    await expect(
      call('printing.printers.save', {
        id: 'z',
        name: 'Z',
        connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: 9100 },
        settings: { darkness: 99 },
      }),
    ).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(call('printing.queue.retryNow', { jobId: 999999 })).rejects.toMatchObject({ code: 'job_not_found' });
    await expect(call('printing.printers.remove', { printerId: 'virtual-zpl' })).rejects.toMatchObject({
      code: 'printer_builtin',
    });
  });

  it('saves routing rules that name real printers', async () => {
    const rules = {
      carriers: { POST: { format: 'pdf-a4', printerId: 'virtual-pdf', position: 2 } },
      defaultRoute: { format: 'zpl', printerId: 'virtual-zpl' },
      protocolPrinterId: 'virtual-pdf',
    };
    await call('printing.routes.set', rules);
    expect(await call('printing.routes.get')).toEqual(rules);
  });

  it('keeps a printer that routing still prints on, and removes it once the route is changed', async () => {
    const zebra = {
      id: 'desk-zebra',
      name: 'Desk Zebra',
      connection: { kind: 'zpl-tcp', host: '127.0.0.1', port: 9100 },
      settings: {},
    };
    await call('printing.printers.save', zebra);
    await call('printing.routes.set', {
      carriers: { PPR: { format: 'zpl', printerId: 'desk-zebra' } },
      defaultRoute: { format: 'zpl', printerId: 'virtual-zpl' },
      protocolPrinterId: null,
    });
    await expect(call('printing.printers.remove', { printerId: 'desk-zebra' })).rejects.toMatchObject({
      code: 'printer_routed',
    });
    expect((await call<{ id: string }[]>('printing.printers.list')).map((p) => p.id)).toContain('desk-zebra');
    await call('printing.routes.set', {
      carriers: {},
      defaultRoute: { format: 'zpl', printerId: 'virtual-zpl' },
      protocolPrinterId: null,
    });
    expect(await call('printing.printers.remove', { printerId: 'desk-zebra' })).toEqual({ removed: true });
  });

  it('tests a TCP printer typed in by hand: the virtual one answers ~HS, a closed port does not', async () => {
    const ok = await call<{ ok: boolean; hostStatus: boolean }>('printing.printers.testConnection', {
      host: '127.0.0.1',
      port: printing.virtual.zpl.port,
    });
    expect(ok).toMatchObject({ ok: true, hostStatus: true, reasonCode: null });
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    // A reason code the UI translates (its message is English).
    expect(await call('printing.printers.testConnection', { host: '127.0.0.1', port })).toMatchObject({
      ok: false,
      hostStatus: false,
      reasonCode: 'offline',
    });
  });

  it('the connection test says what it found: the model and resolution the printer reports (~HI), and its status', async () => {
    const desk = await startVirtualZplPrinter({ dpi: 203 });
    try {
      const found = await call<{ ok: boolean; message: string; model: string | null; dpi: number | null }>(
        'printing.printers.testConnection',
        { host: '127.0.0.1', port: desk.port },
      );
      expect(found).toMatchObject({ ok: true, hostStatus: true, model: 'ZD421-203dpi', dpi: 203 });
      expect(found.message).toMatch(/ZD421-203dpi at 203 dpi.*reports ready/);
      desk.set({ paperOut: true });
      expect(
        (await call<{ message: string }>('printing.printers.testConnection', { host: '127.0.0.1', port: desk.port }))
          .message,
      ).toMatch(/out of labels/);
    } finally {
      await desk.close();
    }
  });

  it('a printer that is switched off can still be added: it is listed as unreachable, with the resolution chosen for it', async () => {
    const off = net.createServer();
    await new Promise<void>((r) => off.listen(0, '127.0.0.1', () => r()));
    const port = (off.address() as net.AddressInfo).port;
    await new Promise<void>((r) => off.close(() => r()));
    const saved = await call<{ id: string; settings: { dpi: number } }>('printing.printers.save', {
      id: 'desk-switched-off',
      name: 'Desk (off)',
      connection: { kind: 'zpl-tcp', host: '127.0.0.1', port },
      settings: printerSettings.parse({ dpi: 203 }),
    });
    expect(saved.settings.dpi).toBe(203);
    await waitFor(() => printing.printers().find((p) => p.id === 'desk-switched-off')?.status.state === 'offline');
    await call('printing.printers.remove', { printerId: 'desk-switched-off' });
  });

  it.skipIf(!needs('cups'))('discovers the CUPS queues', async () => {
    const found = await call<{ connection: { kind: string; queue?: string } }[]>('printing.printers.discover');
    expect(found).toContainEqual(expect.objectContaining({ connection: { kind: 'pdf-system', queue: 'PDF' } }));
  });
});

describe('moving a waiting job to another printer', () => {
  it('a label waiting for a printer that is off prints once on the printer it is moved to; other moves are refused', async () => {
    const off = net.createServer();
    await new Promise<void>((r) => off.listen(0, '127.0.0.1', () => r()));
    const port = (off.address() as net.AddressInfo).port;
    await new Promise<void>((r) => off.close(() => r()));
    await call('printing.printers.save', {
      id: 'desk-off',
      name: 'Desk Zebra (off)',
      connection: { kind: 'zpl-tcp', host: '127.0.0.1', port },
      settings: printerSettings.parse({}),
    });
    const before = printing.virtual.zpl.printed().length;
    const job = printing.queue.enqueue({
      kind: 'print',
      printerId: 'desk-off',
      format: 'zpl',
      payload: Buffer.from(packageLabelZpl('MOVE-0001')),
      labelSize: '10x15',
      title: 'Žluťoučký kůň',
    });
    await waitFor(() => printing.queue.get(job.id).state === 'failed');

    await expect(call('printing.queue.move', { jobId: job.id, printerId: 'virtual-pdf' })).rejects.toMatchObject({
      code: 'printer_format_mismatch',
    });
    await expect(call('printing.queue.move', { jobId: job.id, printerId: 'nobody' })).rejects.toMatchObject({
      code: 'printer_not_found',
    });
    const moved = await call<{ printerId: string }>('printing.queue.move', { jobId: job.id, printerId: 'virtual-zpl' });
    expect(moved.printerId).toBe('virtual-zpl');
    await waitFor(() => printing.queue.get(job.id).state === 'done');
    const out = printing.virtual.zpl.printed().slice(before);
    expect(out).toHaveLength(1);
    expect(out[0]!.zpl).toContain('MOVE-0001');
    // Printed: nothing is left to move.
    await expect(call('printing.queue.move', { jobId: job.id, printerId: 'desk-off' })).rejects.toMatchObject({
      code: 'job_not_movable',
    });
  });
});

describe('USB raw printing', () => {
  it('writes the ZPL bytes to the device and reports a missing device as offline, nothing sent', async () => {
    const dev = path.join(tempDir('usb-'), 'lp0');
    writeFileSync(dev, '');
    const driver = createUsbDeviceDriver({ device: dev, settings: printerSettings.parse({}) });
    const zpl = packageLabelZpl('USB001');
    await driver.print(
      { format: 'zpl', bytes: Buffer.from(zpl), title: 't', copies: 1, labelSize: '10x15' },
      printHooks(),
    );
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(dev, 'latin1')).toBe(zpl);
    const gone = createUsbDeviceDriver({ device: dev + '-missing', settings: printerSettings.parse({}) });
    await expect(
      gone.print({ format: 'zpl', bytes: Buffer.from(zpl), title: 't', copies: 1, labelSize: null }, printHooks()),
    ).rejects.toMatchObject({ code: 'offline', outcome: 'not_sent' });
  });
});
