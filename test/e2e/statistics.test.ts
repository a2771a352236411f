/**
 * The Statistics screen (F12) of a scripted shift (test/support/scriptedShift.ts: 100 scans by two
 * operators at known times, a refusal, an error, reprints with reasons, one with nobody signed in)
 * in Chromium through the web host at 1366×768, in Czech and English: the per-operator counts,
 * rates and step times on screen, the hourly chart drawn under the page's strict CSP, and the CSV
 * the Export button downloads, read back with csv-parse. The figures are worked out by hand from
 * the script (the integration test shiftStatistics.test.ts shows the working).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { openDatabase } from '../../electron/store/database';
import { closeDesk, openDesk, screenshotsDir } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { writeQuickParcel, writeScriptedShift } from '../support/scriptedShift';
import { needs } from '../support/services';
import type { HostedStation } from '../support/station';

const DAY = '2026-03-02';

const expected = {
  en: {
    summary: '99 parcels closed · 98 labels printed · 4 reprints',
    alena: ['Alena Dvořáková', '60', '0', '59', '59', '59', '2 (1 damaged, 1 lost)', '0', '1', '0', '59.8'],
    borek: ['Bořek Šťastný', '40', '0', '40', '39', '39', '1 (1 wrong printer)', '0', '0', '1', '41.0'],
    nobody: ['Nobody signed in', '0', '0', '0', '0', '0', '1 (1 other)', '0', '0', '0', '—'],
    total: [
      'Everyone',
      '100',
      '0',
      '99',
      '98',
      '98',
      '4 (1 damaged, 1 lost, 1 wrong printer, 1 other)',
      '0',
      '1',
      '1',
      '33.3',
    ],
    // Alena's DPD: scan → closed p50 6 s, p95 10 s; closed → queued 1.5 s; queued → printed 3 s.
    alenaDpd: ['DPD', '6.0 / 10.0', '1.5 / 1.5', '3.0 / 3.0'],
    alenaAll: ['All carriers', '5.0 / 10.0', '0.5 / 1.5', '3.0 / 3.0'],
    // Everyone, every carrier (99 closed, 98 queued and printed): scan → closed 1 s ×6, 2 s ×46, … 10 s ×6:
    // rank 50 → 2, rank 95 → 10; closed → queued 0.5 s ×30, 1 s ×39, 1.5 s ×29: rank 49 → 1, rank 94 → 1.5;
    // queued → printed 2 s ×29, 3 s ×59, 5 s ×10: rank 49 → 3, rank 94 → 5.
    everyoneAll: ['All carriers', '2.0 / 10.0', '1.0 / 1.5', '3.0 / 5.0'],
    delimiter: ',',
    point: '.',
    operatorHeader: 'Operator',
    // The short day: one parcel closed 11 ms after its scan, scanned again 5 minutes later.
    quick: ['Alena Dvořáková', '1', '1', '1', '1', '1', '0', '0', '0', '0', '—'],
    quickHint: '— : less than 15 minutes from the first scan to the last close, too little to give a pace.',
    quickDay: '03/03/2026',
  },
  cs: {
    summary: '99 zásilek uzavřeno · 98 štítků vytištěno · 4 dotisky',
    alena: ['Alena Dvořáková', '60', '0', '59', '59', '59', '2 (1 poškozený, 1 ztracený)', '0', '1', '0', '59,8'],
    borek: ['Bořek Šťastný', '40', '0', '40', '39', '39', '1 (1 špatná tiskárna)', '0', '0', '1', '41,0'],
    nobody: ['Nikdo nepřihlášen', '0', '0', '0', '0', '0', '1 (1 jiný důvod)', '0', '0', '0', '—'],
    total: [
      'Všichni',
      '100',
      '0',
      '99',
      '98',
      '98',
      '4 (1 poškozený, 1 ztracený, 1 špatná tiskárna, 1 jiný důvod)',
      '0',
      '1',
      '1',
      '33,3',
    ],
    alenaDpd: ['DPD', '6,0 / 10,0', '1,5 / 1,5', '3,0 / 3,0'],
    alenaAll: ['Všichni dopravci', '5,0 / 10,0', '0,5 / 1,5', '3,0 / 3,0'],
    everyoneAll: ['Všichni dopravci', '2,0 / 10,0', '1,0 / 1,5', '3,0 / 5,0'],
    delimiter: ';',
    point: ',',
    operatorHeader: 'Pracovník',
    quick: ['Alena Dvořáková', '1', '1', '1', '1', '1', '0', '0', '0', '0', '—'],
    quickHint: '— : od prvního skenu do posledního uzavření uběhlo méně než 15 minut, tempo z toho nelze určit.',
    quickDay: '3. 3. 2026',
  },
};

describe.skipIf(!needs('chromium'))('the Statistics screen of a 100-scan shift', { timeout: 180_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;
  let ids: { alena: number; borek: number };

  beforeAll(async () => {
    // The shift is in the station's database before the station starts (a desk that worked that day).
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-stats-'));
    const db = openDatabase(path.join(dataDir, 'station.db'));
    ids = writeScriptedShift(db, new Date(2026, 2, 2));
    writeQuickParcel(db, new Date(2026, 2, 3), { id: ids.alena, name: 'Alena Dvořáková' });
    db.close();
    ({ hs, rpc, browser } = await openDesk({ dataDir, secrets: createMemorySecretStore() }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it.each(['en', 'cs'] as const)('%s: counts, rates, step times, the chart and the CSV', async (lang) => {
    const x = expected[lang];
    await rpc.call('settings.set', { language: lang });
    const page = await browser.newPage({
      locale: 'en-US',
      viewport: { width: 1366, height: 768 },
      acceptDownloads: true,
    });
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto(hs.host.url);
    await page.getByTestId('screen-station').waitFor();
    await page.keyboard.press('F12');
    await page.getByTestId('screen-statistics').waitFor();
    // Every tab on one row, the tenth (the problem shelf) too.
    const tops = await page.locator('nav.tabs button').evaluateAll((b) => b.map((e) => e.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
    // Today by default, written as the language writes a day; the shift's day typed the same way.
    const today = new Date();
    const [d, m, y] = [today.getDate(), today.getMonth() + 1, today.getFullYear()];
    expect(await page.getByTestId('stats-from').inputValue()).toBe(
      lang === 'cs' ? `${d}. ${m}. ${y}` : `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`,
    );
    for (const id of ['stats-from', 'stats-to']) {
      await page.getByTestId(id).fill(lang === 'cs' ? '2. 3. 2026' : '02/03/2026');
      await page.getByTestId(id).press('Enter');
    }
    await expect.poll(() => page.getByTestId('stats-summary').textContent()).toBe(x.summary);

    const cells = (scope: string) =>
      page.locator(`[data-testid="stats-operator"][data-scope="${scope}"]`).locator('th, td').allTextContents();
    expect(await cells(String(ids.alena))).toEqual(x.alena);
    expect(await cells(String(ids.borek))).toEqual(x.borek);
    expect(await cells('nobody')).toEqual(x.nobody);
    expect(await cells('everyone')).toEqual(x.total);

    // The chart: an SVG with a bar per operator, and the hours' figures behind it.
    const chart = page.getByTestId('stats-chart');
    await chart.locator('svg.recharts-surface').first().waitFor();
    expect(await chart.locator('.recharts-bar-rectangle path, path.recharts-rectangle').count()).toBeGreaterThanOrEqual(
      2,
    );
    expect(await chart.locator('.recharts-legend-item-text').allTextContents()).toEqual([
      'Alena Dvořáková',
      'Bořek Šťastný',
    ]);
    const hour = (h: number) => page.locator(`[data-testid="stats-hours"] tr[data-hour="${h}"] td`).allTextContents();
    expect(await hour(8)).toEqual(['59', '0']);
    expect(await hour(9)).toEqual(['0', '0']);
    expect(await hour(10)).toEqual(['0', '40']);

    // Everyone's step times first, then Alena's.
    const stepRow = (carrier: string) =>
      page.locator(`[data-testid="stats-step-row"][data-carrier="${carrier}"]`).locator('th, td').allTextContents();
    expect(await stepRow('')).toEqual(x.everyoneAll);
    await page.getByTestId('stats-steps-of').selectOption(String(ids.alena));
    expect(await stepRow('DPD')).toEqual(x.alenaDpd);
    expect(await stepRow('')).toEqual(x.alenaAll);
    await page.screenshot({ path: path.join(screenshotsDir, `statistics-${lang}.png`) });
    await page.screenshot({ path: path.join(screenshotsDir, `statistics-${lang}-full.png`), fullPage: true });

    // The export, as the worker gets it: a downloaded file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('stats-export').click()]);
    expect(download.suggestedFilename()).toBe(`statistics-${DAY}.csv`);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse<Record<string, string>>(bytes.toString('utf8'), {
      bom: true,
      delimiter: x.delimiter,
      columns: true,
    });
    expect(rows[0]!.operator).toBe(x.operatorHeader);
    const data = rows.slice(1);
    expect(data.find((r) => r.section === 'operator' && r.operator_id === String(ids.alena))).toMatchObject({
      operator: 'Alena Dvořáková',
      parcels: '60',
      closed: '59',
      printed: '59',
      labels: '59',
      reprints_damaged: '1',
      reprints_lost: '1',
      refusals: '1',
      errors: '0',
      parcels_per_hour: `59${x.point}8`,
    });
    expect(data.find((r) => r.section === 'operator' && r.operator_id === String(ids.borek))).toMatchObject({
      operator: 'Bořek Šťastný',
      parcels: '40',
      closed: '40',
      printed: '39',
      reprints_wrong_printer: '1',
      errors: '1',
      parcels_per_hour: `41${x.point}0`,
    });
    expect(data.find((r) => r.section === 'total')).toMatchObject({
      parcels: '100',
      closed: '99',
      parcels_per_hour: `33${x.point}3`,
    });
    expect(
      data.find(
        (r) =>
          r.section === 'step' &&
          r.operator_id === String(ids.alena) &&
          r.carrier === 'DPD' &&
          r.step === 'scan_to_closed',
      ),
    ).toMatchObject({ count: '29', p50_s: `6${x.point}0`, p95_s: `10${x.point}0` });

    // The short day: one parcel and its rescan, no rate ("—" and why), the CSV's rate cell empty.
    for (const id of ['stats-from', 'stats-to']) {
      await page.getByTestId(id).fill(x.quickDay);
      await page.getByTestId(id).press('Enter');
    }
    await expect.poll(() => cells(String(ids.alena))).toEqual(x.quick);
    expect(await cells('everyone')).toEqual([x.total[0], ...x.quick.slice(1)]);
    expect(await page.getByTestId('stats-per-hour-hint').textContent()).toBe(x.quickHint);
    await page.screenshot({ path: path.join(screenshotsDir, `statistics-short-${lang}.png`) });
    const [quickCsv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('stats-export').click()]);
    const quickRows = parse<Record<string, string>>(readFileSync(await quickCsv.path()).toString('utf8'), {
      bom: true,
      delimiter: x.delimiter,
      columns: true,
    });
    expect(quickRows.find((r) => r.section === 'total')).toMatchObject({
      parcels: '1',
      rescans: '1',
      closed: '1',
      parcels_per_hour: '',
    });

    // A range the core refuses: the page says so and asks nothing; the core refuses it from anyone.
    await page.getByTestId('stats-to').fill(lang === 'cs' ? '1. 3. 2026' : '01/03/2026');
    await page.getByTestId('stats-to').press('Enter');
    await expect
      .poll(() => page.locator('.stats-message').textContent())
      .toBe(
        lang === 'cs'
          ? 'Vyberte nejvýš 31 dní, první den ne po posledním.'
          : 'Pick at most 31 days, the first not after the last.',
      );
    expect(await page.getByTestId('stats-export').isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(screenshotsDir, `statistics-bad-range-${lang}.png`) });
    await expect(rpc.call('statistics.get', { from: '2026-01-01', to: '2026-02-01' })).rejects.toThrow(/31 days/);
    await expect(rpc.call('statistics.get', { from: DAY, to: '2026-03-01' })).rejects.toThrow(/ends before/);

    expect(cspErrors).toEqual([]);
    await page.close();
  });
});
