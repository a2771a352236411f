/**
 * The built-in virtual ZPL printer (the demo desk's printer and the tests' stand-in) switched from a
 * printing speed back to instant printing while a label is under way, with the paper out meanwhile:
 * the label comes out once when the paper is back, and the timer of the label under way neither
 * counts it again nor counts a label the buffer no longer holds (that threw in the timer, outside
 * any request: an uncaught exception in the station's core).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { waitFor } from './printingTestKit';

let printer: VirtualZplPrinter | null = null;
afterEach(async () => {
  await printer?.close();
  printer = null;
});

async function send(port: number, zpl: string): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await new Promise<void>((resolve) => socket.end(zpl, resolve));
}

describe('the virtual ZPL printer switched to instant printing mid-label', () => {
  it('prints the label once when the paper is back, and its pending timer counts nothing more', async () => {
    printer = await startVirtualZplPrinter();
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      // 300 dots at 300 dpi and 1 in/s: the label takes one second.
      printer.setSpeed(1, 300);
      await send(printer.port, '^XA^LL300^FO20,20^FDŽluťoučký kůň^FS^XZ');
      await waitFor(() => printer!.buffered() === 1);
      printer.set({ paperOut: true });
      printer.setSpeed(null);
      printer.set({ paperOut: false });
      await waitFor(() => printer!.printed().length === 1);
      // Past the end of the label's one second: its timer, had it been left, has fired by now.
      await new Promise((r) => setTimeout(r, 1500));
      expect(printer.printed()).toHaveLength(1);
      expect(printer.labelCount()).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
