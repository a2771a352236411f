/**
 * End of day and the first-run demo pick list in Chromium through the loopback web host, against
 * the embedded sandbox and the virtual printers.
 *
 * Demo shipments (sandbox/domain/demo.ts): ORD-1001 (NP, Nováková, 1 package) and ORD-1002 (NP,
 * Procházka, 3 packages) are sent from collection place WH-PRAHA; ORD-1005 (PPR) from WH-BRNO.
 * Spec "POST /api/v2/collection-protocols": one protocol per carrier + collection place, over the
 * closed, unsent shipments; none left -> 422 with the service's message.
 *
 * The tests run in order on one station and one page, as a worker's day would.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { pdfBarcodes, pngBarcodes } from '../support/pdfBarcodes';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium', 'keychain', 'pdftoppm', 'zbarimg'))(
  'end of day and the demo pick list in Chromium',
  { timeout: 120_000 },
  () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let page: Page;
    /** Package barcodes of the two NP shipments closed at WH-PRAHA. */
    const npBarcodes: string[] = [];

    const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
    const officePdfs = () => hs.station.printing.virtual.pdf.received();
    const officePdf = (i: number) =>
      readFileSync(path.join(hs.station.printing.virtual.pdf.folder, officePdfs()[i]!.name));
    const row = (carrier: string, place: string) =>
      page.locator(`[data-testid="eod-candidate"][data-carrier="${carrier}"][data-place="${place}"]`);
    const notice = () => page.getByTestId('eod-notice');

    async function close(code: string) {
      const { scanId } = await rpc.call('scan.submit', { code });
      const o = await rpc.waitFor('scan.outcome', (x) => x.scanId === scanId);
      if (o.kind !== 'printed') throw new Error(`${code}: expected printed, got ${o.kind}`);
      return o.shipment;
    }

    beforeAll(async () => {
      hs = await startHostedStation({ printWaitMs: 5000 });
      rpc = await connectRpc(hs.host);
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
      page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    });
    afterAll(async () => {
      await browser?.close();
      rpc?.close();
      await hs?.close();
    });

    it('two NP shipments closed at WH-PRAHA wait for their protocol on the End of day screen (F6)', async () => {
      for (const code of ['ORD-1001', 'ORD-1002']) npBarcodes.push(...(await close(code)).barcodes);
      expect(npBarcodes).toHaveLength(4);
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.keyboard.press('F6');
      await page.getByTestId('screen-endOfDay').waitFor();
      await row('NP', 'WH-PRAHA').waitFor();
      expect(await row('NP', 'WH-PRAHA').getByTestId('eod-count').textContent()).toBe('2 shipments');
      expect(await row('NP', 'WH-PRAHA').textContent()).toContain('Demo Shop s.r.o. - sklad Praha');
      await shot('endOfDay-candidates-en');
    });

    it('a shipment sent from an address (ORD-1007, PPR direct) is listed apart, with why it needs no protocol', async () => {
      const ord1007 = await close('ORD-1007');
      await page.getByTestId('eod-refresh').click();
      const group = page.locator('[data-testid="eod-address-group"][data-carrier="PPR"]');
      await group.waitFor();
      expect(await group.getByTestId('eod-count').textContent()).toBe('1 shipment');
      expect(await group.getByTestId('eod-address-ids').textContent()).toBe(String(ord1007.deliveryId));
      expect(await group.textContent()).toContain('No protocol needed');
      expect(await group.getByRole('button').count()).toBe(0);
      expect(await page.getByTestId('screen-endOfDay').textContent()).toContain(
        'A collection protocol covers one carrier at one collection place',
      );
      // It is on no protocol pair either.
      expect(await page.locator('[data-testid="eod-candidate"][data-carrier="PPR"]').count()).toBe(0);
      await group.scrollIntoViewIfNeeded();
      await shot('endOfDay-fromAddress-en');
    });

    it('"Create and print protocol": the office printer gets the protocol with exactly those package barcodes, and the pair leaves the list', async () => {
      await row('NP', 'WH-PRAHA').getByTestId('eod-create').click();
      await page.waitForSelector('[data-testid="eod-notice"][data-kind="created"]');
      await page.waitForSelector('[data-testid="eod-job-state"][data-state="done"]', { timeout: 20_000 });
      expect(await notice().textContent()).toContain('NP / Demo Shop s.r.o. - sklad Praha (2 shipments)');
      expect(await notice().textContent()).toContain('Printed.');
      expect(officePdfs()).toHaveLength(1);
      expect(pdfBarcodes(officePdf(0)).sort()).toEqual([...npBarcodes].sort());
      await expect.poll(() => row('NP', 'WH-PRAHA').count()).toBe(0);
      await shot('endOfDay-created-en');
    });

    it('closing returned a pick-up order for NP at WH-PRAHA, shown with its day', async () => {
      const order = page.locator('[data-testid="eod-pickup"][data-carrier="NP"][data-place="WH-PRAHA"]');
      await order.first().waitFor();
      expect(await order.first().textContent()).toMatch(/\d{4}/);
    });

    it('the history shows the protocol; its preview renders and reprint prints it again', async () => {
      const [protocol] = await rpc.call('endOfDay.protocols', {});
      const entry = page.locator(`[data-testid="eod-protocol"][data-id="${protocol!.collectionProtocolId}"]`);
      await entry.waitFor();
      expect(await entry.textContent()).toContain('NP');

      await entry.getByTestId('eod-preview').click();
      const dialog = page.getByTestId('eod-preview-dialog');
      await dialog.getByTestId('eod-preview-page').first().waitFor();
      expect(await dialog.textContent()).toContain(`Collection protocol ${protocol!.collectionProtocolId}`);
      await shot('endOfDay-preview-en');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);

      await entry.getByTestId('eod-reprint').click();
      await page.waitForSelector(
        '[data-testid="eod-notice"][data-kind="reprinted"] [data-testid="eod-job-state"][data-state="done"]',
        { timeout: 20_000 },
      );
      expect(officePdfs()).toHaveLength(2);
      expect(pdfBarcodes(officePdf(1)).sort()).toEqual([...npBarcodes].sort());
    });

    it('a protocol another desk made meanwhile: the refused Create says which, in the worker’s words, and the list agrees', async () => {
      await close('ORD-1005');
      await page.getByTestId('eod-refresh').click();
      await row('PPR', 'WH-BRNO').waitFor();
      // Another desk (another program of the company, straight to the service) makes this pair's
      // protocol while this screen still lists it; this station cannot know until the service says so.
      const printedBefore = officePdfs().length;
      const sb = hs.station.sandbox;
      const tokens = (await (
        await fetch(`${sb.url}/_sandbox/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope }),
        })
      ).json()) as { access_token: string };
      const made = await fetch(`${sb.url}/api/v2/collection-protocols`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ agent: 'PPR', collectionPlace: 'WH-BRNO' }),
      });
      expect(made.status).toBe(201);
      const madeId = ((await made.json()) as { data: { collectionProtocolId: number } }).data.collectionProtocolId;
      await row('PPR', 'WH-BRNO').getByTestId('eod-create').click();
      await page.waitForSelector('[data-testid="eod-notice"][data-kind="refused"]');
      const text = await notice().textContent();
      // Not the service's bare "nothing to hand over" beside a list that still showed them (issue 44).
      expect(text).toContain('Already on another desk’s protocol');
      expect(text).toContain(`These parcels are already on protocol ${madeId}, made at another desk`);
      expect(await notice().getAttribute('role')).toBe('alert');
      // Those shipments are on the other desk's protocol now: they leave the list, also after a refresh.
      await expect.poll(() => row('PPR', 'WH-BRNO').count()).toBe(0);
      await shot('endOfDay-refused-en');
      const again = await rpc.call('endOfDay.candidates', { refresh: true });
      expect(again.candidates.map((c) => `${c.carrier}/${c.collectionPlace}`)).not.toContain('PPR/WH-BRNO');
      expect(officePdfs()).toHaveLength(printedBefore); // nothing printed here
    });

    it('first run: the demo banner opens the pick list; the codes on screen scan, one closes from the dialog, and it prints', async () => {
      await page.getByTestId('demo-pick-open').click();
      const dialog = page.getByTestId('demo-pick-list');
      await dialog.getByTestId('demo-pick-page').first().waitFor();
      const codes = await dialog
        .locator('[data-testid="demo-pick-items"] tr[data-code]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')!));
      expect(codes).toContain('ORD-1003');
      expect(codes).not.toContain('ORD-1001'); // closed this morning: no longer prepared
      // What a scanner pointed at the screen reads: the visible part of the first page.
      const seen = pngBarcodes(await page.screenshot());
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen).toContain(codes[0]);
      for (const c of seen) expect(codes).toContain(c);
      await shot('firstRun-pickList-en');

      // The scanner types into the dialog's scan box, which has the focus from the start.
      expect(await page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null')).toBe(
        'demo-pick-scan',
      );
      await page.keyboard.type('ORD-1003');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="demo-pick-result"][data-ok="true"]', { timeout: 20_000 });
      expect(await page.getByTestId('demo-pick-result').textContent()).toContain('Černá');

      const before = officePdfs().length;
      await page.getByTestId('demo-pick-print').click();
      await page.waitForSelector('[data-testid="demo-pick-result"][data-kind="print"][data-ok="true"]');
      await expect.poll(() => officePdfs().length, { timeout: 20_000 }).toBe(before + 1);
      // Printed after ORD-1003 was closed: the shipments still prepared now.
      expect(pdfBarcodes(officePdf(before)).sort()).toEqual(codes.filter((c) => c !== 'ORD-1003').sort());
      await shot('firstRun-pickList-scanned-en');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    });

    it('in Czech: the screen, the dialog and the history read in Czech', async () => {
      await page.getByTestId('language').selectOption('cs');
      await page.getByTestId('nav-endOfDay').click();
      await expect
        .poll(() => page.getByTestId('screen-endOfDay').textContent())
        .toContain('Čeká na předávací protokol');
      await close('ORD-1004');
      await page.getByTestId('eod-refresh').click();
      await row('PPR', 'WH-PRAHA').waitFor();
      expect(await row('PPR', 'WH-PRAHA').textContent()).toContain('Vytvořit a vytisknout protokol');
      const group = page.locator('[data-testid="eod-address-group"][data-carrier="PPR"]');
      expect(await group.textContent()).toContain('Protokol není potřeba');
      expect(await group.getByTestId('eod-count').textContent()).toBe('1 zásilka');
      expect(await page.getByTestId('screen-endOfDay').textContent()).toContain('Odesláno z adresy: bez protokolu');
      await shot('endOfDay-candidates-cs');
      await group.scrollIntoViewIfNeeded();
      await shot('endOfDay-fromAddress-cs');
      await row('PPR', 'WH-PRAHA').getByTestId('eod-create').click();
      await page.waitForSelector(
        '[data-testid="eod-notice"][data-kind="created"] [data-testid="eod-job-state"][data-state="done"]',
        { timeout: 20_000 },
      );
      expect(await notice().textContent()).toContain('Vytištěno');
      await shot('endOfDay-created-cs');
      await page.getByTestId('eod-preview').first().click();
      await page.getByTestId('eod-preview-page').first().waitFor();
      await shot('endOfDay-preview-cs');
      await page.keyboard.press('Escape');

      await page.getByTestId('demo-pick-open').click();
      await page.getByTestId('demo-pick-page').first().waitFor();
      expect(await page.getByTestId('demo-pick-list').textContent()).toContain('Ukázkový seznam k vychystání');
      await shot('firstRun-pickList-cs');
      await page.keyboard.press('Escape');
    });
  },
);
