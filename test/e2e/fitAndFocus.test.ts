/**
 * What a worker reads and where the keyboard is, at 1366×768 in English and Czech: the routed
 * printer's chip with its whole offline reason and the batch hint are not cut;
 * every button shows a focus ring that stands out on it and around it; a failed save puts the
 * cursor on the first invalid field of the form, in reading order.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';

const langs = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'cs', locale: 'cs-CZ' },
] as const;

/** Elements of `selector` whose content is wider than their box, or that reach out of the window. */
function cut(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `((sel) => [...document.querySelectorAll(sel)].filter((el) => el.offsetParent).flatMap((el) => {
      const r = el.getBoundingClientRect();
      const out = [];
      if (el.scrollWidth > el.clientWidth + 1) out.push(sel + ' wider than its box: ' + el.textContent.trim());
      if (r.left < 0 || r.right > window.innerWidth || r.top < 0 || r.bottom > window.innerHeight) out.push(sel + ' outside the window: ' + el.textContent.trim());
      return out;
    }))(${JSON.stringify(selector)})`,
  );
}

/**
 * Each visible enabled button focused from the keyboard's side: its ring's colours against the
 * button's own background and against what is around it (WCAG contrast ratio). A ring is seen when
 * one of its colours has at least 3:1 against the button and one against its surroundings.
 */
function focusRings(page: Page): Promise<{ button: string; style: string; onButton: number; around: number }[]> {
  return page.evaluate(`(() => {
    const rgb = (c) => { const m = /rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?\\)/.exec(c); return m && (m[4] === undefined || Number(m[4]) > 0.5) ? [Number(m[1]), Number(m[2]), Number(m[3])] : null; };
    const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c) return c; } return [255, 255, 255]; };
    const out = [];
    for (const b of document.querySelectorAll('button')) {
      if (!b.offsetParent || b.disabled) continue;
      b.focus();
      if (!b.matches(':focus-visible')) { out.push({ button: b.dataset.testid || b.textContent.trim(), style: 'no focus-visible', onButton: 0, around: 0 }); continue; }
      const cs = getComputedStyle(b);
      const rings = [];
      if (cs.outlineStyle !== 'none' && cs.outlineStyle !== 'auto' && parseFloat(cs.outlineWidth) >= 2) rings.push(rgb(cs.outlineColor));
      for (const m of cs.boxShadow.matchAll(/rgba?\\([^)]*\\)[^,]*?(\\d+)px(?:,|$)/g)) if (parseFloat(m[1]) >= 2) rings.push(rgb(m[0]));
      const ok = rings.filter(Boolean);
      const own = rgb(cs.backgroundColor) ?? bgOf(b.parentElement);
      const around = bgOf(b.parentElement);
      out.push({
        button: b.dataset.testid || b.textContent.trim().slice(0, 40),
        style: cs.outlineStyle + ' ' + cs.outlineWidth + ' ' + cs.outlineColor + ' / ' + cs.boxShadow,
        onButton: Math.max(0, ...ok.map((c) => ratio(c, own))),
        around: Math.max(0, ...ok.map((c) => ratio(c, around))),
      });
    }
    return out;
  })()`);
}

