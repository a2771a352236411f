/**
 * Command barcodes and reprint reasons in Chromium through the web host, in English and Czech at
 * 1366×768. The command sheet is opened from Settings → Scanner and printed to the office printer
 * (the virtual PDF printer); its PDF is rendered with pdftoppm and every barcode decoded with
 * zbarimg; each decoded code is then typed at a scanner's pace (test/support/wedgeScanner.ts) with
 * the focus on the language dropdown, and must do what its key does. Every reprint asks why: the
 * reason (and the words for "other") is recorded, Esc prints nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipment } from '../integration/api/support';
import { launchChromium } from '../support/browser';
import { pdfBarcodes } from '../support/pdfBarcodes';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';
import { wedgeScanner, type WedgeScanner } from '../support/wedgeScanner';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
const DONE = ['printed', 'queued', 'printer_down'];

describe.each([
  {
    lang: 'en',
    locale: 'en-US',
    sheetName: 'Reprint the last label',
    question: 'Why print it again?',
    batchOn: 'Command: batch mode on',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    sheetName: 'Vytisknout poslední štítek znovu',
    question: 'Proč tisknout znovu?',
    batchOn: 'Příkaz: hromadný režim zapnut',
  },
])('command barcodes ($lang)', ({ lang, locale, sheetName, question, batchOn }) => {
  describe.skipIf(!needs('chromium', 'keychain', 'pdftoppm', 'zbarimg'))('in Chromium', { timeout: 180_000 }, () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let page: Page;
    let scanner: WedgeScanner;
    /** The codes decoded from the printed sheet, by what they are named on it. */
    const codes: Record<string, string> = {};

    const shot = (name: string) => page.screenshot({ path: path.join(shots, `commands-${lang}-${name}.png`) });
    const outcomeOf = (code: string, kind?: string) =>
      rpc.waitFor('scan.outcome', (o) => o.code === code && (!kind || o.kind === kind), 30_000);
    /** The scanner types `code` while the language dropdown has the focus (not the scan box). */
    const scanElsewhere = async (code: string) => {
      await page.getByTestId('language').focus();
      await scanner.scan(code);
    };
    const note = () => page.getByTestId('command-note');
    const noteOf = async (command: string, tone: string) => {
      await page.waitForSelector(`[data-testid="command-note"][data-command="${command}"][data-tone="${tone}"]`);
      return (await note().textContent()) ?? '';
    };
    const hideNote = async () => {
      if (await note().count()) await note().click();
      await expect.poll(() => note().count()).toBe(0);
    };
    const since = new Date(Date.now() - 60_000);
    const actions = () => hs.station.deps.repos.deskActions.between(since, new Date(Date.now() + 60_000));

    beforeAll(async () => {
      hs = await startHostedStation({ printWaitMs: 5000 });
      rpc = await connectRpc(hs.host);
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
      page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
      scanner = await wedgeScanner(page);
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
    });
    afterAll(async () => {
      await browser?.close();
      rpc?.close();
      await hs?.close();
    });

    it('Settings → Scanner opens the command sheet; printed, its PDF holds the sixteen codes, named in the UI language', async () => {
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-tab-scanner').click();
      await page.getByTestId('command-sheet-open').click();
      // Three pages: the problem shelf's and the packages' codes follow the first six.
      await page.getByTestId('command-sheet-page').nth(2).waitFor();
      expect(await page.getByTestId('command-sheet-page').count()).toBe(3);
      await shot('sheet-dialog');
      const pdfs = hs.station.printing.virtual.pdf;
      const before = pdfs.received().length;
      await page.getByTestId('command-sheet-print').click();
      await expect.poll(() => pdfs.received().length, { timeout: 20_000 }).toBe(before + 1);
      const pdf = readFileSync(path.join(pdfs.folder, pdfs.received().at(-1)!.name));
      const decoded = pdfBarcodes(pdf);
      expect(decoded).toHaveLength(16);
      for (const c of decoded) codes[c.replace('!LS-', '')] = c;
      expect(Object.keys(codes).sort()).toEqual(
        [
          'BATCH_TOGGLE',
          'CANCEL_PARCEL',
          'CLOSE_ALL',
          'NEXT_PACKAGE',
          'REPRINT_LAST',
          'SIGN_OUT',
          'HOLD_MISSING_ITEM',
          'HOLD_DAMAGED',
          'HOLD_WRONG_ADDRESS',
          'HOLD_OTHER',
          'PACKAGES_OPEN',
          'PACKAGE_ADD',
          'PACKAGE_REMOVE',
          'PACKAGE_WEIGH',
          'PACKAGES_SPLIT',
          'PACKAGES_SEND',
        ].sort(),
      );
      const text = execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
      expect(text).toContain(sheetName);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('command-sheet').count()).toBe(0);
      await page.getByTestId('nav-station').click();
      await page.getByTestId('screen-station').waitFor();
    });

    it('reprint last label: the reason is asked; a reason reprints and is recorded, Esc prints nothing', async () => {
      const first = outcomeOf('ORD-1001');
      await scanElsewhere('ORD-1001');
      expect(DONE).toContain((await first).kind);
      const lastJob = (await rpc.call('scan.recent', {})).labels[0]!.jobId;

      await scanElsewhere(codes.REPRINT_LAST!);
      await page.getByTestId('reprint-why').waitFor();
      expect(await page.getByTestId('reprint-why').textContent()).toContain(question);
      await shot('reason-question');
      // A parcel scanned while the question is open is a scan, not an answer: its first digit picks nothing.
      const other = outcomeOf('1003');
      await scanner.scan('1003');
      await other;
      expect(await page.getByTestId('reprint-why').isVisible()).toBe(true);
      expect(actions().filter((a) => a.action === 'reprint')).toHaveLength(0);
      await page.keyboard.press('2');
      expect(await noteOf('reprint_last', 'ok')).toContain(String(lastJob));
      const reprint = actions().filter((a) => a.action === 'reprint');
      expect(reprint).toHaveLength(1);
      expect(reprint[0]).toMatchObject({ reasonCode: 'lost', note: null });
      await hideNote();

      const jobsBefore = (await rpc.call('scan.recent', {})).labels.map((l) => l.jobId);
      await scanElsewhere(codes.REPRINT_LAST!);
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('Escape');
      await noteOf('reprint_last', 'none');
      expect(await page.getByTestId('reprint-why').count()).toBe(0);
      expect(actions().filter((a) => a.action === 'reprint')).toHaveLength(1);
      expect((await rpc.call('scan.recent', {})).labels.map((l) => l.jobId)).toEqual(jobsBefore);
      await hideNote();
    });

    it('the keys the codes stand for: Ctrl+P asks why before a reprint (Esc: nothing), Ctrl+Delete has nothing to cancel', async () => {
      await page.getByTestId('scan-input').focus();
      await page.keyboard.press('Control+p');
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('Escape');
      await noteOf('reprint_last', 'none');
      await hideNote();
      await page.keyboard.press('Control+Delete');
      await noteOf('cancel_parcel', 'none');
      await hideNote();
    });

    it('cancel the parcel in progress: its label waiting for the printer is cancelled and never prints; then nothing to cancel', async () => {
      const zpl = hs.station.printing.virtual.zpl;
      const printedBefore = zpl.printed().length;
      await zpl.offline();
      try {
        const waiting = outcomeOf('ORD-1002');
        await scanElsewhere('ORD-1002');
        expect(['printer_down', 'queued']).toContain((await waiting).kind);
        await page.keyboard.press('Escape');
        await scanElsewhere(codes.CANCEL_PARCEL!);
        expect(await noteOf('cancel_parcel', 'ok')).toContain('ORD-1002');
        const cancelled = actions().filter((a) => a.action === 'parcel_cancelled');
        expect(cancelled).toHaveLength(1);
        expect(hs.station.printing.queue.get(cancelled[0]!.jobId!).state).toBe('cancelled');
        await shot('cancelled');
        await hideNote();
      } finally {
        await zpl.online();
      }
      await scanElsewhere(codes.CANCEL_PARCEL!);
      await noteOf('cancel_parcel', 'none');
      await hideNote();
      // Back online, the cancelled label stays unprinted.
      await new Promise((r) => setTimeout(r, 2000));
      expect(zpl.printed().length).toBe(printedBefore);
    });

    it('batch on, close all, batch off, skip weighing (nothing on the scale), sign out, and an unknown code refused', async () => {
      await scanElsewhere(codes.BATCH_TOGGLE!);
      expect(await noteOf('batch_toggle', 'ok')).toBe(batchOn);
      await expect.poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed')).toBe('true');
      await hideNote();
      await scanElsewhere('ORD-1005');
      await page.getByTestId('batch-last').waitFor();
      await scanElsewhere(codes.CLOSE_ALL!);
      await noteOf('close_all', 'ok');
      await page.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
      await shot('batch-closed');
      await hideNote();
      await scanElsewhere(codes.BATCH_TOGGLE!);
      await noteOf('batch_toggle', 'ok');
      await expect.poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed')).toBe('false');
      await hideNote();
      await scanElsewhere(codes.CLOSE_ALL!);
      await noteOf('close_all', 'none');
      await hideNote();

      await scanElsewhere(codes.NEXT_PACKAGE!);
      await noteOf('next_package', 'none');
      await hideNote();
      // Sign out: a worker signed in by badge is signed out by the command, recorded as such.
      await rpc.call('operators.save', { name: 'Zdeňka Šťastná', badge: '!LS-OP-ZDENKA' });
      await rpc.call('operators.signInBadge', { code: '!LS-OP-ZDENKA' });
      await page.getByTestId('operator-pill').filter({ hasText: 'Zdeňka Šťastná' }).waitFor();
      await scanElsewhere(codes.SIGN_OUT!);
      await noteOf('sign_out', 'ok');
      expect((await rpc.call('operators.who', {})).operator).toBeNull();
      expect(
        actions()
          .filter((a) => a.action === 'sign_out')
          .map((a) => a.reasonCode),
      ).toEqual(['command']);
      await hideNote();
      await scanElsewhere('!LS-SELF_DESTRUCT');
      expect(await noteOf('unknown', 'bad')).toContain('!LS-SELF_DESTRUCT');
      await shot('unknown');
      await hideNote();

      // None of the desk codes was journalled as a parcel's scan.
      const s = hs.station.deps.session()!;
      const scanned = hs.station.deps.repos.journal.latestScans(s.accountId, 50).map((x) => x.code);
      expect(scanned).toContain('ORD-1001');
      expect(scanned.filter((c) => c.startsWith('!LS-'))).toEqual([]);
    });

    it('the already-closed question: Enter asks why; "other" takes words (recorded); Esc on the reason prints nothing and the question stays', async () => {
      const before = actions().filter((a) => a.action === 'reprint').length;
      await page.getByTestId('scan-input').focus();
      // The events seen so far stay in the socket's record: only a newer scan's question counts.
      const newest = Math.max(...(await rpc.call('scan.recent', {})).scans.map((x) => x.scanId));
      const asked = rpc.waitFor(
        'scan.outcome',
        (o) => o.code === 'ORD-1001' && o.kind === 'already_closed' && o.scanId > newest,
        60_000,
      );
      await scanner.scan('ORD-1001');
      const q = await asked;
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="already_closed"]');
      await page.keyboard.press('Enter');
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('4');
      await page.getByTestId('reprint-why-note').waitFor();
      // Typed at a person's pace: a burst at a scanner's pace ending with Enter would be a scan.
      await scanner.byHand(lang === 'cs' ? 'roztržený páskou' : 'torn by the tape');
      await shot('reason-other');
      const printed = rpc.waitFor('scan.outcome', (o) => o.scanId === q.scanId && o.kind === 'printed', 60_000);
      await scanner.byHand('\n');
      expect(await printed).toMatchObject({ kind: 'printed', reprint: true });
      const rows = actions().filter((a) => a.action === 'reprint');
      expect(rows).toHaveLength(before + 1);
      expect(rows.at(-1)).toMatchObject({
        reasonCode: 'other',
        note: lang === 'cs' ? 'roztržený páskou' : 'torn by the tape',
      });

      const askedAgain = rpc.waitFor(
        'scan.outcome',
        (o) => o.code === 'ORD-1001' && o.kind === 'already_closed' && o.scanId > q.scanId,
        60_000,
      );
      await scanner.scan('ORD-1001');
      await askedAgain;
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="already_closed"]');
      const jobsBefore = (await rpc.call('scan.recent', {})).labels.map((l) => l.jobId);
      await page.keyboard.press('Enter');
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('reprint-why').count()).toBe(0);
      // Still asked: the reprint was cancelled, not the question.
      expect(await page.locator('[data-testid="scan-outcome"][data-kind="already_closed"]').count()).toBe(1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(actions().filter((a) => a.action === 'reprint')).toHaveLength(before + 1);
      expect((await rpc.call('scan.recent', {})).labels.map((l) => l.jobId)).toEqual(jobsBefore);
      await page.keyboard.press('Escape');
    });

    it('an order number from the service that reads as a command (`]C1!LS-SIGN_OUT`) is named when scanned, and nothing is done', async () => {
      // Inserted straight at the service, as an e-shop would (the station's New shipment refuses it).
      const session = hs.station.deps.session()!;
      const externalId = ']C1!LS-SIGN_OUT';
      await session.client.insertDeliveries([{ ...shipment(), externalId }]);
      await rpc.call('shipments.sync', {});
      await expect
        .poll(async () => (await rpc.call('shipments.query', { text: 'SIGN_OUT', limit: 5, offset: 0 })).total, {
          timeout: 30_000,
        })
        .toBe(1);
      const worker = await rpc.call('operators.save', {
        name: 'Šárka Nováčková',
        badge: `!LS-OP-SARKA-${lang}`,
        pin: null,
      });
      await rpc.call('operators.signInBadge', { code: `!LS-OP-SARKA-${lang}` });
      await hideNote();
      const scansBefore = hs.station.deps.repos.journal.latestScans(session.accountId, 1)[0]?.scanId ?? 0;

      await scanElsewhere(externalId);
      const text = await noteOf('sign_out', 'bad');
      expect(text).toContain(lang === 'cs' ? 'číslo objednávky' : 'order number');
      await shot('order-number-reads-as-command');
      // Not signed out, and not taken as a parcel either.
      expect((await rpc.call('operators.who', {})).operator?.id).toBe(worker.id);
      expect(hs.station.deps.repos.journal.latestScans(session.accountId, 1)[0]?.scanId ?? 0).toBe(scansBefore);

      // The Shipments screen names it with the code as stored, and its Select opens it to close there.
      await page.getByTestId('nav-shipments').click();
      const named = page.getByTestId('desk-code-shipments');
      await named.waitFor({ timeout: 20_000 });
      const namedText = (await named.textContent()) ?? '';
      expect(namedText).toContain(lang === 'cs' ? 'číslo objednávky ]C1!LS-SIGN_OUT' : 'order number ]C1!LS-SIGN_OUT');
      expect(namedText).toContain(lang === 'cs' ? 'Uzavřít a tisknout' : 'Close and print');
      await shot('shipments-names-desk-code-order');
      const item = named.locator('li').filter({ hasText: ']C1!LS-SIGN_OUT' });
      const id = Number(await item.getAttribute('data-delivery-id'));
      await item.getByRole('button').click();
      await expect
        .poll(() => page.getByTestId('shipment-detail').getAttribute('aria-label'), { timeout: 20_000 })
        .toContain(String(id));
      await page.getByTestId('nav-station').click();
      await rpc.call('operators.signOut', {});
    });
  });
});
