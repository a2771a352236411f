/**
 * Proof of packing in Chromium through the web host. Chromium's fake capture device is
 * fed a YUV4MPEG2 file made here from a QR code (test/support/fakeCamera.ts): a parcel scanned on
 * the Station screen gets a stored photo that still reads as that QR code (zbarimg); 20 scans in a
 * row each get their own photo, linked to their own parcel; the proof-of-packing PDF carries the
 * photo and the label as printed (pdftoppm + zbarimg). Faults never hold a scan: no camera, the
 * permission refused and the camera unplugged mid-shift each leave the scan printed, the worker told
 * once in a notice (not on every scan's outcome) and Status saying why in the UI language, never the
 * browser's own English error. A photo lost while the camera works says "no photo" on its outcome,
 * readable on the outcome's colour. Screenshots (1366×768, English and Czech) of Settings → Camera,
 * the live preview, the shipment's detail, the PDF, the outcome and Status without a camera go to
 * test-results/screenshots.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import type { Sandbox } from '../../sandbox/index';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { launchChromium } from '../support/browser';
import { screenshotsDir } from '../support/desk';
import { writeQrY4m } from '../support/fakeCamera';
import { pdfBarcodes, pngBarcodes } from '../support/pdfBarcodes';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { insertShipments, sandboxToken } from '../support/sandboxShipments';
import { wedgeScanner } from '../support/wedgeScanner';
import { needs } from '../support/services';
import { startHostedStation, type HostedStation } from '../support/station';

const QR_TEXT = 'PROOF-OF-PACKING-DESK-7';

const langs = [
  {
    lang: 'en',
    locale: 'en-US',
    saved: 'Saved',
    noCamera: 'no camera is connected',
    status: 'No photos',
    notice: 'The parcels are not photographed',
    noPhoto: 'No photo',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    saved: 'Uloženo',
    noCamera: 'není připojena žádná kamera',
    status: 'Bez fotografií',
    notice: 'Zásilky se nefotografují',
    noPhoto: 'Bez fotografie',
  },
] as const;

/** The browser's own error texts (English whatever the UI language): never on a screen. */
const RAW_ERROR = /[A-Z][a-z]+Error|Requested device|Permission denied|mediaDevices/;

/** sRGB relative luminance (WCAG 2.1, "relative luminance"). */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
/**
 * The contrast ratio (WCAG 2.1) of an element's text against the first opaque background behind it:
 * its own, else its parents' (the outcome's green, amber or red).
 */
