/**
 * Every text on the screen comes from the catalogue (items 6, 11, 14): the main
 * screens driven in Czech and English with inputs that make them refuse or fail (a code that is not
 * found, a carrier's refusal, invalid form fields, a printer off and in error, no scale), and the
 * visible text of each screen searched for what must never reach it: zod's messages, raw error texts,
 * and, in Czech, English fragments of the English catalogue (its texts that Czech says otherwise).
 * Beside it the items themselves: the print queue names its jobs in the UI language, the test label
 * is in that language with local time, the printer_down banner reads as a sentence, the batch summary's
 * colour follows its outcome and lists the carrier's reasons, plurals of labels, Czech wording.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { cs, en } from '../../renderer/src/i18n/en';
import { closeDesk, openDesk, screenshotsDir } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import type { HostedStation } from '../support/station';

type Lang = 'cs' | 'en';

/** zod's own messages and raw error texts: never on a screen, in either language. */
const ZOD = /Too big|Too small|expected (string|number|a )|Invalid (input|string|type|enum|option)/;
const RAW = /ENOENT|spawn |Error:|[A-Z][a-z]+Error\b|undefined|\[object|NaN\b/;

/**
 * English fragments the Czech screen must not show: pieces (between placeholders) of the English
 * catalogue's texts that Czech says otherwise, of two words or more; none that a Czech text holds
 * too (a key name such as "Ctrl+Enter", a format such as "ZPL").
 */
function englishFragments(): string[] {
  const czech = Object.values(cs).join('\n');
  const out = new Set<string>();
  for (const [k, text] of Object.entries(en)) {
    if (cs[k as keyof typeof cs] === text) continue;
    for (const piece of text.split(/\{\w+\}|[.:;!?()“”"—–…·|]/)) {
      const f = piece.trim().replace(/^[,\s]+|[,\s]+$/g, '');
      if (f.split(/\s+/).length < 2 || f.length < 8 || czech.includes(f)) continue;
      out.add(f);
    }
  }
  return [...out];
}
const ENGLISH = englishFragments();

describe.skipIf(!needs('chromium'))('catalogue texts on the screens, Czech and English', { timeout: 240_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  async function open(lang: Lang): Promise<Page> {
    await rpc.call('settings.set', { language: lang });
    const page = await browser.newPage({
      locale: lang === 'cs' ? 'cs-CZ' : 'en-GB',
      viewport: { width: 1366, height: 768 },
    });
    page.setDefaultTimeout(15_000);
    // "Drop the unsaved draft?" and the like: the worker says yes.
    page.on('dialog', (d) => void d.accept());
    await page.goto(hs.host.url);
    await page.getByTestId('screen-station').waitFor();
    return page;
  }
  const shot = (page: Page, name: string, lang: Lang) =>
    page.screenshot({ path: path.join(screenshotsDir, `catalogue-${name}-${lang}.png`) });

  /** What the worker sees of the screen: no zod, no raw error, and in Czech no English of the catalogue. */
  async function expectOnlyCatalogue(page: Page, lang: Lang, where: string) {
    const text = await page.locator('body').innerText();
    expect
      .soft({ where, zod: ZOD.exec(text)?.[0] ?? null, raw: RAW.exec(text)?.[0] ?? null })
      .toEqual({ where, zod: null, raw: null });
    if (lang === 'cs')
      expect.soft({ where, english: ENGLISH.filter((f) => text.includes(f)) }).toEqual({ where, english: [] });
  }

  async function scan(page: Page, code: string) {
    await page.getByTestId('scan-input').focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }

  it('builds a list of English fragments to look for', () => {
    expect(ENGLISH.length).toBeGreaterThan(300);
    expect(ENGLISH).toContain('Collection protocol');
  });

  // Station plurals: one label per package; ORD-1001 and ORD-1007 have one package, ORD-1002 three.
  it.each(['cs', 'en'] as const)(
    '%s: the Station screen says label for one package and labels for three',
    async (lang) => {
      await rpc.call('demo.reset', {});
      const page = await open(lang);
      const outcome = page.getByTestId('scan-outcome');
      const shown = async (code: string, kind: string) => {
        await scan(page, code);
        await page.locator(`[data-testid="scan-outcome"][data-kind="${kind}"]`).waitFor({ timeout: 20_000 });
        return outcome.innerText();
      };
      await shown('ORD-1001', 'printed');
      await page.keyboard.press('Escape');
      const again1 = await shown('ORD-1001', 'already_closed');
      expect.soft(again1).toContain(lang === 'cs' ? 'Vytisknout štítek znovu?' : 'Print its label again?');
      expect.soft(again1).toContain(lang === 'cs' ? 'vytiskla její štítek.' : 'printed its label before.');
      await shot(page, 'station-reprint-one', lang);
      await page.keyboard.press('Escape');
      await shown('ORD-1002', 'printed');
      await page.keyboard.press('Escape');
      const again3 = await shown('ORD-1002', 'already_closed');
      expect.soft(again3).toContain(lang === 'cs' ? 'Vytisknout štítky znovu?' : 'Print its labels again?');
      await page.keyboard.press('Escape');

      const zpl = hs.station.printing.virtual.zpl;
      await zpl.offline();
      try {
        const down = await shown('ORD-1007', 'printer_down');
        expect
          .soft(down)
          .toContain(
            lang === 'cs'
              ? 'Štítek čeká v tiskové frontě a vytiskne se sám'
              : 'The label waits in the print queue and prints by itself',
          );
        await shot(page, 'station-printer_down-one', lang);
      } finally {
        await zpl.online();
      }
      await expectOnlyCatalogue(page, lang, 'station: plurals');
      await page.close();
    },
  );

  // End of day: the office printer's folder replaced by a file, so the protocol's PDF cannot be
  // written after its first byte left (an unknown outcome, code printer_error): the queue's state and
  // reason texts in the UI language, never the system's "ENOTDIR: …" or a bare state word.
  it.each(['cs', 'en'] as const)(
    '%s: End of day names a protocol print that failed in the UI language',
    async (lang) => {
      await rpc.call('demo.reset', {});
      // The label printer was switched off and on by the test before: scan once the station sees it up again.
      await expect
        .poll(
          async () => (await rpc.call('station.status', {})).printers.find((p) => p.kind === 'virtual-zpl')?.state,
          { timeout: 60_000 },
        )
        .toBe('ready');
      const { scanId } = await rpc.call('scan.submit', { code: 'ORD-1001' });
      expect((await rpc.waitFor('scan.outcome', (x) => x.scanId === scanId)).kind).toBe('printed');
      const page = await open(lang);
      const folder = hs.station.printing.virtual.pdf.folder;
      rmSync(folder, { recursive: true, force: true });
      writeFileSync(folder, 'not a folder');
      try {
        await page.keyboard.press('F6');
        const row = page.locator('[data-testid="eod-candidate"][data-carrier="NP"][data-place="WH-PRAHA"]');
        await row.getByTestId('eod-create').click();
        const state = page.locator(
          '[data-testid="eod-notice"][data-kind="created"] [data-testid="eod-job-state"][data-state="uncertain"]',
        );
        await state.waitFor({ timeout: 20_000 });
        const text = await state.innerText();
        expect
          .soft(text)
          .toBe(
            lang === 'cs'
              ? 'Tisk protokolu: Nejisté, zda vytištěno. Tiskárna hlásí chybu: podívejte se na její displej. V tiskové frontě (F4) odpovězte, zda vyjel.'
              : 'Protocol print: Printed? Unknown. The printer reports an error: check its display. Answer in the print queue (F4) whether it came out.',
          );
        await expectOnlyCatalogue(page, lang, 'end of day: protocol not printed');
        await shot(page, 'endOfDay-protocol-unsure', lang);
        // The worker's answer in the queue, so the office printer's lane is free for the next language.
        for (const j of await rpc.call('printing.queue.list', { states: ['uncertain'] }))
          await rpc.call('printing.queue.markPrinted', { jobId: j.id });
      } finally {
        rmSync(folder, { force: true });
        mkdirSync(folder, { recursive: true });
      }
      await page.close();
    },
  );

  // Each language on the same demo shipments, made prepared again (Settings → Reset demo data).
  const p = { batchOk: 'ORD-1003', batchNext: 'ORD-1004', multi: 1002, refused: 'ORD-1015' } as const;

  it.each(['cs', 'en'] as const)(
    '%s: station, batch, new shipment, queue, settings and end of day show catalogue texts only',
    async (lang) => {
      const t = lang === 'cs' ? cs : en;
      await rpc.call('demo.reset', {});
      const page = await open(lang);

      // Station: a code that is not found, and a carrier's refusal of one shipment (singular, item 11).
      await scan(page, 'NOPE-404');
      await page.locator('[data-testid="scan-outcome"][data-kind="not_found"]').waitFor({ timeout: 20_000 });
      await expectOnlyCatalogue(page, lang, 'station: not found');
      await page.keyboard.press('Escape');
      await scan(page, p.refused);
      await page.locator('[data-testid="scan-outcome"][data-kind="carrier_rejected"]').waitFor({ timeout: 20_000 });
      expect
        .soft(await page.getByTestId('outcome-message').textContent())
        .toBe(lang === 'cs' ? 'Dopravce zásilku odmítl.' : 'The carrier rejected the shipment.');
      await expectOnlyCatalogue(page, lang, 'station: refused');
      await page.keyboard.press('Escape');

      // Batch (item 11): one printed, one refused: red, the refusal's reason a list item, no " | ".
      await page.keyboard.press('F5');
      await scan(page, p.batchOk);
      await scan(page, p.refused);
      await expect.poll(() => page.getByTestId('batch-items').locator('li').count()).toBe(2);
      await page.keyboard.press('Control+Enter');
      const summary = page.getByTestId('batch-summary');
      await summary.waitFor({ timeout: 30_000 });
      expect.soft(await summary.getAttribute('class')).toContain('tone-bad');
      const refusedLine = page.locator(`[data-testid="batch-failures"] li[data-code="${p.refused}"]`);
      expect
        .soft(await refusedLine.getByTestId('batch-reasons').locator('li').allTextContents())
        .toEqual([
          lang === 'cs'
            ? 'National Post: dopravce příjemce odmítl (blokovaný adresát).'
            : 'National Post: the recipient was refused by the carrier (blocked addressee).',
        ]);
      expect.soft(await summary.innerText()).not.toContain(' | ');
      expect.soft(await summary.innerText()).not.toMatch(/rejected the shipments|zásilky odmítl/);
      await expectOnlyCatalogue(page, lang, 'batch summary: refused');
      await shot(page, 'batch-refused', lang);

      // Next close without the refusal: one closes, one was closed already (skipped). Nothing failed: not red.
      await page.getByTestId('batch-summary').getByRole('button').click();
      await page
        .locator(`[data-testid="batch-items"] li[data-code="${p.refused}"]`)
        .getByTestId('batch-remove')
        .click();
      await scan(page, p.batchOk); // closed by the batch above
      await scan(page, p.batchNext);
      await expect
        .poll(() =>
          page.locator(`[data-testid="batch-items"] li[data-code="${p.batchOk}"]`).getAttribute('data-status'),
        )
        .toBe('closed');
      await expect
        .poll(() =>
          page.locator(`[data-testid="batch-items"] li[data-code="${p.batchNext}"]`).getAttribute('data-status'),
        )
        .toBe('ready');
      await page.keyboard.press('Control+Enter');
      await expect
        .poll(() => page.getByTestId('batch-summary-counts').textContent(), { timeout: 30_000 })
        .toContain(lang === 'cs' ? 'selhalo: 0' : '0 failed');
      expect.soft(await summary.getAttribute('class')).not.toContain('tone-bad');
      expect.soft(await summary.getAttribute('class')).toContain('tone-ask');
      await expectOnlyCatalogue(page, lang, 'batch summary: nothing failed');
      await shot(page, 'batch-nothing-failed', lang);
      await page.getByTestId('batch-summary').getByRole('button').click();
      await page.getByTestId('batch-clear').click();
      await page.keyboard.press('F5');

      // New shipment: invalid fields are named from the catalogue.
      await page.getByTestId('nav-newShipment').click();
      const field = (f: string) => page.getByTestId(`ns-${f}`);
      await expect.poll(() => field('sender.collectionPlace').inputValue()).not.toBe('');
      await field('recipient.address.postalCode').fill('11000');
      await field('value').fill('abc');
      await field('packages.0.weight').fill('-1');
      await field('packages.0.length').fill('99999999999999999999');
      await page.getByTestId('ns-search').click();
      await page.getByTestId('ns-error-value').waitFor();
      await expectOnlyCatalogue(page, lang, 'new shipment: invalid');

      // A parcel of three packages closed from its edit: three labels, declined (item 14).
      await page.getByTestId('ns-new').click();
      await page.getByTestId('ns-edit-id').fill(String(p.multi));
      await page.getByTestId('ns-edit-open').click();
      await page.getByTestId('ns-close').click();
      const banner = page.locator('[data-testid="ns-banner"][data-kind]');
      // The "editing" note (info) gives way to what the close did.
      await expect.poll(() => banner.getAttribute('data-kind'), { timeout: 30_000 }).not.toBe('info');
      expect.soft(await banner.textContent()).toMatch(lang === 'cs' ? /3 štítky/ : /3 labels/);
      expect.soft(await banner.textContent()).not.toMatch(lang === 'cs' ? /štítek/ : /\blabel\b/);
      await expectOnlyCatalogue(page, lang, 'new shipment: closed');
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'new-shipment-three-labels', lang);

      // End of day: a collection protocol; the queue names it in the UI language (item 6).
      await page.getByTestId('nav-endOfDay').click();
      await page.getByTestId('eod-create').first().click();
      await page.waitForSelector('[data-testid="eod-notice"][data-kind="created"]', { timeout: 30_000 });
      const [protocol] = await rpc.call('endOfDay.protocols', {});
      await expectOnlyCatalogue(page, lang, 'end of day');

      // Settings: the test print on the virtual label printer, in the UI language with local time (item 6).
      const zpl = hs.station.printing.virtual.zpl;
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-tab-routing').click();
      await expect.poll(() => page.locator('body').innerText()).toContain(t['settings.routing.protocol']);
      expect.soft(await page.locator('body').innerText()).toContain(t['settings.routing.default']);
      if (lang === 'cs') expect.soft(await page.locator('body').innerText()).toContain('Výchozí směrování');
      await expectOnlyCatalogue(page, lang, 'settings: routing');
      await shot(page, 'settings-routing', lang);
      await page.getByTestId('settings-tab-printers').click();
      const before = zpl.printed().length;
      const clicked = new Date();
      await page
        .locator('[data-testid="printer-row"][data-printer-id="virtual-zpl"]')
        .getByTestId('printer-test-print')
        .click();
      await expect.poll(() => zpl.printed().length, { timeout: 15_000 }).toBeGreaterThan(before);
      const label = zpl.printed().at(-1)!.zpl;
      const fields = [...label.matchAll(/\^FD([^^]*)\^FS/g)].map((m) => m[1]);
      expect.soft(fields[0]).toBe(lang === 'cs' ? 'Zkušební tisk stanice štítků' : 'Label station test print');
      expect.soft(fields[1]).toBe(lang === 'cs' ? 'Virtuální tiskárna štítků (ZPL)' : 'Virtual label printer (ZPL)');
      // Local time as the language writes it (this process's time zone is the desk's), never ISO/UTC.
      expect.soft(fields[2]).not.toMatch(/T\d\d:\d\d|Z$/);
      // CLDR: cs writes "27. 11. 2026 0:07:04" (H:mm:ss), en-GB "27/11/2026, 00:07:04" (HH:mm:ss, midnight too).
      // The label was printed between the click and now: either moment's date and hour (an hour may turn).
      const written = (d: Date) =>
        lang === 'cs'
          ? `${d.getDate()}. ${d.getMonth() + 1}. ${d.getFullYear()} ${d.getHours()}:`
          : `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}, ${String(d.getHours()).padStart(2, '0')}:`;
      expect.soft(fields[2]).toMatch(/:\d\d:\d\d$/);
      expect
        .soft(
          [written(clicked), written(new Date())].some((w) => fields[2]!.startsWith(w)),
          fields[2],
        )
        .toBe(true);
      await expectOnlyCatalogue(page, lang, 'settings: printers');

      // Scale settings with no scale.
      await page.getByTestId('settings-tab-scale').click();
      await expectOnlyCatalogue(page, lang, 'settings: scale');

      // The printer off, then in error: the queue's banner a sentence per state, the printer by its name in the UI language.
      await zpl.offline();
      await rpc.call('printing.printers.testPrint', { printerId: 'virtual-zpl' });
      await page.getByTestId('nav-queue').click();
      const down = page.locator('[data-testid="queue-offline"][data-printer-id="virtual-zpl"]');
      await down.waitFor({ timeout: 20_000 });
      const offlineText = await down.textContent();
      expect
        .soft(offlineText)
        .toContain(
          lang === 'cs'
            ? 'Tiskárna Virtuální tiskárna štítků (ZPL) je nedostupná.'
            : 'Printer Virtual label printer (ZPL) is offline.',
        );
      await expectOnlyCatalogue(page, lang, 'queue: printer offline');
      await shot(page, 'queue-offline', lang);
      // Cancelled by the worker: the reason in natural Czech (item 14).
      const waiting = page.locator('[data-testid="queue-row"][data-state="failed"]').first();
      await waiting.getByTestId('queue-cancel').click();
      await page.getByTestId('queue-cancel-yes').click();
      await zpl.online();
      zpl.set({ paperOut: true });
      await expect.poll(() => down.textContent(), { timeout: 30_000 }).not.toBe(offlineText);
      expect
        .soft(await down.textContent())
        .toContain(
          lang === 'cs'
            ? 'Tiskárna Virtuální tiskárna štítků (ZPL) hlásí chybu.'
            : 'Printer Virtual label printer (ZPL) reports an error.',
        );
      expect.soft(await down.textContent()).not.toMatch(/je chyba|is error/);
      await expectOnlyCatalogue(page, lang, 'queue: printer error');
      await shot(page, 'queue-error', lang);
      zpl.set({ paperOut: false });
      await expect.poll(() => down.count(), { timeout: 30_000 }).toBe(0);

      // The command sheet on the office printer: its job named in the UI language (its title is the log's English).
      const sheet = await rpc.call('commands.printSheet', { language: lang });
      await page.getByTestId('queue-show-all').check();
      const rowOf = (id: number) => page.locator(`[data-testid="queue-row"][data-job-id="${id}"]`);
      expect
        .soft(await rowOf(sheet.jobId).locator('.q-what').textContent({ timeout: 20_000 }))
        .toBe(lang === 'cs' ? 'Arch příkazových kódů' : 'Command sheet');
      const jobs = await rpc.call('printing.queue.list', { limit: 50 });
      // Found by their titles: the log's English, which the screen must not show.
      const protocolJob = jobs.find((j) => j.title === `Collection protocol ${protocol!.collectionProtocolId}`)!;
      expect
        .soft(await rowOf(protocolJob.id).locator('.q-what').textContent())
        .toBe(`${lang === 'cs' ? 'Předávací protokol' : 'Collection protocol'} ${protocol!.collectionProtocolId}`);
      const testJob = jobs.find((j) => j.title.startsWith('Test print'))!;
      expect
        .soft(await rowOf(testJob.id).locator('.q-what').textContent())
        .toBe(
          lang === 'cs'
            ? 'Zkušební štítek pro Virtuální tiskárna štítků (ZPL)'
            : 'Test label for Virtual label printer (ZPL)',
        );
      const cancelled = jobs.find((j) => j.state === 'cancelled')!;
      expect
        .soft(await rowOf(cancelled.id).getByTestId('queue-reason').textContent())
        .toBe(lang === 'cs' ? 'Zrušeno obsluhou.' : 'Cancelled by you.');
      await expectOnlyCatalogue(page, lang, 'queue: all jobs');
      await shot(page, 'queue-all', lang);

      // Tracking of a code that is not found.
      await page.getByTestId('nav-tracking').click();
      await page.keyboard.type('NOPE-405');
      await page.keyboard.press('Enter');
      // The answer is on screen (the not-found message), then its words are checked.
      await expect.poll(() => page.getByTestId('tracking-message').count(), { timeout: 20_000 }).toBe(1);
      await expectOnlyCatalogue(page, lang, 'tracking');

      // Status with the camera on and no camera in this Chromium: the fault in the UI language, never
      // the browser's own "NotFoundError: Requested device not found".
      const camera = await rpc.call('camera.getSettings', {});
      await rpc.call('camera.setSettings', { ...camera, enabled: true });
      try {
        await page.reload();
        await page.getByTestId('screen-station').waitFor();
        await page.keyboard.press('F9');
        await page.locator('[data-testid="camera-status"][data-state="fault"]').waitFor({ timeout: 20_000 });
        await expectOnlyCatalogue(page, lang, 'status: no camera');
        await shot(page, 'status-no-camera', lang);
      } finally {
        await rpc.call('camera.setSettings', { ...camera, enabled: false });
      }
      await page.close();
    },
  );
});
