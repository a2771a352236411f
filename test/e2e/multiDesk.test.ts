/**
 * Two desks of one company on one sandbox in Chromium, each station with its own data folder and
 * virtual printers (issue 44):
 * - End of day: a parcel on the protocol the other desk made is not listed here when the screen
 *   opens (the station reads the protocols, spec "GET /api/v2/collection-protocols");
 * - a parcel whose label waits at the first desk's printer, scanned at the second: the second desk
 *   says it cannot see whether the label was printed there or still waits there (the service has no
 *   record of who fetched or printed labels: spec "Label, trace, protocol and place records"), and
 *   the first desk's waiting copy prints when its printer is back, as docs/DESKS.md says;
 * - a desk whose close was cut off while another desk closed and printed the parcel: its label is
 *   held for the worker, and the Station screen and the print queue say so.
 *
 * Demo shipments (sandbox/domain/demo.ts): ORD-1001 and ORD-1002 are NP from WH-PRAHA, ORD-1005 is
 * PPR from WH-BRNO.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { launchChromium } from '../support/browser';
import { startFlakyProxy, type FlakyProxy } from '../support/flakyProxy';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
const rendererDir = process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer');

/** The scan's outcome as the core told it. */
async function scanned(rpc: RpcSocket, code: string, match: (o: ScanOutcome) => boolean = () => true) {
  const { scanId } = await rpc.call('scan.submit', { code });
  return rpc.waitFor('scan.outcome', (o) => o.scanId === scanId && match(o), 30_000);
}

/** The state on screen in English, then in Czech (the station's language setting), then back. */
async function shotBoth(page: Page, rpc: RpcSocket, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shots, `${name}-en.png`) });
  await rpc.call('settings.set', { language: 'cs' });
  await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain('Stanice');
  await page.screenshot({ path: path.join(shots, `${name}-cs.png`) });
  await rpc.call('settings.set', { language: 'en' });
  await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain('Station');
}

