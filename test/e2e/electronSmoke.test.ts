/**
 * The desktop app itself, driven by playwright-core's Electron support: it starts (the core in
 * its utility process), a worker scans a demo code, and the label comes out of the virtual ZPL
 * printer. Everything else about the station is tested under Node and Chromium; this is the one
 * test of the Electron shell (main process, preload, MessagePort to the core, app:// protocol).
 *
 * It needs Electron's binary, which `npm ci` downloads unless ELECTRON_SKIP_BINARY_DOWNLOAD=1 is
 * set. These machines and the CI (.ci/run) set it, as Electron's download is impossible there, so
 * the test is skipped there with a one-line reason; README "Start and test" and docs/DEVELOPING.md "Electron tests" say how to run it.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/station';

/** Electron's binary, or why there is none. */
function electronBinary(): { bin: string } | { why: string } {
  try {
    const bin = createRequire(path.join(repoRoot, 'package.json'))('electron') as unknown;
    if (typeof bin === 'string' && existsSync(bin)) return { bin };
    return { why: `Electron's binary is missing at ${String(bin)}` };
  } catch {
    return {
      why: "Electron's binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1, as on these machines and in CI, where its download is impossible)",
    };
  }
}

const electron = electronBinary();
if ('why' in electron) console.warn(`skipped: Electron smoke test: ${electron.why}`);

describe.skipIf('why' in electron)('the desktop app (Electron)', { timeout: 180_000 }, () => {
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'dist', 'electron', 'core.cjs')))
      throw new Error('Build first: node scripts/build.mjs');
    // better-sqlite3 for Electron's ABI, as `npm start` makes it (once; needs Electron's headers).
    const native = (await import(path.join(repoRoot, 'scripts', 'native-electron.mjs'))) as {
      electronBindingIsCurrent(): boolean;
      buildElectronBinding(): void;
    };
    if (!native.electronBindingIsCurrent()) native.buildElectronBinding();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-electron-'));
    app = await _electron.launch({
      executablePath: (electron as { bin: string }).bin,
      args: [repoRoot, '--data-dir', dataDir, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      env: { ...process.env, LANG: 'en_US.UTF-8' },
      timeout: 60_000,
    });
    page = await app.firstWindow();
    // The station screen, with the scanner's printer ready and the cursor in the scan box.
    await page.getByTestId('screen-station').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('station-printer').first().getAttribute('data-state'), { timeout: 30_000 })
      .toBe('ready');
    await expect
      .poll(() => page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null'))
      .toBe('scan-input');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('runs the core in its own utility process, not in the main process', async () => {
    const utility = await app.evaluate(({ app: a }) =>
      a
        .getAppMetrics()
        .filter((m) => m.type === 'Utility')
        .map((m) => m.serviceName ?? ''),
    );
    expect(utility).toContain('Label Station core');
  });

  it('a scanned demo code prints its label on the virtual ZPL printer', async () => {
    // The page's own door to the core (the preload's bridge): outcomes recorded as they are pushed.
    await page.evaluate(`(() => {
      window.__outcomes = [];
      window.stationBridge.onEvent((name, payload) => { if (name === 'scan.outcome') window.__outcomes.push(payload); });
    })()`);
    // A keyboard-wedge scanner: fast keystrokes, then Enter.
    await page.keyboard.type('ORD-1001');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 60_000 });
    const outcome = await page.evaluate<{ kind: string; shipment: { barcodes: string[] } }>(
      'window.__outcomes.find((o) => o.code === "ORD-1001")',
    );
    expect(outcome.kind).toBe('printed');
    const received = await page.evaluate<{ ok: boolean; value: { text: string | null }[] }>(
      `window.stationBridge.call('printing.printers.received', { printerId: 'virtual-zpl' })`,
    );
    expect(received.ok).toBe(true);
    expect(received.value).toHaveLength(1);
    expect(received.value[0]!.text).toContain(outcome.shipment.barcodes[0]);
    await page.screenshot({ path: path.join(repoRoot, 'test-results', 'screenshots', 'electron-printed.png') });
  });

  it('gives the page no Node and no raw IPC: only the two functions of the bridge', async () => {
    const exposed = await page.evaluate(
      `[typeof window.require, typeof window.process, typeof window.ipcRenderer, Object.keys(window.stationBridge).sort().join(',')]`,
    );
    expect(exposed).toEqual(['undefined', 'undefined', 'undefined', 'call,onEvent']);
  });
});