async function contrastOf(el: Locator): Promise<number> {
  const { text, bg } = await el.evaluate((node) => {
    const style = (n: unknown) =>
      (
        globalThis as unknown as { getComputedStyle(n: unknown): { color: string; backgroundColor: string } }
      ).getComputedStyle(n);
    let back = 'rgba(0, 0, 0, 0)';
    let n = node as { parentElement: unknown } | null;
    while (n && /, 0\)$|transparent/.test(back)) {
      back = style(n).backgroundColor;
      n = n.parentElement as typeof n;
    }
    return { text: style(node).color, bg: back };
  });
  const [hi, lo] = [luminance(text), luminance(bg)].sort((a, b) => b - a);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe.skipIf(!needs('chromium', 'zbarimg', 'pdftoppm'))('camera: proof of packing', { timeout: 300_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let tmp: string;
  let y4m: string;
  let next = 0;
  /** A parcel code nobody scanned yet (the shipments the suite put into the sandbox). */
  const fresh = () => `CAM-${++next}`;

  beforeAll(async () => {
    hs = await startHostedStation({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
    rpc = await connectRpc(hs.host);
    tmp = mkdtempSync(path.join(tmpdir(), 'camera-e2e-'));
    y4m = writeQrY4m(path.join(tmp, 'desk.y4m'), QR_TEXT);
    const sb = hs.station.sandbox as unknown as Sandbox;
    await insertShipments(sb, await sandboxToken(sb), 40, 'CAM-');
    await rpc.call('shipments.sync', {});
    mkdirSync(screenshotsDir, { recursive: true });
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const cameraOn = () =>
    rpc.call('camera.setSettings', {
      enabled: true,
      deviceId: '',
      deviceLabel: '',
      sizePx: 1280,
      targetKb: 100,
      photoAtPrint: false,
    });

  async function openPage(browser: Browser, locale: string): Promise<Page> {
    const page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    await page.goto(hs.host.url);
    await page.getByTestId('scan-input').waitFor();
    return page;
  }
  /** The width of the picture a video element shows (0 until its first frame). */
  const videoWidth = (page: Page, testId: string) =>
    page.getByTestId(testId).evaluate((v) => (v as unknown as { videoWidth: number }).videoWidth);
  async function scan(page: Page, code: string) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }
  const outcomeOf = (code: string) => rpc.waitFor('scan.outcome', (o) => o.code === code, 60_000);
  const deliveryOf = (o: ScanOutcome) => ('shipment' in o ? o.shipment.deliveryId : 0);
  /** The parcel's photos once its photo arrived (it follows the scan's outcome). */
  async function photosOf(deliveryId: number, n = 1) {
    for (let i = 0; i < 200; i++) {
      const list = await rpc.call('camera.photos', { deliveryId });
      if (list.length >= n) return list;
      await new Promise((r) => setTimeout(r, 100));
    }
    return rpc.call('camera.photos', { deliveryId });
  }
  const qrOfPhoto = async (id: number) =>
    pngBarcodes(Buffer.from((await rpc.call('camera.photo', { id })).jpeg, 'base64'));
  const barcodesOf = async (deliveryId: number) =>
    (await rpc.call('shipments.get', { deliveryId }))!.packages.map((p) => p.barcode).filter((b): b is string => !!b);
  /** The PDF's first page as a PNG for a person to look at. */
  function pdfShot(pdf: Buffer, name: string) {
    const dir = mkdtempSync(path.join(tmp, 'pdf-'));
    writeFileSync(path.join(dir, 'p.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      '80',
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      path.join(dir, 'p.pdf'),
      path.join(dir, 'page'),
    ]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
    writeFileSync(path.join(screenshotsDir, name), readFileSync(path.join(dir, png)));
  }

  describe('with the fake camera showing a QR code', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium({
        args: [
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-video-capture=${y4m}`,
        ],
      });
    });
    afterAll(() => browser?.close());

    for (const l of langs) {
      it(`${l.lang}: Settings → Camera, the live corner, a parcel's photo (the QR code reads), its detail and its proof PDF`, async () => {
        await rpc.call('settings.set', { language: l.lang });
        await rpc.call('camera.setSettings', { ...(await rpc.call('camera.getSettings', {})), enabled: false });
        const page = await openPage(browser, l.locale);
        await page.keyboard.press('F8');
        await page.getByTestId('settings-tab-camera').click();
        await page.getByTestId('camera-enabled').check();
        await page.getByTestId('camera-save').click();
        await page.getByTestId('camera-result').filter({ hasText: l.saved }).waitFor();
        await page.locator('[data-testid="camera-state"][data-state="live"]').waitFor({ timeout: 20_000 });
        await expect.poll(() => videoWidth(page, 'camera-settings-video'), { timeout: 20_000 }).toBeGreaterThan(0);
        expect((await rpc.call('camera.getSettings', {})).enabled).toBe(true);
        await page.screenshot({ path: path.join(screenshotsDir, `camera-settings-${l.lang}.png`) });

        await page.keyboard.press('F1');
        await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor();
        await expect.poll(() => videoWidth(page, 'camera-live'), { timeout: 20_000 }).toBeGreaterThan(0);
        await page.screenshot({ path: path.join(screenshotsDir, `camera-preview-${l.lang}.png`) });

        const code = fresh();
        const outcome = outcomeOf(code);
        await page.getByTestId('scan-input').focus();
        await scan(page, code);
        const o = await outcome;
        expect(o.kind).toBe('printed');
        const deliveryId = deliveryOf(o);
        const photos = await photosOf(deliveryId);
        expect(photos.map((p) => [p.scanId, p.kind])).toEqual([[o.scanId, 'scan']]);
        // The fake camera's frames are 640×480: never enlarged to the 1280 px setting.
        expect([photos[0]!.width, photos[0]!.height]).toEqual([640, 480]);
        expect(await qrOfPhoto(photos[0]!.id)).toEqual([QR_TEXT]);
        await expect(page.getByTestId('no-photo').count()).resolves.toBe(0);

        // The shipment's detail: the photo with its time and desk; the proof PDF from there.
        await page.keyboard.press('F2');
        await page.getByTestId('shipment-row').first().waitFor();
        // A scan on Shipments finds the parcel and selects its row. Outside a scan box the page
        // tells a scan by its keys' pace: a wedge scanner's time stamps, not keys typed one by one
        // by a loaded test process (once the row was never selected).
        await (await wedgeScanner(page)).scan(code);
        const detail = page.getByTestId('shipment-detail');
        await page
          .locator(`[data-testid="shipment-row"][data-delivery-id="${deliveryId}"][aria-selected="true"]`)
          .waitFor();
        await page.getByTestId('action-detail').click();
        await expect.poll(() => detail.getAttribute('aria-label'), { timeout: 20_000 }).toContain(String(deliveryId));
        await page.locator('[data-testid="detail-photo"] img').waitFor();
        await page.getByTestId('detail-photos').scrollIntoViewIfNeeded();
        expect(await page.getByTestId('detail-photo').getAttribute('data-scan-id')).toBe(String(o.scanId));
        await page.screenshot({ path: path.join(screenshotsDir, `camera-detail-${l.lang}.png`) });
        const download = page.waitForEvent('download');
        await page.getByTestId('detail-proof').click();
        const file = path.join(tmp, `proof-${l.lang}.pdf`);
        await (await download).saveAs(file);
        const pdf = readFileSync(file);
        const codes = pdfBarcodes(pdf, 300);
        expect(codes).toContain(QR_TEXT);
        expect(codes).toEqual(expect.arrayContaining(await barcodesOf(deliveryId)));
        pdfShot(pdf, `camera-proof-${l.lang}.png`);
        await page.close();
      });
    }

    it('20 scans in a row: each parcel gets one photo, of its own scan', async () => {
      await rpc.call('settings.set', { language: 'en' });
      await cameraOn();
      const page = await openPage(browser, 'en-US');
      await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor({ timeout: 20_000 });
      // "live" comes with the stream, its first picture later (a busy machine: seconds later). A
      // scan before it has no picture to take and is rightly marked "no photo": the worker scans
      // once the corner shows the desk.
      await expect.poll(() => videoWidth(page, 'camera-live'), { timeout: 20_000 }).toBeGreaterThan(0);
      const codes = Array.from({ length: 20 }, fresh);
      const outcomes = Promise.all(codes.map(outcomeOf));
      for (const c of codes) await scan(page, c);
      const done = await outcomes;
      for (const o of done) {
        expect(o.kind).toBe('printed');
        const photos = await photosOf(deliveryOf(o));
        expect(photos.map((p) => p.scanId)).toEqual([o.scanId]);
      }
      // Every photo is a picture of the desk (the QR code reads).
      for (const o of done.slice(0, 3)) {
        const [photo] = await rpc.call('camera.photos', { deliveryId: deliveryOf(o) });
        expect(await qrOfPhoto(photo!.id)).toEqual([QR_TEXT]);
      }
      await expect(page.getByTestId('no-photo').count()).resolves.toBe(0);

      // Several parcels at once from the Shipments screen: one PDF, a page for each.
      await page.keyboard.press('F2');
      const rows = page.getByTestId('shipment-row');
      await rows.nth(2).waitFor();
      await rows.nth(0).click();
      await rows.nth(1).click({ modifiers: ['Control'] });
      await rows.nth(2).click({ modifiers: ['Control'] });
      await page.getByTestId('action-proof').filter({ hasText: '3 parcels' }).waitFor();
      // Each parcel's label preview is rendered again for its page: a few seconds each on a busy machine.
      const download = page.waitForEvent('download', { timeout: 90_000 });
      await page.getByTestId('action-proof').click();
      const file = path.join(tmp, 'proof-3.pdf');
      await (await download).saveAs(file);
      const pages =
        readFileSync(file)
          .toString('latin1')
          .match(/\/Type \/Page\b/g) ?? [];
      expect(pages.length).toBe(3);
      await page.close();
    });

    it("a photo goes to the station only after its scan's label left, and after the label of a scan sent after it", async () => {
      await rpc.call('settings.set', { language: 'en' });
      await cameraOn();
      const page = await openPage(browser, 'en-US');
      await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor({ timeout: 20_000 });
      await expect.poll(() => videoWidth(page, 'camera-live'), { timeout: 20_000 }).toBeGreaterThan(0);
      // What the printer holds when each photo reaches the station: both happen in this process, so
      // this is their order, not a time.
      const zpl = hs.station.printing.virtual.zpl;
      const atPhoto: { scanId: number; printed: string[] }[] = [];
      const server = hs.station.rpc;
      const dispatch = server.dispatch.bind(server);
      server.dispatch = (method, params) => {
        if (method === 'camera.savePhoto')
          atPhoto.push({ scanId: (params as { scanId: number }).scanId, printed: zpl.printed().map((l) => l.zpl) });
        return dispatch(method, params);
      };
      try {
        // The service takes 0.7 s to close each: the scans are in flight long after their stills are ready.
        await fetch(`${hs.station.sandbox.url}/_sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: '/api/v3/deliveries', method: 'PATCH', latencyMs: 700, count: 2 }),
        });
        const codes = [fresh(), fresh()];
        const outcomes = Promise.all(codes.map(outcomeOf));
        for (const c of codes) await scan(page, c);
        const done = await outcomes;
        for (const o of done) expect((await photosOf(deliveryOf(o))).map((p) => p.scanId)).toEqual([o.scanId]);
        expect(atPhoto.map((p) => p.scanId).sort()).toEqual(done.map((o) => o.scanId).sort());
        // Each photo came after every label of both parcels was at the printer: the first parcel's
        // photo waited for the second scan too (a photo never goes ahead of a scan).
        const barcodes = (await Promise.all(done.map((o) => barcodesOf(deliveryOf(o))))).flat();
        expect(barcodes.length).toBeGreaterThanOrEqual(2);
        for (const p of atPhoto)
          for (const b of barcodes)
            expect(
              p.printed.some((label) => label.includes(b)),
              `${b} before photo of scan ${p.scanId}`,
            ).toBe(true);
      } finally {
        server.dispatch = dispatch;
      }
      await page.close();
    });

    for (const l of langs)
      it(`${l.lang}: a photo the station could not store: its outcome says no photo, readable on the outcome's colour`, async () => {
        await rpc.call('settings.set', { language: l.lang });
        await cameraOn();
        const page = await openPage(browser, l.locale);
        await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor({ timeout: 20_000 });
        await expect.poll(() => videoWidth(page, 'camera-live'), { timeout: 20_000 }).toBeGreaterThan(0);
        // The photos' folder replaced by a file: the camera works, the station cannot keep its photo.
        const photos = path.join(hs.dataDir, 'photos');
        renameSync(photos, `${photos}.aside`);
        writeFileSync(photos, 'not a folder');
        try {
          const code = fresh();
          const outcome = outcomeOf(code);
          await scan(page, code);
          const o = await outcome;
          expect(o.kind).toBe('printed');
          const note = page.locator(
            `[data-testid="scan-outcome"][data-scan-id="${o.scanId}"] [data-testid="no-photo"]`,
          );
          await note.waitFor({ timeout: 20_000 });
          expect(await note.textContent()).toBe(l.noPhoto);
          // WCAG 2.1 AA asks 4.5:1 of normal text: on the printed green here.
          expect(await contrastOf(note)).toBeGreaterThanOrEqual(4.5);
          await expect(page.getByTestId('camera-notice').count()).resolves.toBe(0);
          await page.screenshot({ path: path.join(screenshotsDir, `camera-outcome-no-photo-${l.lang}.png`) });
        } finally {
          rmSync(photos, { force: true });
          renameSync(`${photos}.aside`, photos);
        }
        await page.close();
      });

    it('the camera unplugged mid-shift: the scan is printed, a notice says so once, Status says why', async () => {
      await rpc.call('settings.set', { language: 'en' });
      await cameraOn();
      const page = await openPage(browser, 'en-US');
      await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor({ timeout: 20_000 });
      // What the browser does when the device goes away (Media Capture and Streams,
      // https://www.w3.org/TR/mediacapture-streams/#track-ended, w3c/mediacapture-main getusermedia.html):
      // "A MediaStreamTrack object is said to end when the source of the track is disconnected or
      // exhausted", e.g. "a video track in a MediaStream ends when the user unplugs the USB web camera
      // that acts as the track's media source"; then "When a MediaStreamTrack track ends for any reason
      // other than the stop() method being invoked, the User Agent MUST queue a task that runs the
      // following steps": set its readyState to "ended", notify its source (which stops unless other
      // tracks use it), "Fire an event named ended at the object". stop() does the first two and fires
      // nothing (its own steps have no event); the dispatch is the third, in the same task as a user
      // agent's would be.
      await page.evaluate(`(() => {
        const track = document.querySelector('[data-testid="camera-live"]').srcObject.getVideoTracks()[0];
        track.stop();
        track.dispatchEvent(new Event('ended'));
      })()`);
      await page.locator('[data-testid="camera-corner"][data-state="fault"]').waitFor();
      const code = fresh();
      const outcome = outcomeOf(code);
      await scan(page, code);
      const o = await outcome;
      expect(o.kind).toBe('printed');
      // Said once, when it went: the notice; the scan's outcome does not repeat it.
      await page.getByTestId('camera-notice').filter({ hasText: 'the camera was unplugged' }).waitFor();
      await page.locator(`[data-testid="scan-outcome"][data-scan-id="${o.scanId}"]`).waitFor();
      await expect(page.getByTestId('no-photo').count()).resolves.toBe(0);
      expect(await rpc.call('camera.photos', { deliveryId: deliveryOf(o) })).toEqual([]);
      await page.keyboard.press('F9');
      await page.locator('[data-testid="camera-status"][data-state="fault"]', { hasText: 'unplugged' }).waitFor();
      // Status counts the photos the data folder holds (counted here on the disk).
      const onDisk = readdirSync(path.join(hs.dataDir, 'photos'), { recursive: true }).filter((f) =>
        String(f).endsWith('.jpg'),
      ).length;
      expect(onDisk).toBeGreaterThanOrEqual(20);
      await page
        .getByTestId('retention-photos')
        .filter({ hasText: `of which ${onDisk} camera photos` })
        .waitFor();
      await page.screenshot({ path: path.join(screenshotsDir, 'camera-status-photos-en.png') });
      await page.close();
    });
  });

  for (const c of [
    { name: 'no camera at all', args: ['--use-fake-ui-for-media-stream'], state: 'no_camera' },
    {
      name: 'the permission refused',
      args: [
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=PLACEHOLDER`,
        '--deny-permission-prompts',
      ],
      state: 'denied',
    },
  ] as const) {
    it(`${c.name}: scans go on and print, a notice says why once (not each outcome), Status keeps saying it`, async () => {
      const browser = await launchChromium({ args: c.args.map((a) => a.replace('PLACEHOLDER', y4m)) });
      try {
        for (const l of langs) {
          await rpc.call('settings.set', { language: l.lang });
          await cameraOn();
          const page = await openPage(browser, l.locale);
          await page.locator('[data-testid="camera-corner"][data-state="fault"]').waitFor({ timeout: 20_000 });
          // Told once, when the camera is found missing, in the UI language.
          const notice = page.getByTestId('camera-notice');
          await notice.waitFor();
          expect(await notice.textContent()).toContain(l.notice);
          if (c.state === 'no_camera') expect(await notice.textContent()).toContain(l.noCamera);
          for (let i = 0; i < 3; i++) {
            // After two scans with the notice up, the worker closes it: it does not come back with the next scan.
            if (i === 2) {
              await page.getByTestId('camera-notice-close').click();
              await expect(notice.count()).resolves.toBe(0);
              // The scan box takes the focus back (a hand-typed code goes there, whatever the pace).
              await expect
                .poll(() => page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null'))
                .toBe('scan-input');
            }
            const code = fresh();
            const outcome = outcomeOf(code);
            await scan(page, code);
            const o = await outcome;
            expect(o.kind).toBe('printed');
            await page.locator(`[data-testid="scan-outcome"][data-scan-id="${o.scanId}"]`).waitFor();
            // The outcome does not repeat it.
            await expect(page.getByTestId('no-photo').count()).resolves.toBe(0);
            await expect(notice.count()).resolves.toBe(i < 2 ? 1 : 0);
            expect(await rpc.call('camera.photos', { deliveryId: deliveryOf(o) })).toEqual([]);
            if (i === 0 && c.state === 'no_camera')
              await page.screenshot({ path: path.join(screenshotsDir, `camera-outcome-no-camera-${l.lang}.png`) });
          }
          await page.keyboard.press('F9');
          const status = page.locator('[data-testid="camera-status"][data-state="fault"]', { hasText: l.status });
          await status.waitFor();
          if (c.state === 'no_camera') expect(await status.textContent()).toContain(l.noCamera);
          // Chromium's "NotFoundError: Requested device not found" is English: Status says the catalogue's text.
          expect(await page.locator('main').innerText()).not.toMatch(RAW_ERROR);
          if (c.state === 'no_camera')
            await page.screenshot({ path: path.join(screenshotsDir, `camera-status-no-camera-${l.lang}.png`) });
          await page.close();
        }
      } finally {
        await browser.close();
      }
    });
  }
});
