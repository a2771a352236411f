/**
 * The Shipments screen's selection is what the worker sees, in Chromium through
 * the web host, in English and Czech: a selected shipment that leaves the filtered list (closed at
 * the desk while the list shows prepared ones) is deselected and never acted on; a scan that opens
 * a shipment's detail moves the selection to it, and an open detail follows a scan of a listed row.
 * A scan of a row far down the list brings it into view (below the note the scan puts above the
 * list), Enter then opens its detail, and the "Scanned …" note goes once the selection moves on.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { closeDesk, openDesk } from '../support/desk';
import { repoRoot, type HostedStation } from '../support/station';
import { wedgeScanner } from '../support/wedgeScanner';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium'))('Shipments: the selection is what the worker sees', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ printWaitMs: 3000 }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  const cases = [
    {
      lang: 'en',
      locale: 'en-US',
      selected: (n: number) => `selected: ${n}`,
      confirm: 'Cancel the selected shipments (1)',
      kept: 1003,
      gone: 1004,
      other: 1005,
      next: 1006,
    },
    {
      lang: 'cs',
      locale: 'cs-CZ',
      selected: (n: number) => `vybráno: ${n}`,
      confirm: 'Zrušit vybrané zásilky (1)',
      kept: 1007,
      gone: 1008,
      other: 1009,
      next: 1010,
    },
  ];

  it.each(cases)(
    '$lang: a row that leaves the filtered list is deselected and not cancelled; a scan moves the selection and the detail together',
    async (c) => {
      await rpc.call('settings.set', { language: c.lang as 'en' | 'cs' });
      const page = await browser.newPage({ locale: c.locale, viewport: { width: 1366, height: 768 } });
      const scanner = await wedgeScanner(page);
      await page.goto(hs.host.url);
      await page.getByTestId('nav-shipments').click();
      const row = (id: number) => page.locator(`[data-testid="shipment-row"][data-delivery-id="${id}"]`);
      const count = page.getByTestId('shipments-count');
      await page.getByTestId('filter-state').selectOption('prepared');
      await row(c.kept).waitFor({ timeout: 20_000 });

      // Two prepared shipments selected; one of them is closed at the desk and leaves the list.
      await row(c.kept).click();
      await row(c.gone).click({ modifiers: ['Control'] });
      await expect.poll(() => count.getAttribute('data-selected')).toBe('2');
      await rpc.call('scan.submit', { code: `ORD-${c.gone}` });
      await row(c.gone).waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => count.getAttribute('data-selected')).toBe('1');
      expect(await count.textContent()).toContain(c.selected(1));
      await page.getByTestId('action-cancel').click();
      expect(await page.locator('.sh-confirm').textContent()).toContain(c.confirm);
      await page.screenshot({ path: path.join(shots, `shipments-selection-confirm-${c.lang}.png`) });
      await page.getByTestId('confirm-yes').click();
      await expect
        .poll(() => rpc.call('shipments.get', { deliveryId: c.kept }).then((s) => s?.state), { timeout: 20_000 })
        .toBe(10);
      expect((await rpc.call('shipments.get', { deliveryId: c.gone }))!.state).toBe(1); // closed, untouched

      // A scan of the shipment the filter hides: its detail opens and the selection moves to it.
      await row(c.other).click();
      await expect.poll(() => count.getAttribute('data-selected')).toBe('1');
      await scanner.scan(`ORD-${c.gone}`);
      await expect
        .poll(() => page.getByTestId('shipment-detail').getAttribute('aria-label'), { timeout: 20_000 })
        .toContain(String(c.gone));
      expect(await row(c.other).getAttribute('aria-selected')).toBe('false');
      expect(await count.getAttribute('data-selected')).toBe('1');
      await page.screenshot({ path: path.join(shots, `shipments-selection-scan-${c.lang}.png`) });
      // Closed, the detail takes the hidden shipment's selection with it.
      await page.getByTestId('detail-close').click();
      await expect.poll(() => count.getAttribute('data-selected')).toBe('0');

      // An open detail follows a scan of a row in the list.
      await row(c.other).dblclick();
      await expect
        .poll(() => page.getByTestId('shipment-detail').getAttribute('aria-label'))
        .toContain(String(c.other));
      await scanner.scan(`ORD-${c.next}`);
      await expect
        .poll(() => page.getByTestId('shipment-detail').getAttribute('aria-label'), { timeout: 20_000 })
        .toContain(String(c.next));
      expect(await row(c.next).getAttribute('aria-selected')).toBe('true');
      expect(await row(c.other).getAttribute('aria-selected')).toBe('false');
      await page.close();
    },
  );

  it.each([
    { lang: 'en', locale: 'en-US', note: 'Scanned', selected: 'selected' },
    { lang: 'cs', locale: 'cs-CZ', note: 'Naskenováno', selected: 'vybrána' },
  ] as const)('$lang: a scan of a far row shows it, Enter opens it, its note goes with the selection', async (c) => {
    await rpc.call('settings.set', { language: c.lang });
    const page = await browser.newPage({ locale: c.locale, viewport: { width: 1366, height: 768 } });
    const scanner = await wedgeScanner(page);
    await page.goto(hs.host.url);
    // The worker comes by the tab: the focus is on it, not on the list.
    await page.getByTestId('nav-shipments').click();
    const count = page.getByTestId('shipments-count');
    await expect.poll(() => count.getAttribute('data-total'), { timeout: 20_000 }).not.toBe('0');
    const total = Number(await count.getAttribute('data-total'));
    // The list's last row, by the core's own order: below the visible part at 1366x768.
    const last = (await rpc.call('shipments.query', { offset: total - 1, limit: 1 })).items[0]!;
    const list = page.getByTestId('shipments-list');
    const row = page.locator(`[data-testid="shipment-row"][data-delivery-id="${last.deliveryId}"]`);
    const listBox = (await list.boundingBox())!;
    expect((await row.boundingBox())?.y ?? Infinity).toBeGreaterThan(listBox.y + listBox.height);

    await scanner.scan(last.externalId!);
    const note = page.getByTestId('shipments-scan');
    await expect.poll(() => note.textContent(), { timeout: 20_000 }).toContain(`${c.note} ${last.externalId}`);
    expect(await note.textContent()).toContain(c.selected);
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    // The whole row inside the list's box as it is now (the note above it made the list shorter).
    await expect
      .poll(async () => {
        const [r, l] = [await row.boundingBox(), await list.boundingBox()];
        return !!r && !!l && r.y >= l.y && r.y + r.height <= l.y + l.height + 0.5;
      })
      .toBe(true);
    await page.screenshot({ path: path.join(shots, `shipments-scan-far-row-${c.lang}.png`) });

    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('shipment-detail').getAttribute('aria-label'))
      .toContain(String(last.deliveryId));
    await page.keyboard.press('Escape');

    // The selection moves up a row: the note of the scanned one goes.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('false');
    expect(await count.getAttribute('data-selected')).toBe('1');
    await expect.poll(() => note.count()).toBe(0);
    await page.close();
  });
});