describe.skipIf(!needs('chromium'))('two desks of one company in Chromium', { timeout: 120_000 }, () => {
  let browser: Browser;
  let sb: Sandbox;
  let first: HostedStation;
  let second: HostedStation;
  let rpc1: RpcSocket;
  let rpc2: RpcSocket;
  /** A third desk reaching the service through a proxy that can cut its network. */
  let proxy: FlakyProxy;
  let third: HostedStation;
  let rpc3: RpcSocket;
  const networkOfThird = { down: false };

  beforeAll(async () => {
    if (!existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`no renderer in ${rendererDir}`);
    mkdirSync(shots, { recursive: true });
    browser = await launchChromium();
    sb = await startSandbox({ port: 0 });
    first = await startHostedStation({ sandbox: sb, printWaitMs: 5000 });
    second = await startHostedStation({ sandbox: sb, printWaitMs: 5000 });
    rpc1 = await connectRpc(first.host);
    rpc2 = await connectRpc(second.host);
    expect((await rpc1.call('shipments.sync', {})).phase).toBe('done');
    expect((await rpc2.call('shipments.sync', {})).phase).toBe('done');
    proxy = await startFlakyProxy(sb.url);
    proxy.decide = () => (networkOfThird.down ? 'reset' : 'pass');
    third = await startHostedStation({ sandbox: { url: proxy.url, demo: sb.demo }, printWaitMs: 5000 });
    rpc3 = await connectRpc(third.host);
    expect((await rpc3.call('shipments.sync', {})).phase).toBe('done');
  });
  afterAll(async () => {
    rpc1?.close();
    rpc2?.close();
    rpc3?.close();
    await third?.close();
    await proxy?.close();
    await first?.close();
    await second?.close();
    await sb?.close();
    await browser?.close();
  });

  it('End of day: the protocol one desk made takes its parcels off the other desk’s list, whichever desk closed them', async () => {
    expect((await scanned(rpc1, 'ORD-1001')).kind).toBe('printed');
    expect((await scanned(rpc2, 'ORD-1002')).kind).toBe('printed');
    const made = await rpc1.call('endOfDay.createProtocol', { carrier: 'NP', collectionPlace: 'WH-PRAHA' });
    expect(made.protocol.deliveryIds).toHaveLength(2);

    const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await page.goto(second.host.url);
    await page.getByTestId('screen-station').waitFor();
    await page.keyboard.press('F6');
    await page.getByTestId('screen-endOfDay').waitFor();
    // The list the worker reads at the second desk: nothing waits for NP at WH-PRAHA.
    await page.getByTestId('eod-candidates-empty').waitFor();
    expect(await page.locator('[data-testid="eod-candidate"][data-carrier="NP"]').count()).toBe(0);
    expect(await page.getByTestId('screen-endOfDay').textContent()).toContain('made here or at another desk');
    await shotBoth(page, rpc2, 'multiDesk-endOfDay');
    await page.close();
  });

  it('a label waiting at one desk’s printer: the other desk says it cannot see it; the waiting copy prints when that printer is back', async () => {
    const printer1 = first.station.printing.virtual.zpl;
    await printer1.offline();
    const atFirst = await scanned(rpc1, 'ORD-1005');
    expect(atFirst.kind).toBe('printer_down');

    const page2 = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await page2.goto(second.host.url);
    await page2.getByTestId('scan-input').waitFor({ state: 'visible' });
    await page2.keyboard.type('ORD-1005');
    await page2.keyboard.press('Enter');
    const prompt = await rpc2.waitFor('scan.outcome', (o) => o.code === 'ORD-1005', 30_000);
    expect(prompt).toMatchObject({ kind: 'already_closed', closedElsewhere: true });
    const note = page2.getByTestId('closed_elsewhere');
    await note.waitFor();
    // Not "was not printed" alone: the worker is told this desk cannot see the other desk's printer.
    expect(await note.textContent()).toContain('cannot see whether it was printed there or still waits');
    await shotBoth(page2, rpc2, 'multiDesk-closedElsewhere');

    // The worker reprints it here (Enter, then why: 3 wrong printer).
    const printedAtSecond = second.station.printing.virtual.zpl.printed().length;
    await page2.keyboard.press('Enter');
    await page2.getByTestId('reprint-why').waitFor();
    await page2.keyboard.press('3');
    await rpc2.waitFor('scan.outcome', (o) => o.code === 'ORD-1005' && o.kind === 'printed', 30_000);
    expect(second.station.printing.virtual.zpl.printed()).toHaveLength(printedAtSecond + 1);
    await page2.close();

    // The first desk's printer is back: the service never told it, so its waiting label prints too.
    const before = printer1.printed().length;
    await printer1.online();
    await expect.poll(() => printer1.printed().length, { timeout: 30_000 }).toBe(before + 1);
  });

  it('a close cut off while another desk closed and printed the parcel: held for the worker, said on the screen and in the print queue', async () => {
    const code = 'ORD-1003';
    const page3 = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await page3.goto(third.host.url);
    await page3.getByTestId('scan-input').waitFor({ state: 'visible' });
    networkOfThird.down = true;
    await page3.keyboard.type(code);
    await page3.keyboard.press('Enter');
    await rpc3.waitFor('scan.outcome', (o) => o.code === code && o.kind === 'service_unreachable', 30_000);
    expect((await scanned(rpc2, code)).kind).toBe('printed');

    // The third desk's network is back: it finds the parcel closed and holds its label.
    networkOfThird.down = false;
    const held = await rpc3.waitFor('scan.outcome', (o) => o.code === code && o.kind === 'printer_down', 60_000);
    expect(held).toMatchObject({ reason: { code: 'held_closed_elsewhere' } });
    await page3.getByTestId('held_closed_elsewhere').waitFor();
    expect(await page3.getByTestId('held_closed_elsewhere').textContent()).toContain(
      'held in the print queue (F4) and does not print by itself',
    );
    expect(third.station.printing.virtual.zpl.printed()).toEqual([]);
    await shotBoth(page3, rpc3, 'multiDesk-held');
    await page3.keyboard.press('F4');
    await page3.getByTestId('screen-queue').waitFor();
    await expect
      .poll(() => page3.getByTestId('screen-queue').textContent())
      .toContain('Held: the parcel was found closed');
    // Its button asks the worker to print it, not to retry a failure.
    expect(await page3.getByTestId('queue-retry').first().textContent()).toBe('Print it');
    await shotBoth(page3, rpc3, 'multiDesk-held-queue');
    await page3.close();
  });
});
