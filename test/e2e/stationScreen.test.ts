/**
 * The station screen in Chromium through the loopback web host, against the embedded sandbox and
 * the virtual printers: what a packing-desk worker types and sees, and
 * the labels that come out of the virtual ZPL printer.
 *
 * Demo shipments (sandbox/domain/demo.ts): ORD-1001 NP Nováková, ORD-1002 NP Procházka (3
 * packages), ORD-1005 PPR from WH-BRNO, ORD-1008 RGX from WH-BRNO, ORD-1010 BOX, ORD-1013 SHP
 * Růžička, ORD-1015 NP recipient REJECT and ORD-1016 PPR postal code 00000 (the carrier rejects
 * the close: spec "PATCH /api/v3/deliveries" 422 with messages).
 *
 * The tests run in order on one station and one page, as a worker's day would.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium', 'keychain'))(
  'station screen: scan-to-close in Chromium',
  { timeout: 90_000 },
  () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let page: Page;

    const outcome = () => page.getByTestId('scan-outcome');
    /** The test id of the element that has the keyboard focus (the page's own expression: no DOM types in Node tests). */
    const focused = () => page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null');
    const printed = () => hs.station.printing.virtual.zpl.printed();
    const shot = (name: string) => page.screenshot({ path: path.join(shots, `station-${name}.png`) });

    /** Types a code the way a keyboard-wedge scanner does: fast keystrokes, then Enter. */
    async function scan(code: string) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    }
    /** The scan.outcome the core pushed for `code` after `after` outcomes were seen. */
    function outcomeEvent(code: string, after = rpc.events('scan.outcome').length): Promise<ScanOutcome> {
      return rpc.waitFor('scan.outcome', (o) => o.code === code && rpc.events('scan.outcome').indexOf(o) >= after);
    }
    async function waitKind(expected: string, scanId?: number) {
      const sel =
        scanId === undefined
          ? `[data-testid="scan-outcome"][data-kind="${expected}"]`
          : `[data-testid="scan-outcome"][data-kind="${expected}"][data-scan-id="${scanId}"]`;
      await page.waitForSelector(sel, { timeout: 20_000 });
    }

    const sandboxFaults = (body: Record<string, unknown>) =>
      fetch(`${hs.station.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    beforeAll(async () => {
      hs = await startHostedStation({ printWaitMs: 5000 });
      rpc = await connectRpc(hs.host);
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
      page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    });
    afterAll(async () => {
      await fetch(`${hs.station.sandbox.url}/_sandbox/faults`, { method: 'DELETE' }).catch(() => undefined);
      await browser?.close();
      rpc?.close();
      await hs?.close();
    });

    it('first run: opens on the station screen in demo mode with the cursor in the scan box', async () => {
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await expect.poll(() => page.getByTestId('demo-banner').textContent()).toContain('built-in sandbox');
      await expect.poll(focused).toBe('scan-input');
      await expect.poll(() => page.getByTestId('counter-scanned').textContent()).toBe('0');
      await expect.poll(() => page.getByTestId('station-printer').first().getAttribute('data-state')).toBe('ready');
      await shot('empty-en');
    });

    it('a scan closes the shipment, the label with its package barcode comes out of the printer, and the screen turns green', async () => {
      const event = outcomeEvent('ORD-1001');
      await scan('ORD-1001');
      const o = await event;
      expect(o.kind).toBe('printed');
      await waitKind('printed', o.scanId);
      expect(await outcome().getByTestId('outcome-carrier').textContent()).toBe('NP');
      expect(await outcome().getByTestId('outcome-recipient').textContent()).toContain('Nováková');
      expect(await outcome().textContent()).toContain('1 package');
      const barcode = o.kind === 'printed' ? o.shipment.barcodes[0]! : '';
      expect(barcode).not.toBe('');
      expect(printed()).toHaveLength(1);
      expect(printed()[0]!.zpl).toContain(barcode);
      await expect.poll(() => page.getByTestId('counter-printed').textContent()).toBe('1');
      expect(await page.getByTestId('counter-scanned').textContent()).toBe('1');
      // The label's preview is shown, and the success sound was played.
      await page.getByTestId('label-previews').locator('img').first().waitFor();
      expect(await page.getByTestId('screen-station').getAttribute('data-last-cue')).toBe('success');
      expect(await focused()).toBe('scan-input');
      await shot('printed-en');
    });

    it('the scan box takes the focus back after a click elsewhere on the screen', async () => {
      await outcome().click(); // hides the feedback
      await expect.poll(() => outcome().count()).toBe(0);
      await page.getByText('Recent scans').click();
      await expect.poll(focused).toBe('scan-input');
    });

    it('an already closed shipment asks: Enter reprints (a second label), Esc skips (nothing printed)', async () => {
      let event = outcomeEvent('ORD-1001');
      await scan('ORD-1001');
      const asked = await event;
      expect(asked).toMatchObject({ kind: 'already_closed', closedElsewhere: false });
      await waitKind('already_closed', asked.scanId);
      expect(await outcome().textContent()).toContain('Enter');
      expect(await outcome().textContent()).toContain('Reprint');
      await shot('already_closed-en');

      await page.keyboard.press('Enter');
      // Every reprint says why first (1: damaged label).
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('1');
      await waitKind('printed', asked.scanId);
      expect(await outcome().textContent()).toContain('Printed again');
      await expect.poll(() => printed().length).toBe(2);
      expect(printed()[1]!.zpl).toBe(printed()[0]!.zpl);

      event = outcomeEvent('ORD-1001');
      await scan('ORD-1001');
      const again = await event;
      await waitKind('already_closed', again.scanId);
      await page.keyboard.press('Escape');
      await waitKind('skipped', again.scanId);
      expect(printed()).toHaveLength(2);
    });

    it('a cancelled shipment is red and says not to send it', async () => {
      const found = await rpc.call('shipments.lookup', { code: 'ORD-1013' });
      if (found.kind !== 'found') throw new Error(`ORD-1013 not found: ${found.kind}`);
      await rpc.call('shipments.cancel', { deliveryIds: [found.shipment.deliveryId] });
      await scan('ORD-1013');
      await waitKind('cancelled');
      const text = await outcome().textContent();
      expect(text).toContain('Cancelled shipment');
      expect(text).toContain('Růžička');
      expect(text).toContain('Do not send');
      expect(await page.getByTestId('screen-station').getAttribute('data-last-cue')).toBe('error');
      await shot('cancelled-en');
    });

    it('an unknown code is "not found"', async () => {
      await scan('NOPE-424242');
      await waitKind('not_found');
      expect(await outcome().textContent()).toContain('Not found');
      expect(await outcome().textContent()).toContain('NOPE-424242');
      await shot('not_found-en');
    });

    it('plays no sound when sounds are off in the settings', async () => {
      await rpc.call('settings.set', { sounds: false });
      await scan('NOPE-1');
      await waitKind('not_found');
      await expect.poll(() => page.getByTestId('screen-station').getAttribute('data-last-cue')).toBe('off');
      await rpc.call('settings.set', { sounds: true });
    });

    it('a carrier rejection shows the service message and its messages (spec "PATCH" 422)', async () => {
      const event = outcomeEvent('ORD-1015');
      await scan('ORD-1015');
      const o = await event;
      if (o.kind !== 'carrier_rejected') throw new Error(`expected carrier_rejected, got ${o.kind}`);
      await waitKind('carrier_rejected', o.scanId);
      expect(o.message).not.toBe('');
      expect(await outcome().getByTestId('outcome-message').textContent()).toBe(o.message);
      for (const m of o.messages) expect(await outcome().getByTestId('outcome-messages').textContent()).toContain(m);
      expect(await outcome().textContent()).toContain('Rejected by the carrier');
      expect(printed()).toHaveLength(2);
      await shot('carrier_rejected-en');
    });

    it('scans typed quickly one after another all get their outcome, in scan order', async () => {
      const before = rpc.events('scan.outcome').length;
      const codes = ['ORD-1002', 'ORD-1003', 'ORD-1004'];
      // A slow close at the service (sandbox test control), so the scans are seen waiting in line.
      await sandboxFaults({ path: '/api/v3/deliveries', method: 'PATCH', latencyMs: 700, count: 3 });
      // No pause between scans: the page never waits for one outcome before sending the next.
      await page.keyboard.type(codes.map((c) => c + '\n').join(''));
      await expect
        .poll(() => page.getByTestId('pending-scans').locator('li[data-scan-id]').count())
        .toBeGreaterThanOrEqual(2);
      // The feedback covers the side panels, so it counts the scans in line too.
      expect(await page.getByTestId('outcome-in-line').textContent()).toMatch(/^[1-3] scans? in line$/);
      // ...and leaves the "Scans in progress" panel in sight, with the scans in it.
      const pendingPanel = page.locator('section.panel.pending');
      await expect
        .poll(() =>
          pendingPanel.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return el.contains(el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
          }),
        )
        .toBe(true);
      expect(await page.getByTestId('pending-scans').textContent()).toMatch(/ORD-100[234]/);
      await shot('pending-en');
      await rpc.waitFor(
        'scan.outcome',
        (o) => o.code === 'ORD-1004' && rpc.events('scan.outcome').indexOf(o) >= before,
      );
      const outcomes = rpc.events('scan.outcome').slice(before);
      expect(outcomes.map((o) => [o.code, o.kind])).toEqual(codes.map((c) => [c, 'printed']));
      expect(outcomes.map((o) => o.scanId)).toEqual([...outcomes.map((o) => o.scanId)].sort((a, b) => a - b));
      // The screen shows the newest; the recent list has all three, newest first.
      await waitKind('printed', outcomes[2]!.scanId);
      expect(await outcome().getByTestId('outcome-recipient').textContent()).toContain('ACME');
      await outcome().click();
      const recent = page.getByTestId('recent-scans').locator('li');
      await expect
        .poll(() =>
          recent.evaluateAll((lis) =>
            lis.slice(0, 3).map((li) => `${li.querySelector('.code')?.textContent}:${li.getAttribute('data-kind')}`),
          ),
        )
        .toEqual(['ORD-1004:printed', 'ORD-1003:printed', 'ORD-1002:printed']);
      // ORD-1002 has three packages: five labels for three scans.
      await expect.poll(() => printed().length).toBe(2 + 3 + 1 + 1);
      await expect.poll(() => page.getByTestId('counter-printed').textContent()).toBe('5');
      await expect.poll(() => page.getByTestId('pending-scans').locator('li').count()).toBe(0);
    });

    it('a printer that is down: amber, the labels wait in the print queue and print when it is back', async () => {
      const zpl = hs.station.printing.virtual.zpl;
      await zpl.offline();
      const before = printed().length;
      try {
        await scan('ORD-1007');
        await waitKind('printer_down');
        expect(await outcome().textContent()).toContain('The label waits in the print queue');
        await shot('printer_down-en');
      } finally {
        await zpl.online();
      }
      // The queue retries by itself; the label comes out once the printer is back.
      await expect.poll(() => printed().length, { timeout: 60_000, interval: 500 }).toBe(before + 1);
      // The recent scans show the final state, not the first one ("printer down" / "labels are printing").
      await outcome().click();
      const row = page
        .getByTestId('recent-scans')
        .locator('li')
        .filter({ has: page.locator('.code', { hasText: 'ORD-1007' }) });
      await expect.poll(() => row.first().getAttribute('data-kind'), { timeout: 20_000 }).toBe('printed');
    });

    it("with the printer offline the next scan is amber at once with the printer's reason, never green; the queue shows its label waiting, not failed", async () => {
      const zpl = hs.station.printing.virtual.zpl;
      await zpl.offline();
      const before = printed().length;
      try {
        const first = outcomeEvent('ORD-1006');
        await scan('ORD-1006');
        const a = await first;
        expect(a.kind).toBe('printer_down');
        await waitKind('printer_down', a.scanId);
        // A reprint queues behind the first label, which waits for the printer: it waits too, and the
        // screen says so at once (it used to wait out its print wait, then turn green "labels are printing").
        const asked = outcomeEvent('ORD-1001');
        await scan('ORD-1001');
        await waitKind('already_closed', (await asked).scanId);
        const second = outcomeEvent('ORD-1001');
        await page.keyboard.press('Enter');
        // Every reprint says why first (1: damaged label).
        await page.getByTestId('reprint-why').waitFor();
        await page.keyboard.press('1');
        const b = await second;
        expect(b.kind).toBe('printer_down');
        await waitKind('printer_down', b.scanId);
        expect(await outcome().getAttribute('class')).toContain('tone-wait');
        expect(await outcome().textContent()).toContain('Closed — printer not ready');
        expect(await outcome().textContent()).toContain('The printer does not answer');
        await shot('printer-offline-second-en');

        // The print queue: the label that waits for its printer is "Waiting for printer" in amber, with the reason and its next try.
        await outcome().click();
        await page.getByTestId('nav-queue').click();
        const waiting = page.locator('[data-testid="queue-row"][data-state="failed"]').first();
        await waiting.waitFor({ timeout: 20_000 });
        expect(await waiting.getByTestId('queue-state').textContent()).toBe('Waiting for printer');
        expect(await waiting.getByTestId('queue-state').getAttribute('class')).toContain('q-state-waiting');
        expect(await waiting.getByTestId('queue-reason').textContent()).toContain('The printer does not answer');
        expect(await waiting.getByTestId('queue-reason').textContent()).toContain('next try');
        expect(
          await page
            .locator('[data-testid="queue-row"][data-state="failed"] [data-testid="queue-state"]')
            .allTextContents(),
        ).not.toContain('Failed');
        await shot('queue-waiting-en');
        await page.getByTestId('nav-station').click();
        await expect.poll(focused).toBe('scan-input');
      } finally {
        await zpl.online();
      }
      await expect.poll(() => printed().length, { timeout: 60_000, interval: 500 }).toBe(before + 2);
    });

    it('batch mode: collects scans, closes them all grouped by carrier + collection place, prints, and sums up what failed', async () => {
      await page.keyboard.press('F5');
      await expect.poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed')).toBe('true');
      expect(await focused()).toBe('scan-input');
      const before = printed().length;
      for (const code of ['ORD-1005', 'ORD-1008', 'ORD-1010', 'ORD-1016', 'NOPE-77']) {
        await scan(code);
        await page.waitForSelector(`[data-testid="batch-items"] li[data-code="${code}"]`);
      }
      const items = page.getByTestId('batch-items').locator('li');
      expect(
        await items.evaluateAll((lis) =>
          lis.map((li) => [li.getAttribute('data-code'), li.getAttribute('data-status')]),
        ),
      ).toEqual([
        ['ORD-1005', 'ready'],
        ['ORD-1008', 'ready'],
        ['ORD-1010', 'ready'],
        ['ORD-1016', 'ready'],
        ['NOPE-77', 'not_found'],
      ]);
      // Nothing closed or printed yet.
      expect(printed()).toHaveLength(before);
      await shot('batch-en');

      await page.getByTestId('batch-close').click();
      const summary = page.getByTestId('batch-summary');
      await summary.waitFor({ timeout: 30_000 });
      const groups = await page
        .getByTestId('batch-groups')
        .locator('li')
        .evaluateAll((lis) => lis.map((li) => li.textContent ?? ''));
      expect(groups.some((g) => g.includes('PPR') && g.includes('WH-BRNO'))).toBe(true);
      expect(groups.some((g) => g.includes('RGX') && g.includes('WH-BRNO'))).toBe(true);
      expect(groups.some((g) => g.includes('BOX') && g.includes('WH-PRAHA'))).toBe(true);
      const failures = await page.getByTestId('batch-failures').textContent();
      expect(failures).toContain('ORD-1016');
      expect(failures).toContain('NOPE-77');
      expect(failures).toContain('not found');
      // The three good ones printed: one label each, with their package barcodes.
      const barcodes = await Promise.all(
        ['ORD-1005', 'ORD-1008', 'ORD-1010'].map(async (code) => {
          const r = await rpc.call('shipments.lookup', { code });
          return r.kind === 'found' ? r.shipment.packages[0]!.barcode : null;
        }),
      );
      await expect.poll(() => printed().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 3);
      const zpl = printed()
        .slice(before)
        .map((l) => l.zpl)
        .join('\n');
      for (const b of barcodes) expect(zpl).toContain(b!);
      await shot('batch-summary-en');
      await page.keyboard.press('F5');
      await expect.poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed')).toBe('false');
    });

    it('speaks Czech after the language switch: the feedback, keys and batch summary', async () => {
      await page.getByTestId('language').selectOption('cs');
      await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain('Stanice');
      await expect.poll(focused).toBe('scan-input');
      await shot('empty-cs');

      await scan('ORD-1019');
      await waitKind('printed');
      expect(await outcome().textContent()).toContain('Vytištěno');
      expect(await outcome().textContent()).toContain('1 balík');
      await shot('printed-cs');

      await scan('ORD-1019');
      await waitKind('already_closed');
      expect(await outcome().textContent()).toContain('Vytisknout znovu');
      await shot('already_closed-cs');
      await page.keyboard.press('Escape');
      await waitKind('skipped');

      await scan('NEEXISTUJE-1');
      await waitKind('not_found');
      expect(await outcome().textContent()).toContain('Nenalezeno');
      await shot('not_found-cs');

      await scan('ORD-1013');
      await waitKind('cancelled');
      expect(await outcome().textContent()).toContain('Zrušená zásilka');
      await shot('cancelled-cs');

      const event = outcomeEvent('ORD-1015');
      await scan('ORD-1015');
      const o = await event;
      await waitKind('carrier_rejected', o.scanId);
      expect(await outcome().textContent()).toContain('Dopravce zásilku odmítl');
      await shot('carrier_rejected-cs');

      const zpl = hs.station.printing.virtual.zpl;
      await zpl.offline();
      try {
        await scan('ORD-1009');
        await waitKind('printer_down');
        expect(await outcome().textContent()).toContain('tiskové frontě');
        await shot('printer_down-cs');
        // A reprint queued behind the waiting label: amber at once, with the printer's reason in Czech.
        const asked = outcomeEvent('ORD-1019');
        await scan('ORD-1019');
        await waitKind('already_closed', (await asked).scanId);
        const reprint = outcomeEvent('ORD-1019');
        await page.keyboard.press('Enter');
        // Every reprint says why first (1: damaged label).
        await page.getByTestId('reprint-why').waitFor();
        await page.keyboard.press('1');
        const r = await reprint;
        await waitKind('printer_down', r.scanId);
        expect(await outcome().getAttribute('class')).toContain('tone-wait');
        expect(await outcome().textContent()).toContain('Uzavřeno — tiskárna není připravena');
        expect(await outcome().textContent()).toContain('Tiskárna neodpovídá');
        await outcome().click();
        await page.getByTestId('nav-queue').click();
        const waiting = page.locator('[data-testid="queue-row"][data-state="failed"]').first();
        await waiting.waitFor({ timeout: 20_000 });
        expect(await waiting.getByTestId('queue-state').textContent()).toBe('Čeká na tiskárnu');
        expect(await waiting.getByTestId('queue-reason').textContent()).toContain('další pokus');
        await shot('queue-waiting-cs');
        await page.getByTestId('nav-station').click();
        await expect.poll(focused).toBe('scan-input');
      } finally {
        await zpl.online();
      }

      await page.getByTestId('batch-toggle').click();
      await expect.poll(focused).toBe('scan-input');
      for (const code of ['ORD-1011', 'ORD-1012', 'XX-1']) {
        await scan(code);
        await page.waitForSelector(`[data-testid="batch-items"] li[data-code="${code}"]`);
      }
      expect(await page.getByTestId('batch-items').textContent()).toContain('nenalezeno');
      await shot('batch-cs');
      await page.keyboard.press('Control+Enter');
      await page.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('batch-summary').textContent()).toContain('Dávka uzavřena');
      await shot('batch-summary-cs');
    });
  },
);
