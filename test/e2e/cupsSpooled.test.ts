/**
 * A label printer behind a raw CUPS queue that resets the connection without reading a byte:
 * CUPS still reports the job completed, so the station must not call the label
 * printed. Real CUPS, a real TCP listener as the printer, the real station core and Chromium.
 *
 * Why CUPS says "completed": its AppSocket backend (CUPS `backend/socket.c`, OpenPrinting,
 * https://github.com/OpenPrinting/cups/blob/master/backend/socket.c) writes the print file to the
 * printer's port, logs "Print file sent, waiting for printer to finish...", half-closes the socket
 * and waits only for back-channel data or the end of the connection (a reset ends that wait as
 * well), then closes and exits with CUPS_BACKEND_OK; the scheduler marks a job whose backend exited
 * OK as completed. The printer is never asked whether anything came out. Checked on this machine's
 * CUPS by hand before the test was written: `lp -o raw` to such a listener ends in
 * `lpstat -W completed`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printerSettings } from '../../shared/contract/printing';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

/** A "printer" that takes the connection, reads nothing, and resets it a moment later. */
function startResettingPrinter(): Promise<{
  port: number;
  connections: () => number;
  bytesRead: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  let bytesRead = 0;
  // pauseOnConnect: the connection is never read from (no read is started on it at all).
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    connections++;
    setTimeout(() => {
      bytesRead += socket.bytesRead;
      socket.resetAndDestroy();
    }, 200);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        connections: () => connections,
        bytesRead: () => bytesRead,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

describe.skipIf(!needs('cups', 'chromium', 'keychain'))(
  'a raw CUPS queue to a printer that reads nothing: handed to the print system, not printed',
  { timeout: 120_000 },
  () => {
    const queueName = `ZPL_RESET_TEST_${process.pid}`;
    let printer: Awaited<ReturnType<typeof startResettingPrinter>>;
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let page: Page;

    const outcome = () => page.getByTestId('scan-outcome');
    function outcomeEvent(code: string, after = rpc.events('scan.outcome').length): Promise<ScanOutcome> {
      return rpc.waitFor(
        'scan.outcome',
        (o) => o.code === code && rpc.events('scan.outcome').indexOf(o) >= after,
        60_000,
      );
    }
    async function scan(code: string) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    }

    beforeAll(async () => {
      printer = await startResettingPrinter();
      execFileSync('lpadmin', ['-p', queueName, '-v', `socket://127.0.0.1:${printer.port}`, '-E']);
      // The scan waits for CUPS to finish the job (a few seconds), so its outcome is the spooler's.
      hs = await startHostedStation({ printWaitMs: 60_000 });
      rpc = await connectRpc(hs.host);
      await rpc.call('printing.printers.save', {
        id: 'zebra-cups',
        name: 'Zebra via CUPS',
        connection: { kind: 'zpl-spooler', queue: queueName },
        settings: printerSettings.parse({}),
      });
      const routes = await rpc.call('printing.routes.get', {});
      await rpc.call('printing.routes.set', {
        ...routes,
        carriers: { ...routes.carriers, NP: { format: 'zpl', printerId: 'zebra-cups' } },
      });
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
      page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
    });
    afterAll(async () => {
      await browser?.close();
      rpc?.close();
      await hs?.close();
      try {
        execFileSync('lpadmin', ['-x', queueName]);
      } catch {
        /* already gone */
      }
      await printer?.close();
    });

    it('the scan says "handed to the print system" (not the printed green), the day counts it apart from printed, the queue says so too', async () => {
      const event = outcomeEvent('ORD-1001');
      await scan('ORD-1001');
      const o = await event;
      expect(o.kind).toBe('spooled');
      await page.waitForSelector(`[data-testid="scan-outcome"][data-kind="spooled"][data-scan-id="${o.scanId}"]`, {
        timeout: 20_000,
      });
      expect(await outcome().getAttribute('class')).toContain('tone-handed');
      expect(await outcome().getAttribute('class')).not.toContain('tone-ok');
      expect(await outcome().textContent()).toContain('Closed — handed to print system');
      expect(await outcome().textContent()).toContain('it does not say whether it printed');
      await expect.poll(() => page.getByTestId('counter-spooled').textContent()).toBe('1');
      expect(await page.getByTestId('counter-printed').textContent()).toBe('0');
      await page.screenshot({ path: path.join(shots, 'station-spooled-en.png') });
      // The printer took the connection and read nothing: CUPS still finished the job.
      expect(printer.connections()).toBeGreaterThan(0);
      expect(printer.bytesRead()).toBe(0);

      await outcome().click();
      await page.getByTestId('nav-queue').click();
      await page.getByTestId('queue-show-all').check();
      const row = page.locator('[data-testid="queue-row"][data-state="spooled"]').first();
      await row.waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('queue-state').textContent()).toBe('Handed to the print system');
      expect(await row.getByTestId('queue-reason').textContent()).toContain('does not say whether the label printed');
      await page.getByTestId('nav-station').click();
    });

    it('in Czech too', async () => {
      await page.getByTestId('language').selectOption('cs');
      await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain('Stanice');
      const event = outcomeEvent('ORD-1003');
      await scan('ORD-1003');
      const o = await event;
      expect(o.kind).toBe('spooled');
      await page.waitForSelector(`[data-testid="scan-outcome"][data-kind="spooled"][data-scan-id="${o.scanId}"]`, {
        timeout: 20_000,
      });
      expect(await outcome().textContent()).toContain('Uzavřeno — předáno systému tisku');
      expect(await outcome().textContent()).toContain('neříká, zda se vytiskl.');
      await expect.poll(() => page.getByTestId('counter-spooled').textContent()).toBe('2');
      expect(await page.getByTestId('counter-printed').textContent()).toBe('0');
      expect(await page.locator('.counter-spooled .counter-label').textContent()).toBe('Předáno');
      await page.screenshot({ path: path.join(shots, 'station-spooled-cs.png') });
      await outcome().click();
      await page.getByTestId('nav-queue').click();
      await page.getByTestId('queue-show-all').check();
      const row = page.locator('[data-testid="queue-row"][data-state="spooled"]').first();
      await row.waitFor({ timeout: 20_000 });
      expect(await row.getByTestId('queue-state').textContent()).toBe('Předáno tiskovému systému');
    });
  },
);