describe.skipIf(!needs('chromium', 'keychain'))('fits at 1366×768 and shows the focus', { timeout: 120_000 }, () => {
  let d: Desk;
  beforeAll(async () => {
    d = await openDesk({ printWaitMs: 3000 });
  });
  afterAll(() => closeDesk(d));

  for (const l of langs) {
    it(`${l.lang}: the offline printer's chip with its whole reason and the batch hint fit the scan bar`, async () => {
      const page = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      const zpl = d.hs.station.printing.virtual.zpl;
      await zpl.offline();
      try {
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.keyboard.press('F5');
        await expect
          .poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed'), { timeout: 20_000 })
          .toBe('true');
        // The station learns the printer is off when it asks it: a scan's label makes it ask.
        await page.keyboard.press('F5');
        await page.keyboard.type('ORD-1001');
        await page.keyboard.press('Enter');
        await expect
          .poll(() => page.getByTestId('station-printer').first().getAttribute('data-state'), { timeout: 30_000 })
          .not.toBe('ready');
        await page.keyboard.press('Escape');
        await page.keyboard.press('F5');
        await expect
          .poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed'), { timeout: 20_000 })
          .toBe('true');
        const chip = page.getByTestId('station-printer').first();
        // The reason is said after the state, in the UI language.
        expect(await chip.innerText()).toMatch(/ — \S/);
        expect(await chip.innerText()).not.toContain('…');
        for (const sel of ['.printer-chip', '.printer-state', '.scan-hints', '.scan-hints .mode-name', '.scanbar'])
          expect(await cut(page, sel)).toEqual([]);
        await page.screenshot({ path: path.join(screenshotsDir, `station-printer-offline-batch-${l.lang}.png`) });
      } finally {
        await zpl.online();
        await page.close();
      }
    });

    it(`${l.lang}: every button shows a focus ring that stands out on the button and around it`, async () => {
      const page = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      try {
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        // The keyboard was used: focus moved by the page then shows as keyboard focus.
        await page.keyboard.press('Tab');
        const weak: string[] = [];
        for (const screen of ['F1', 'F2', 'F4', 'F6', 'F8']) {
          await page.keyboard.press(screen);
          if (screen === 'F1') {
            await page.keyboard.press('F5');
            await expect
              .poll(() => page.getByTestId('batch-toggle').getAttribute('aria-pressed'), { timeout: 20_000 })
              .toBe('true');
          }
          await page.waitForTimeout(300);
          for (const r of await focusRings(page))
            if (r.onButton < 3 || r.around < 3)
              weak.push(
                `${screen} ${r.button}: ${r.style} (${r.onButton.toFixed(1)}:1 on it, ${r.around.toFixed(1)}:1 around)`,
              );
          if (screen === 'F1') {
            await page.getByTestId('batch-toggle').focus();
            await page.screenshot({ path: path.join(screenshotsDir, `focus-ring-dark-button-${l.lang}.png`) });
            await page.keyboard.press('F5');
          }
        }
        expect(weak).toEqual([]);
      } finally {
        await page.close();
      }
    });

    it(`${l.lang}: a late frame leaves the cursor in the field the worker went on to correct`, async () => {
      const page = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      // A loaded machine: every animation frame comes 600 ms late, and the page counts those that ran.
      await page.addInitScript(`(() => {
        const raf = window.requestAnimationFrame.bind(window);
        window.__lateFrames = 0;
        window.requestAnimationFrame = (cb) => setTimeout(() => raf((t) => { window.__lateFrames++; cb(t); }), 600);
      })()`);
      try {
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.keyboard.press('F3');
        const frames = () => page.evaluate<number>('window.__lateFrames');
        const before = await frames();
        // Search refused field by field; before the frame that moves the cursor, the worker is
        // already typing the weight.
        await page.getByTestId('ns-search').click();
        const weight = page.getByTestId('ns-packages.0.weight');
        await weight.fill('2,5');
        await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(before);
        await expect
          .poll(() => page.locator('[data-testid="screen-newShipment"] [aria-invalid="true"]').count())
          .toBeGreaterThan(1);
        expect(await page.evaluate<string | null>('document.activeElement?.getAttribute("data-field") ?? null')).toBe(
          'packages.0.weight',
        );
        expect(await weight.inputValue()).toBe('2,5');
      } finally {
        await page.close();
      }
    });

    it(`${l.lang}: a failed save puts the cursor on the form's first invalid field`, async () => {
      const page = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      const firstInvalidFocused = (scope: string) =>
        page.evaluate<boolean>(
          `((scope) => { const first = document.querySelector(scope + ' [aria-invalid="true"]'); return !!first && document.activeElement === first; })(${JSON.stringify(scope)})`,
        );
      try {
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        // New shipment, nothing filled in: the transport search is refused field by field.
        await page.keyboard.press('F3');
        await page.getByTestId('ns-search').click();
        await expect
          .poll(() => page.locator('[data-testid="screen-newShipment"] [aria-invalid="true"]').count(), {
            timeout: 10_000,
          })
          .toBeGreaterThan(1);
        await expect
          .poll(() => firstInvalidFocused('[data-testid="screen-newShipment"]'), { timeout: 5000 })
          .toBe(true);
        await page.screenshot({ path: path.join(screenshotsDir, `new-shipment-first-invalid-${l.lang}.png`) });

        // Settings → Printers → add a network printer with nothing filled in.
        await page.keyboard.press('F8');
        await page.getByTestId('settings-tab-printers').click();
        await page.getByTestId('printer-add-submit').click();
        await expect.poll(() => firstInvalidFocused('[data-testid="printer-add"]'), { timeout: 5000 }).toBe(true);
        expect(await page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('pr-add-name');

        // Settings → Accounts → add a company with nothing filled in.
        await page.getByTestId('settings-tab-accounts').click();
        const submit = page.getByTestId('account-add-submit');
        if (await submit.count()) {
          await submit.click();
          await expect.poll(() => firstInvalidFocused('[data-testid="account-add"]'), { timeout: 5000 }).toBe(true);
        }
      } finally {
        await page.close();
      }
    });
  }
});
