/**
 * The parcel's audit trail on the Shipments screen and the trail's CSV, in Chromium through the web
 * host at 1366×768, in English and Czech: Jana scans ORD-1001 (closed, printed, its label checked),
 * Petr reprints it (damaged), Jana reprints it (other: her words), then a reprint from the queue
 * with nobody signed in. The detail lists each step translated (no raw code) with its operator
 * ("nobody signed in"), desk and printer; "Export trail…" downloads a CSV (UTF-8 with BOM) that
 * csv-parse reads back with the same steps.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { defaultScaleSettings } from '../../shared/contract/scale';
import { closeDesk, openDesk, screenshotsDir } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import type { HostedStation } from '../support/station';

const waitUntil = async (check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.skipIf(!needs('chromium'))('the audit trail of a parcel on screen and as CSV', { timeout: 180_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;
  const here = os.hostname();

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 }));
    const db = new Database(path.join(hs.dataDir, 'station.db'));
    const add = db.prepare('INSERT INTO operators (name, badge, created_at) VALUES (?, ?, ?)');
    const now = new Date().toISOString();
    const jana = { id: Number(add.run('Jana Nováková', 'OP-1', now).lastInsertRowid), name: 'Jana Nováková' };
    const petr = { id: Number(add.run('Petr Dvořák', 'OP-2', now).lastInsertRowid), name: 'Petr Dvořák' };
    db.close();
    const { deps, printing } = hs.station;

    await rpc.call('scale.setSettings', { ...defaultScaleSettings, verifyLabels: true });
    deps.desk.signIn(jana);
    await rpc.call('scan.submit', { code: 'ORD-1001' });
    const printed = await rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001' && o.kind === 'printed', 30_000);
    const deliveryId = 'shipment' in printed && printed.shipment ? printed.shipment.deliveryId : 1001;
    const barcode = (await rpc.call('verify.expecting', {}))!.barcodes[0]!;
    await rpc.call('verify.check', { code: barcode });
    deps.desk.signOut();

    // The queue's reprint records its reason with whoever is signed in (the reprint question's answer).
    const reprint = async (jobId: number, why: { code: 'damaged' | 'lost' | 'other'; note?: string }) => {
      const copy = await rpc.call('printing.queue.reprint', { jobId, why });
      await waitUntil(() => printing.queue.get(copy.id).state === 'done');
      return copy.id;
    };
    const first = (await rpc.call('printing.queue.list', { limit: 50 })).find((j) =>
      j.deliveryIds.includes(deliveryId),
    )!;
    deps.desk.signIn(petr);
    const copy1 = await reprint(first.id, { code: 'damaged' });
    deps.desk.signOut();
    deps.desk.signIn(jana);
    const copy2 = await reprint(copy1, { code: 'other', note: 'Štítek se roztrhl' });
    deps.desk.signOut();
    await reprint(copy2, { code: 'lost' });
    // Jana scans the closed parcel again and skips the reprint (Esc): a rescan, in the trail too.
    deps.desk.signIn(jana);
    await rpc.call('scan.submit', { code: 'ORD-1001' });
    const again = await rpc.waitFor(
      'scan.outcome',
      (o) => o.code === 'ORD-1001' && o.kind === 'already_closed',
      30_000,
    );
    await rpc.call('scan.skip', { scanId: again.scanId });
    deps.desk.signOut();
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  const texts = {
    en: {
      steps: [
        'Scanned',
        'Close sent to the service',
        'Closed at the service',
        'Labels ready, handed to the print queue',
        'Print',
        'Label checked: the right parcel',
        'Reprint asked',
        'Reprint from the print queue',
        'Labels ready, handed to the print queue',
        'Print',
        'Reprint asked',
        'Reprint from the print queue',
        'Labels ready, handed to the print queue',
        'Print',
        'Reprint asked',
        'Reprint from the print queue',
        'Labels ready, handed to the print queue',
        'Print',
        'Scanned',
        'Scanned again: already closed',
      ],
      rescan: 'skipped, nothing printed',
      delimiter: ',',
      nobody: 'nobody signed in',
      printed: 'Virtual label printer (ZPL) · Printed',
      damaged: 'damaged label',
      other: 'other reason · „Štítek se roztrhl“',
      scanned: 'code ORD-1001',
      time: /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/,
      done: /^audit-trail_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv: \d+ steps$/,
    },
    cs: {
      steps: [
        'Naskenováno',
        'Uzavření odesláno službě',
        'Uzavřeno ve službě',
        'Štítky připraveny, předány tiskové frontě',
        'Tisk',
        'Štítek zkontrolován: správný balík',
        'Požadován nový tisk',
        'Nový tisk z tiskové fronty',
        'Štítky připraveny, předány tiskové frontě',
        'Tisk',
        'Požadován nový tisk',
        'Nový tisk z tiskové fronty',
        'Štítky připraveny, předány tiskové frontě',
        'Tisk',
        'Požadován nový tisk',
        'Nový tisk z tiskové fronty',
        'Štítky připraveny, předány tiskové frontě',
        'Tisk',
        'Naskenováno',
        'Naskenována znovu: už uzavřena',
      ],
      rescan: 'přeskočena, nic se netisklo',
      delimiter: ';',
      nobody: 'nikdo nepřihlášen',
      printed: 'Virtuální tiskárna štítků (ZPL) · Vytištěno',
      damaged: 'poškozený štítek',
      other: 'jiný důvod · „Štítek se roztrhl“',
      scanned: 'kód ORD-1001',
      time: /^\d{1,2}\. \d{1,2}\. \d{4} \d{1,2}:\d{2}:\d{2}$/,
      done: /^audit-trail_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv: \d+ kroků$/,
    },
  };
  const J = 'Jana Nováková';
  const P = 'Petr Dvořák';

  it.each(['en', 'cs'] as const)('%s: the detail lists every step, who and where; the CSV downloads', async (lang) => {
    const x = texts[lang];
    await rpc.call('settings.set', { language: lang });
    const page = await browser.newPage({
      locale: 'en-US',
      viewport: { width: 1366, height: 768 },
      acceptDownloads: true,
    });
    await page.goto(hs.host.url);
    await page.getByTestId('screen-station').waitFor();
    await page.keyboard.press('F2');
    await page.locator('[data-testid="shipment-row"][data-delivery-id="1001"]').dblclick();
    const trail = page.getByTestId('detail-trail');
    await trail.getByTestId('trail-step').first().waitFor({ timeout: 20_000 });
    await trail.scrollIntoViewIfNeeded();

    const steps = await trail.getByTestId('trail-step-name').allTextContents();
    expect(steps).toEqual(x.steps);
    const who = await trail.getByTestId('trail-step-who').allTextContents();
    expect(who).toEqual([J, J, J, J, J, J, P, P, P, P, J, J, J, J, x.nobody, x.nobody, x.nobody, x.nobody, J, J]);
    expect(new Set(await trail.getByTestId('trail-step-desk').allTextContents())).toEqual(new Set([here]));
    const rows = trail.getByTestId('trail-step');
    const details = async (i: number) => (await rows.nth(i).getByTestId('trail-step-details').textContent()) ?? '';
    expect(await details(0)).toBe(x.scanned);
    expect((await details(4)).startsWith(`${x.printed} · `)).toBe(true);
    expect(await details(6)).toBe(
      `${lang === 'cs' ? 'Virtuální tiskárna štítků (ZPL)' : 'Virtual label printer (ZPL)'} · ${x.damaged}`,
    );
    expect((await details(10)).endsWith(`· ${x.other}`)).toBe(true);
    expect(await details(18)).toBe(x.scanned);
    expect(await details(19)).toBe(x.rescan);
    const times = await rows.locator('td:first-child').allTextContents();
    for (const t of times) expect(t.trim()).toMatch(x.time);
    // No raw code on screen.
    const all = (await trail.textContent()) ?? '';
    expect(all).not.toMatch(/label_queued|close_requested|print_asked|_/);
    await page.screenshot({ path: path.join(screenshotsDir, `parcel-trail-${lang}.png`) });
    await trail.getByTestId('trail-step').last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotsDir, `parcel-trail-end-${lang}.png`) });

    // Export trail: this month by default; the file arrives as a download.
    await page.getByTestId('trail-export-open').click();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('trail-download').click();
    const download = await downloading;
    await expect.poll(async () => (await page.getByTestId('trail-export-note').textContent()) ?? '').toMatch(x.done);
    await page.screenshot({ path: path.join(screenshotsDir, `parcel-trail-export-${lang}.png`) });
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Czech: a semicolon between fields, as the statistics' CSV.
    const csv = parse<Record<string, string>>(bytes.toString('utf8'), {
      bom: true,
      columns: true,
      delimiter: x.delimiter,
    });
    const mine = csv.filter((r) => r.delivery_id === '1001');
    expect(mine.map((r) => r.step)).toEqual([
      'scanned',
      'close_requested',
      'closed',
      'label_queued',
      'print',
      'label_verified',
      'reprint',
      'print_asked_reprint',
      'label_queued',
      'print',
      'reprint',
      'print_asked_reprint',
      'label_queued',
      'print',
      'reprint',
      'print_asked_reprint',
      'label_queued',
      'print',
      'scanned',
      'ended',
    ]);
    expect(mine.map((r) => r.operator)).toEqual([J, J, J, J, J, J, P, P, P, P, J, J, J, J, '', '', '', '', J, J]);
    expect(mine.at(-1)).toMatchObject({ outcome: 'already_closed', reason: 'skipped' });
    expect(mine.filter((r) => r.step === 'reprint').map((r) => [r.reason, r.note])).toEqual([
      ['damaged', ''],
      ['other', 'Štítek se roztrhl'],
      ['lost', ''],
    ]);
    expect(mine.filter((r) => r.step === 'print').map((r) => [r.printer, r.outcome])).toEqual(
      Array.from({ length: 4 }, () => ['Virtual label printer (ZPL)', 'done']),
    );
    await page.close();
  });
});
