/**
 * The desk's virtual ZPL printer under a flood (junk, thousands of tiny labels, status questions
 * whose answers nobody reads, a paused printer sent far more than its buffer): what it keeps after
 * the flood is a few MB, measured as the heap and array buffers still reachable after a full
 * garbage collection, with the station's own bounds (DESK_PRINTER_KEEP). Before the bounds it kept
 * every raw byte and every label it printed (~77 MB grown in the station for one flood). It still
 * prints afterwards, and a paused printer stops reading (the sender waits) instead of buffering all.
 */
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { DESK_PRINTER_KEEP, startVirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { floods, MB, pourInto } from '../../support/portFlood';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** Bytes still reachable: the heap and the buffers outside it, after a full collection. */
function kept(): number {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function deskPrinter() {
  const p = await startVirtualZplPrinter({ keep: DESK_PRINTER_KEEP });
  cleanup.push(() => p.close());
  return p;
}

function printOne(port: number, barcode: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () =>
      s.end(Buffer.from(`^XA^CI28^FO50,50^A0N,40,40^FD${barcode}^FS^XZ`, 'utf8')),
    );
    s.on('close', () => resolve());
    s.on('error', reject);
  });
}

describe("the desk's virtual printer under a flood", () => {
  it(
    'keeps a few MB after junk, tiny labels and unread status answers, and still prints',
    { timeout: 180_000 },
    async () => {
      const printer = await deskPrinter();
      const before = kept();
      await Promise.all([
        pourInto(printer.port, floods.junk, 48 * MB),
        pourInto(printer.port, floods.tinyLabels, 16 * MB),
        pourInto(printer.port, floods.statusQuestions, 16 * MB),
      ]);
      const grown = (kept() - before) / MB;
      expect(grown).toBeLessThan(8);
      // A flood connection given up on (it stopped taking bytes for 2 s) can still hold formats the
      // printer reads after it: wait until no label has come out for a second, so the one below is last.
      let seen = -1;
      await expect
        .poll(
          () => {
            const n = printer.labelCount();
            const quiet = n === seen;
            seen = n;
            return quiet;
          },
          { timeout: 120_000, interval: 1000 },
        )
        .toBe(true);
      await printOne(printer.port, 'PŘED-0001');
      // After what the flood left in its buffer (up to 8 MB of tiny labels, parsed one by one: many
      // seconds on a loaded machine); the question is whether it prints, not how soon.
      await expect
        .poll(() => printer.printed().at(-1)?.zpl ?? '', { timeout: 90_000, interval: 100 })
        .toContain('PŘED-0001');
    },
  );

  it('a paused printer stops reading once its buffer is full: the sender waits, nothing piles up', async () => {
    const printer = await deskPrinter();
    printer.set({ paused: true });
    const before = kept();
    // Labels of ~64 KB each, 64 MB in all: eight times the printer's receive buffer.
    const label = Buffer.from(`^XA^FO0,0^FD${'Ž'.repeat(32 * 1024)}^FS^XZ`, 'latin1');
    const taken = await pourInto(printer.port, label, 64 * MB);
    expect(taken).toBeLessThan(32 * MB);
    expect((kept() - before) / MB).toBeLessThan(20);
    printer.set({ paused: false });
    await expect.poll(() => printer.buffered()).toBe(0);
  });
});
