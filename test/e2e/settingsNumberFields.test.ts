/**
 * The Settings sections' number fields (Scale, Operators, Camera, Data kept, Metrics) in Chromium
 * through the web host at 1366×768, in English and Czech: each section as it opens, then with a
 * value out of range in every number field and Save pressed. The message is said under its field,
 * the field is marked invalid and names its message, the cursor goes to the first one, and nothing
 * is saved. Each section's picture and markup are written to test-results (FIELDS_SHOTS chooses the
 * folder) so a change of the fields' markup can be compared with the pictures from before it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { closeDesk, openDesk, screenshotsDir } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import type { HostedStation } from '../support/station';

const outDir = process.env.FIELDS_SHOTS ?? path.join(screenshotsDir, 'settings-number-fields');

type Lang = 'en' | 'cs';
interface Section {
  tab: string;
  /** Number field test id → a value out of its range, and the message each language says for it. */
  bad: Record<string, { value: string } & Record<Lang, string>>;
  /** The form's Save button. */
  save: string;
}

// Out-of-range values and the messages a worker reads (the catalogue's wording, written out here).
const sections: Section[] = [
  {
    tab: 'scale',
    save: 'scale-save',
    bad: {
      'scale-tolerance': {
        value: 'abc',
        en: 'Give the tolerance in kg, e.g. 0.05.',
        cs: 'Zadejte toleranci v kg, např. 0,05.',
      },
      'scale-ask-above': { value: '0', en: 'A whole number from 1 to 1000 %.', cs: 'Celé číslo od 1 do 1000 %.' },
      'scale-wait': { value: '121', en: 'From 1 to 120 seconds.', cs: 'Od 1 do 120 sekund.' },
    },
  },
  {
    tab: 'operators',
    save: 'desk-save',
    bad: {
      'desk-idle': { value: '481', en: 'Enter a whole number from 0 to 480.', cs: 'Zadejte celé číslo od 0 do 480.' },
    },
  },
  {
    tab: 'camera',
    save: 'camera-save',
    bad: {
      'camera-size': {
        value: '100',
        en: 'Give a size from 320 to 3840 px.',
        cs: 'Zadejte velikost od 320 do 3840 px.',
      },
      'camera-target': { value: '5', en: 'Give a size from 20 to 1000 KB.', cs: 'Zadejte velikost od 20 do 1000 kB.' },
    },
  },
  {
    tab: 'retention',
    save: 'retention-save',
    bad: {
      'retention-labels': {
        value: '3',
        en: 'Whole days: 0 (keep forever) or 7 to 3650.',
        cs: 'Celé dny: 0 (uchovávat navždy) nebo 7 až 3650.',
      },
      'retention-history': {
        value: '10',
        en: 'Whole days: 0 (keep forever) or 30 to 3650.',
        cs: 'Celé dny: 0 (uchovávat navždy) nebo 30 až 3650.',
      },
    },
  },
  {
    tab: 'metrics',
    save: 'metrics-save',
    bad: { 'metrics-port': { value: '80', en: 'A port from 1024 to 65535.', cs: 'Port od 1024 do 65535.' } },
  },
];

/** The section's markup, for a before/after comparison by eye or by diff. */
async function keepMarkup(page: Page, tab: string, name: string) {
  const html = await page.getByTestId(`settings-${tab}`).evaluate((el) => el.outerHTML);
  writeFileSync(path.join(outDir, `${name}.html`), html.replace(/></g, '>\n<'));
}

describe.skipIf(!needs('chromium'))('Settings number fields', { timeout: 180_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore() }));
    mkdirSync(outDir, { recursive: true });
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it.each(['en', 'cs'] as const)(
    '%s: a value out of range is said under its field, the cursor goes to the first one, nothing is saved',
    async (lang) => {
      await rpc.call('settings.set', { language: lang });
      // What the core holds: a refused form changes none of it.
      const saved = async () => ({
        scale: await rpc.call('scale.getSettings', {}),
        desk: (await rpc.call('settings.get', {})).desk,
        camera: await rpc.call('camera.getSettings', {}),
        retention: (await rpc.call('retention.get', {})).settings,
        metrics: (await rpc.call('metrics.get', {})).settings,
      });
      const savedBefore = await saved();
      const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
      try {
        await page.goto(hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.keyboard.press('F8');
        for (const s of sections) {
          await page.getByTestId(`settings-tab-${s.tab}`).click();
          const ids = Object.keys(s.bad);
          // The section has loaded once its number fields hold the saved values.
          await expect.poll(() => page.getByTestId(ids[0]!).inputValue(), { timeout: 10_000 }).not.toBe('');
          await page.screenshot({ path: path.join(outDir, `${s.tab}-${lang}.png`) });
          await keepMarkup(page, s.tab, `${s.tab}-${lang}`);

          for (const id of ids) await page.getByTestId(id).fill(s.bad[id]!.value);
          await page.getByTestId(s.save).click();
          for (const id of ids) {
            await expect.poll(() => page.getByTestId(`${id}-error`).textContent()).toBe(s.bad[id]![lang]);
            const field = page.getByTestId(id);
            expect(await field.getAttribute('aria-invalid')).toBe('true');
            expect(await field.getAttribute('aria-describedby')).toBe(`${id}-error`);
          }
          await expect
            .poll(() => page.evaluate<string | null>('document.activeElement?.getAttribute("data-testid") ?? null'))
            .toBe(ids[0]);
          await page.screenshot({ path: path.join(outDir, `${s.tab}-refused-${lang}.png`) });
          await keepMarkup(page, s.tab, `${s.tab}-refused-${lang}`);
        }
        expect(await saved()).toEqual(savedBefore);
      } finally {
        await page.close();
      }
    },
  );
});
