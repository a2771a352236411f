/**
 * A model-based test of the packing desk: fast-check draws random sequences of desk events (scans,
 * double scans, rescans answered with Enter or Esc, the printer switched off and on, Ctrl+Delete,
 * Ctrl+P with a reason, a waiting label moved to a second printer in the print queue, log out/in,
 * the service refusing the saved login, a worker's badge signing in and out, a batch closed with
 * Ctrl+Enter, the camera turned on with none connected, page reloads, restarts of the core on the
 * same data folder) and plays them as a worker would, keys into the station page in Chromium
 * through the loopback web host, against the real core, its embedded sandbox over HTTP and two
 * printers (the virtual ZPL printer and a second real TCP listener). After each step the station is
 * let settle (polled over RPC, never a fixed sleep) and what the worker sees and what came out of
 * the printers is checked against the core and the model.
 *
 * Fixed seed and a bounded number of runs in CI; on demand: DESK_MODEL_SEED=random (or a number),
 * DESK_MODEL_RUNS=N, DESK_MODEL_STEPS=N.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { printerSettings } from '../../shared/contract/printing';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../electron/printing/virtualZplPrinter';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const rendererDir = process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer');

/** Demo shipments that close and print without a question (sandbox/domain/demo.ts); ORD-1002 has 3 packages. */
const CODES = ['ORD-1001', 'ORD-1002', 'ORD-1003', 'ORD-1004', 'ORD-1006', 'ORD-1007'] as const;

const seedEnv = process.env.DESK_MODEL_SEED;
const SEED = seedEnv === 'random' ? Math.floor(Math.random() * 0x7fffffff) : seedEnv ? Number(seedEnv) : 20261129;
const RUNS = Number(process.env.DESK_MODEL_RUNS ?? 10);
/** The second label printer (a Zebra on its own TCP port), and the worker whose badge signs her in. */
const SPARE = { id: 'spare', name: 'Náhradní Zebra' };
const WORKER = { name: 'Zdeňka Šťastná', badge: '!LS-OP-ZDENKA' };
/** Chromium grants the page the camera without asking, and has none: the camera is missing. */
const NO_CAMERA = ['--use-fake-ui-for-media-stream'];
const STEPS = Number(process.env.DESK_MODEL_STEPS ?? 20);

// ---------------------------------------------------------------- the rig

/** The station under test, the page, and what the printer listener received over every restart. */
class Rig {
  hs!: HostedStation;
  rpc!: RpcSocket;
  page!: Page;
  /** The second label printer: a TCP listener of its own, switched on for the whole run. */
  spare!: VirtualZplPrinter;
  /** Labels (their ZPL) received by printer listeners of earlier cores of this run. */
  private earlier: string[] = [];

  constructor(private readonly browser: Browser) {}

  async start(dataDir?: string): Promise<void> {
    this.hs = await startHostedStation({ printWaitMs: 1500, ...(dataDir ? { dataDir } : {}) });
    this.rpc = await connectRpc(this.hs.host);
    if (!dataDir) await this.setUpDesk();
    this.page ??= await this.browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await this.open();
  }

  /** What the desk has set up before the shift (kept in its data folder over restarts). */
  private async setUpDesk(): Promise<void> {
    this.spare = await startVirtualZplPrinter();
    await this.rpc.call('printing.printers.save', {
      id: SPARE.id,
      name: SPARE.name,
      connection: { kind: 'zpl-tcp', host: this.spare.host, port: this.spare.port },
      settings: printerSettings.parse({ hostStatus: true }),
    });
    await this.rpc.call('operators.save', WORKER);
  }

  async open(): Promise<void> {
    await this.page.goto(this.hs.host.url);
    await this.page.getByTestId('scan-input').waitFor({ state: 'visible' });
    await expect
      .poll(() => this.page.evaluate('document.activeElement?.getAttribute("data-testid")'))
      .toBe('scan-input');
  }

  async restartCore(): Promise<void> {
    this.earlier.push(...this.printedZpl());
    const dataDir = this.hs.dataDir;
    this.rpc.close();
    await this.hs.close();
    await this.start(dataDir);
  }

  printedZpl(): string[] {
    return this.hs.station.printing.virtual.zpl.printed().map((l) => l.zpl);
  }

  /** How many labels with this package barcode came out of either printer (every core of this run). */
  printedCount(barcode: string): number {
    const spare = this.spare.printed().map((l) => l.zpl);
    return [...this.earlier, ...this.printedZpl(), ...spare].filter((z) => z.includes(barcode)).length;
  }

  async close(): Promise<void> {
    await this.page?.close();
    this.rpc?.close();
    await this.hs?.close();
    await this.spare?.close();
  }

  /** A keyboard-wedge scanner: the code's keystrokes, then Enter, into whatever has the focus. */
  async scan(code: string): Promise<void> {
    await this.page.keyboard.type(code);
    await this.page.keyboard.press('Enter');
  }

  /** The scan.outcome for `code` pushed after `after` outcomes had been seen. */
  outcome(code: string, after: number, match: (o: ScanOutcome) => boolean = () => true): Promise<ScanOutcome> {
    return this.rpc.waitFor(
      'scan.outcome',
      (o) => o.code === code && this.rpc.events('scan.outcome').indexOf(o) >= after && match(o),
      30_000,
    );
  }
  seen(): number {
    return this.rpc.events('scan.outcome').length;
  }
}

// ---------------------------------------------------------------- the model

/** What a step did, for DESK_MODEL_TRACE=1. */
const trace = (line: string) => void (process.env.DESK_MODEL_TRACE && console.log(line));

interface Parcel {
  /** 0 until the service closed it (a scan made while logged out waits for the login). */
  deliveryId: number;
  barcodes: string[];
  /** Scans the model made of it (each one a step of its trail). */
  scans: number;
  /** Reprints the worker asked for. */
  reprints: number;
  /** Its first labels were cancelled before they printed (Ctrl+Delete). */
  cancelled: boolean;
}

interface Model {
  printerOn: boolean;
  /** The desk can use its login: false after a log out, or once the service refused the saved login. */
  loggedIn: boolean;
  /** The worker signed in with her badge. */
  signedIn: boolean;
  /** The camera is turned on in Settings, and none is connected. */
  cameraOn: boolean;
  parcels: Map<string, Parcel>;
  /** The code of the newest scan the worker made. */
  last: string | null;
}

type Cmd = fc.AsyncCommand<Model, Rig>;

function parcelOf(o: ScanOutcome): { deliveryId: number; barcodes: string[] } | null {
  if ('shipment' in o && o.shipment && 'barcodes' in o.shipment)
    return { deliveryId: o.shipment.deliveryId, barcodes: o.shipment.barcodes };
  return null;
}

class ScanPrepared implements Cmd {
  constructor(readonly code: string) {}
  check = (m: Readonly<Model>) => m.loggedIn && !m.parcels.has(this.code);
  async run(m: Model, r: Rig) {
    const after = r.seen();
    await r.scan(this.code);
    const o = await r.outcome(this.code, after);
    const p = parcelOf(o);
    if (!p) throw new Error(`${this.code}: a prepared parcel answered ${o.kind}`);
    m.parcels.set(this.code, { ...p, scans: 1, reprints: 0, cancelled: false });
    m.last = this.code;
  }
  toString = () => `scan ${this.code}`;
}

class DoubleScan implements Cmd {
  constructor(readonly code: string) {}
  check = (m: Readonly<Model>) => m.loggedIn && !m.parcels.has(this.code);
  async run(m: Model, r: Rig) {
    const after = r.seen();
    // The scanner read the label twice: the same code twice, as fast as the keys go.
    await r.scan(this.code);
    await r.scan(this.code);
    const o = await r.outcome(this.code, after, (x) => parcelOf(x) !== null);
    const p = parcelOf(o)!;
    m.parcels.set(this.code, { ...p, scans: 2, reprints: 0, cancelled: false });
    m.last = this.code;
    // A second read that asks "already closed" is left for the worker: Esc (no second label).
    await settle(m, r);
    const q = await r.rpc.call('scan.question', {});
    if (q?.kind === 'already_closed') {
      await r.page.keyboard.press('Escape');
      await r.page.waitForSelector(`[data-testid="scan-outcome"][data-kind="skipped"][data-scan-id="${q.scanId}"]`);
    }
  }
  toString = () => `double scan ${this.code}`;
}

class Rescan implements Cmd {
  constructor(
    readonly code: string,
    readonly reprint: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.loggedIn && (m.parcels.get(this.code)?.deliveryId ?? 0) > 0;
  async run(m: Model, r: Rig) {
    const after = r.seen();
    await r.scan(this.code);
    const asked = await r.outcome(this.code, after);
    if (asked.kind !== 'already_closed') throw new Error(`rescan of closed ${this.code} answered ${asked.kind}`);
    await r.page.waitForSelector(
      `[data-testid="scan-outcome"][data-kind="already_closed"][data-scan-id="${asked.scanId}"]`,
    );
    const p = m.parcels.get(this.code)!;
    p.scans += 1;
    m.last = this.code;
    if (this.reprint) {
      await r.page.keyboard.press('Enter');
      // Every reprint says why first (1: damaged label).
      await r.page.getByTestId('reprint-why').waitFor();
      await r.page.keyboard.press('1');
      await r.page.waitForSelector(
        `[data-testid="scan-outcome"][data-scan-id="${asked.scanId}"]:not([data-kind="already_closed"])`,
      );
      p.reprints += 1;
    } else {
      await r.page.keyboard.press('Escape');
      await r.page.waitForSelector(`[data-testid="scan-outcome"][data-kind="skipped"][data-scan-id="${asked.scanId}"]`);
    }
  }
  toString = () => `rescan ${this.code} then ${this.reprint ? 'Enter (reprint)' : 'Esc'}`;
}

class PrinterOff implements Cmd {
  check = (m: Readonly<Model>) => m.printerOn;
  async run(m: Model, r: Rig) {
    await r.hs.station.printing.virtual.zpl.offline();
    m.printerOn = false;
  }
  toString = () => 'printer off';
}

class PrinterOn implements Cmd {
  check = (m: Readonly<Model>) => !m.printerOn;
  async run(m: Model, r: Rig) {
    await r.hs.station.printing.virtual.zpl.online();
    m.printerOn = true;
  }
  toString = () => 'printer on';
}

class CancelLast implements Cmd {
  check = (m: Readonly<Model>) => m.last !== null;
  async run(m: Model, r: Rig) {
    const jobsBefore = await r.rpc.call('printing.queue.list', { limit: 500 });
    const p = m.parcels.get(m.last!)!;
    const waiting = jobsBefore.filter(
      (j) => j.deliveryIds.includes(p.deliveryId) && !['done', 'cancelled', 'sent', 'sending'].includes(j.state),
    );
    await r.page.keyboard.press('Control+Delete');
    if (waiting.length === 0) return;
    // The worker sees the cancel happen: the jobs that waited end cancelled in the queue.
    await expect
      .poll(async () => {
        const jobs = await r.rpc.call('printing.queue.list', { limit: 500 });
        return waiting.every((w) => jobs.find((j) => j.id === w.id)?.state === 'cancelled');
      })
      .toBe(true);
    if (p.reprints === 0) p.cancelled = true;
  }
  toString = () => 'Ctrl+Delete';
}

/** The Settings screen's Accounts tab, the demo company's row. */
async function accountRow(r: Rig) {
  await r.page.getByTestId('nav-settings').click();
  await r.page.getByTestId('settings-tab-accounts').click();
  return r.page.getByTestId('account-row').first();
}
async function backToStation(r: Rig) {
  await r.page.getByTestId('nav-station').click();
  await r.page.getByTestId('scan-input').waitFor({ state: 'visible' });
}

class LogOut implements Cmd {
  check = (m: Readonly<Model>) => m.loggedIn;
  async run(m: Model, r: Rig) {
    const row = await accountRow(r);
    await row.getByTestId('account-logout').click();
    await expect.poll(() => row.getAttribute('data-login')).toBe('logged-out');
    await backToStation(r);
    m.loggedIn = false;
  }
  toString = () => 'log out';
}

class LogIn implements Cmd {
  check = (m: Readonly<Model>) => !m.loggedIn;
  async run(m: Model, r: Rig) {
    // The same company: a refresh token obtained by hand (spec "Access to resources" 4), pasted.
    const sb = r.hs.station.sandbox;
    const res = await fetch(`${sb.url}/_sandbox/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope }),
    });
    const token = ((await res.json()) as { refresh_token: string }).refresh_token;
    const row = await accountRow(r);
    await row.getByTestId('account-paste-token').click();
    await row.getByTestId('account-token-input').fill(token);
    await row.getByTestId('account-token-submit').click();
    await expect.poll(() => row.getAttribute('data-login')).toBe('logged-in');
    await backToStation(r);
    m.loggedIn = true;
  }
  toString = () => 'log in (the same company)';
}

class ScanLoggedOut implements Cmd {
  constructor(readonly code: string) {}
  check = (m: Readonly<Model>) => !m.loggedIn && !m.parcels.has(this.code);
  async run(m: Model, r: Rig) {
    const after = r.seen();
    await r.scan(this.code);
    await r.outcome(this.code, after);
    // It waits for the login; what it closes as is learnt once it has run.
    m.parcels.set(this.code, { deliveryId: 0, barcodes: [], scans: 1, reprints: 0, cancelled: false });
    m.last = this.code;
  }
  toString = () => `scan ${this.code} while logged out`;
}

class Reload implements Cmd {
  check = () => true;
  async run(_m: Model, r: Rig) {
    await r.page.reload();
    await r.page.getByTestId('scan-input').waitFor({ state: 'visible' });
  }
  toString = () => 'reload the page';
}

class RestartCore implements Cmd {
  check = () => true;
  async run(m: Model, r: Rig) {
    await r.restartCore();
    // A new core's virtual printer starts switched on, the demo company is logged in afresh at
    // every start (electron/auth/demoAccount.ts), and nobody is signed in at the desk.
    m.printerOn = true;
    m.loggedIn = true;
    m.signedIn = false;
  }
  toString = () => 'restart the core';
}

class ReprintLast implements Cmd {
  check = (m: Readonly<Model>) => m.parcels.size > 0;
  async run(m: Model, r: Rig) {
    // The desk's last label, as the core keeps it: the parcel it belongs to gets a second one.
    const last = (await r.rpc.call('scan.recent', {})).labels[0];
    const job = last
      ? (await r.rpc.call('printing.queue.list', { limit: 500 })).find((j) => j.id === last.jobId)
      : null;
    const p = [...m.parcels.values()].find((x) => x.deliveryId > 0 && job?.deliveryIds.includes(x.deliveryId));
    await r.page.keyboard.press('Control+p');
    await r.page.getByTestId('reprint-why').waitFor();
    // Every reprint says why first (2: label lost).
    await r.page.keyboard.press('2');
    const note = r.page.locator('[data-testid="command-note"][data-command="reprint_last"]');
    await note.waitFor();
    const tone = await note.getAttribute('data-tone');
    if (p && tone === 'ok') p.reprints += 1;
    trace(`  reprint last: ${tone}, job ${last?.jobId ?? '-'}`);
    await note.click();
    await expect.poll(() => note.count()).toBe(0);
  }
  toString = () => 'Ctrl+P, reason 2 (reprint the last label)';
}

class MoveWaiting implements Cmd {
  check = (m: Readonly<Model>) => !m.printerOn && m.parcels.size > 0;
  async run(_m: Model, r: Rig) {
    // The worker opens the print queue and sends the first label waiting for the desk printer to the second one.
    await r.page.getByTestId('nav-queue').click();
    await r.page.getByTestId('screen-queue').waitFor();
    const row = r.page
      .locator(`[data-testid="queue-row"]:not([data-printer-id="${SPARE.id}"])`)
      .filter({ has: r.page.getByTestId('queue-move') })
      .first();
    if ((await row.count()) > 0) {
      const id = await row.getAttribute('data-job-id');
      await row.getByTestId('queue-move').selectOption(SPARE.id);
      trace(`  moved job ${id}`);
      await expect
        .poll(async () => (await r.rpc.call('printing.queue.list', { limit: 500 })).find((j) => String(j.id) === id))
        .toMatchObject({ printerId: SPARE.id });
    }
    await backToStation(r);
  }
  toString = () => 'move a waiting label to the second printer (print queue)';
}

class LoginRejected implements Cmd {
  check = (m: Readonly<Model>) => m.loggedIn;
  async run(m: Model, r: Rig) {
    // The company withdrew the station's access at the service: every token of it is refused.
    const sb = r.hs.station.sandbox;
    const res = await fetch(`${sb.url}/_sandbox/permissions/withdraw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: sb.demo.clientId, username: sb.demo.username }),
    });
    expect(res.ok).toBe(true);
    m.loggedIn = false;
  }
  toString = () => 'the service refuses the saved login';
}

class BadgeIn implements Cmd {
  check = (m: Readonly<Model>) => !m.signedIn;
  async run(m: Model, r: Rig) {
    await r.scan(WORKER.badge);
    await expect.poll(() => r.page.getByTestId('operator-pill').textContent()).toContain(WORKER.name);
    m.signedIn = true;
  }
  toString = () => 'badge: the worker signs in';
}

class SignOut implements Cmd {
  check = (m: Readonly<Model>) => m.signedIn;
  async run(m: Model, r: Rig) {
    await r.page.getByTestId('operator-sign-out').click();
    await expect.poll(() => r.page.getByTestId('operator-pill').getAttribute('data-operator-id')).toBe('');
    m.signedIn = false;
  }
  toString = () => 'Sign out';
}

class BatchClose implements Cmd {
  constructor(readonly codes: readonly string[]) {}
  check = (m: Readonly<Model>) => m.loggedIn && this.codes.every((c) => !m.parcels.has(c));
  async run(m: Model, r: Rig) {
    // F5: batch mode; the parcels collected; Ctrl+Enter closes them all; F5 again: single scans.
    await r.page.keyboard.press('F5');
    await r.page.locator('section.batch').waitFor();
    for (const c of this.codes) {
      await r.scan(c);
      await r.page.waitForSelector(`[data-testid="batch-items"] li[data-code="${c}"]`);
    }
    const items = (await r.rpc.call('batch.items', {})).items;
    await r.page.keyboard.press('Control+Enter');
    await r.page.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
    for (const c of this.codes) {
      const deliveryId = items.find((i) => i.code === c)?.deliveryId;
      const s = deliveryId ? await r.rpc.call('shipments.get', { deliveryId }) : null;
      if (!s) throw new Error(`batch: ${c} is no shipment`);
      const barcodes = s.packages.map((x) => x.barcode).filter((b): b is string => !!b);
      m.parcels.set(c, { deliveryId: s.deliveryId, barcodes, scans: 1, reprints: 0, cancelled: false });
    }
    await r.page.keyboard.press('F5');
    await r.page.locator('section.batch').waitFor({ state: 'detached' });
  }
  toString = () => `batch: ${this.codes.join(', ')}, Ctrl+Enter`;
}

class CameraMissing implements Cmd {
  check = (m: Readonly<Model>) => !m.cameraOn;
  async run(m: Model, r: Rig) {
    // Turned on in Settings → Camera, with no camera connected to the computer.
    await r.page.getByTestId('nav-settings').click();
    await r.page.getByTestId('settings-tab-camera').click();
    await r.page.getByTestId('camera-enabled').check();
    await r.page.getByTestId('camera-save').click();
    await expect.poll(async () => (await r.rpc.call('camera.getSettings', {})).enabled).toBe(true);
    await backToStation(r);
    m.cameraOn = true;
  }
  toString = () => 'camera on, none connected';
}

/**
 * Known defects the random sequences step around while listed (none now: the two this test found,
 * the headline after a cancel and a logged-out scan after a login, are fixed and their kept
 * sequences below are regression cases).
 */
const KNOWN_DEFECTS = new Set<'headline-stays-waiting-after-cancel' | 'logged-out-scan-stays-waiting'>();

const code = fc.constantFrom(...CODES);
const commands = [
  code.map((c) => new ScanPrepared(c)),
  code.map((c) => new DoubleScan(c)),
  fc.tuple(code, fc.boolean()).map(([c, e]) => new Rescan(c, e)),
  fc.constant(new PrinterOff()),
  fc.constant(new PrinterOn()),
  fc.constant(new CancelLast()),
  fc.constant(new Reload()),
  fc.constant(new LogOut()),
  fc.constant(new LogIn()),
  ...(KNOWN_DEFECTS.has('logged-out-scan-stays-waiting') ? [] : [code.map((c) => new ScanLoggedOut(c))]),
  fc.constant(new RestartCore()),
  fc.constant(new ReprintLast()),
  fc.constant(new MoveWaiting()),
  fc.constant(new LoginRejected()),
  fc.constant(new BadgeIn()),
  fc.constant(new SignOut()),
  fc.uniqueArray(code, { minLength: 1, maxLength: 2 }).map((cs) => new BatchClose(cs)),
  fc.constant(new CameraMissing()),
];

// ---------------------------------------------------------------- settle and invariants

/** Waits until nothing is being worked on: no scan working, no label being sent, and (printer on) none waiting. */
async function settle(m: Model, r: Rig): Promise<void> {
  await expect
    .poll(
      async () => {
        const pending = await r.rpc.call('scan.pending', {});
        const jobs = await r.rpc.call('printing.queue.list', { limit: 500 });
        const busy = pending.scans.some((s) => s.state === 'working') || jobs.some((j) => j.state === 'sending');
        const waitingToPrint =
          m.printerOn && m.loggedIn && jobs.some((j) => j.state === 'queued' || j.state === 'failed');
        const waitingScans = m.loggedIn && pending.scans.length > 0;
        return !busy && !waitingToPrint && !waitingScans;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true)
    .catch(() => undefined); // the invariants say what is still stuck
}

function today(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** A parcel scanned while logged out: what it closed as, once the core ran its scan. */
function resolve(m: Model, r: Rig): void {
  for (const [c, p] of m.parcels) {
    if (p.deliveryId > 0) continue;
    const ran = r.rpc.events('scan.outcome').find((o) => o.code === c && parcelOf(o));
    if (ran) Object.assign(p, parcelOf(ran));
  }
}

async function checkInvariants(m: Model, r: Rig, known: ReadonlySet<string>): Promise<void> {
  await settle(m, r);
  resolve(m, r);
  const recent = await r.rpc.call('scan.recent', {});
  const jobs = await r.rpc.call('printing.queue.list', { limit: 500 });
  const pending = await r.rpc.call('scan.pending', {});

  // Nothing waits while it could run: the printer is on and the desk is logged in.
  if (m.printerOn && m.loggedIn)
    expect(jobs.filter((j) => j.state === 'queued' || j.state === 'failed').map((j) => `${j.id}:${j.state}`)).toEqual(
      [],
    );
  if (m.loggedIn)
    expect(
      pending.scans.filter((s) => s.state === 'waiting').map((s) => s.code),
      'scans waiting while logged in',
    ).toEqual([]);

  for (const [c, p] of m.parcels) {
    if (p.deliveryId === 0) continue;
    const count = Math.max(0, ...p.barcodes.map((b) => r.printedCount(b)));
    // Each parcel's labels printed at most once, plus once per reprint the worker asked for;
    // a cancelled label never prints.
    expect(count, `${c}: labels printed`).toBeLessThanOrEqual((p.cancelled ? 0 : 1) + p.reprints);
    // The trail has every scan of it.
    const trail = await r.rpc.call('shipments.trail', { deliveryId: p.deliveryId });
    expect(trail.filter((s) => s.step === 'scanned').length, `${c}: scans in its trail`).toBeGreaterThanOrEqual(
      p.scans,
    );
  }
  for (const j of jobs.filter((x) => x.state === 'cancelled'))
    for (const b of j.barcodes)
      if ([...m.parcels.values()].every((p) => !p.barcodes.includes(b) || p.reprints === 0))
        expect(r.printedCount(b), `cancelled job ${j.id}: ${b} printed`).toBe(0);

  // The top bar says who is signed in; with the camera on and none connected, the corner says so
  // and scanning goes on (the checks above).
  const pill = r.page.getByTestId('operator-pill');
  await expect.poll(async () => ((await pill.getAttribute('data-operator-id')) ?? '') !== '').toBe(m.signedIn);
  if (m.cameraOn)
    await r.page.locator('[data-testid="camera-corner"][data-state="fault"]').waitFor({ timeout: 20_000 });

  // Statistics count each parcel once.
  const stats = await r.rpc.call('statistics.get', { from: today(), to: today() });
  // (A scan made while logged out is one too: the desk was asked to close it.)
  expect(stats.total.parcels, 'statistics: parcels today').toBe(m.parcels.size);

  // The newest scan: the headline and the Recent scans line agree with the core.
  const newest = recent.scans[0];
  if (!newest || !m.last) return;
  const line = r.page.locator(`[data-testid="recent-scans"] [data-scan-id="${newest.scanId}"]`);
  await expect.poll(() => line.getAttribute('data-kind')).toBe(newest.kind);
  const head = r.page.getByTestId('scan-outcome');
  const skipHead = newest.kind === 'print_cancelled' && known.has('headline-stays-waiting-after-cancel');
  const headShows = (await head.count()) > 0 && (await head.getAttribute('data-scan-id')) === String(newest.scanId);
  if (!skipHead && headShows) {
    await expect.poll(() => head.getAttribute('data-kind'), { timeout: 5000 }).toBe(newest.kind);
  }
  const p = m.parcels.get(newest.code);
  if (!p) return;
  const its = jobs.filter((j) => newest.jobIds.includes(j.id));
  // The core's own line agrees with its print queue.
  if (its.length > 0 && its.every((j) => j.state === 'done')) expect(newest.kind).toBe('printed');
  if (its.some((j) => j.state === 'cancelled') && !newest.reprint) expect(newest.kind).toBe('print_cancelled');
  // Its labels at the second printer (moved there): the outcome names it, as the core's record does.
  if (its.length > 0 && its.every((j) => j.printerId === SPARE.id) && headShows && newest.kind !== 'print_cancelled')
    await expect.poll(() => head.getByTestId('outcome-printers').textContent()).toContain(SPARE.name);
  // Green only when every label of the parcel came out of the printer.
  const headKind = (await head.count()) > 0 ? await head.getAttribute('data-kind') : null;
  if ((headKind === 'printed' && !skipHead) || newest.kind === 'printed')
    for (const b of p.barcodes) expect(r.printedCount(b), `${newest.code} green: ${b} printed`).toBeGreaterThan(0);
}

// ---------------------------------------------------------------- the property

/** `known`: the KNOWN_DEFECTS the checks step around (the kept sequences check everything). */
async function runSequence(
  browser: Browser,
  cmds: Iterable<Cmd>,
  known: ReadonlySet<string> = new Set(),
): Promise<void> {
  const rig = new Rig(browser);
  await rig.start();
  try {
    const model: Model = {
      printerOn: true,
      loggedIn: true,
      signedIn: false,
      cameraOn: false,
      parcels: new Map(),
      last: null,
    };
    const checked = [...cmds].map((c): Cmd => ({
      check: (mm) => c.check(mm),
      run: async (mm, rr) => {
        trace(`> ${c.toString()}`);
        await c.run(mm, rr);
        await checkInvariants(mm, rr, known);
      },
      toString: () => c.toString(),
    }));
    trace(`sequence (commands whose precondition fails are left out): ${checked.map(String).join(', ')}`);
    await fc.asyncModelRun(() => ({ model, real: rig }), checked);
  } finally {
    await rig.close();
  }
}

describe.skipIf(!needs('chromium'))('the desk against its model (random sequences of events)', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(path.join(rendererDir, 'index.html')))
      throw new Error(`no renderer in ${rendererDir}: build it first (npm test -- test/e2e/deskModel.test.ts)`);
    browser = await launchChromium({ args: NO_CAMERA });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it(
    `random sequences hold every invariant (seed ${SEED}, ${RUNS} runs of up to ${STEPS} steps)`,
    { timeout: 600_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: STEPS }), (cmds) =>
          runSequence(browser, cmds, KNOWN_DEFECTS),
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: false, verbose: 1 },
      );
    },
  );
});

describe.skipIf(!needs('chromium'))('the desk against its model: sequences it found, kept', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium({ args: NO_CAMERA });
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Found: the printer off, a scan (its label waits), Ctrl+Delete cancels the waiting label; the
  // core's Recent scans line says print_cancelled but the full-screen headline stays
  // printer_down ("waits for its printer"). Fixed: the core sends the outcome again.
  it(
    'printer off -> scan -> Ctrl+Delete: the headline says cancelled, as the core does',
    { timeout: 120_000 },
    async () => {
      await runSequence(browser, [new PrinterOff(), new ScanPrepared('ORD-1001'), new CancelLast()]);
    },
  );

  // Found: log out, a scan (it waits for the login), log in again as the same company; the scan
  // stays waiting in the line though the desk is logged in. Fixed: the session's usable state wakes it.
  it('log out -> scan -> log in (the same company): the waiting scan runs', { timeout: 120_000 }, async () => {
    await runSequence(browser, [new LogOut(), new ScanLoggedOut('ORD-1003'), new LogIn()]);
  });

  // Rescans of a closed parcel, answered with Esc and with Enter: one parcel in the statistics,
  // every scan in its trail (the rescan defects the model is told of; they hold on this branch).
  it(
    'scan -> rescan, Esc -> rescan, Enter (reprint): one parcel, three scans in its trail, two labels',
    { timeout: 120_000 },
    async () => {
      await runSequence(browser, [
        new ScanPrepared('ORD-1002'),
        new Rescan('ORD-1002', false),
        new Rescan('ORD-1002', true),
      ]);
    },
  );

  // Found: a batch (F5, a scan, Ctrl+Enter): the parcel's trail said only "Closed in a batch", not
  // the scan that put it in the batch. Fixed: the trail shows that scan, with the code as typed.
  it('batch: a scan, Ctrl+Enter: the trail has the scan', { timeout: 120_000 }, async () => {
    await runSequence(browser, [new BatchClose(['ORD-1003'])]);
  });

  // The printer off, a scan (its label waits), the label moved to the second printer in the print
  // queue: it prints there, and the headline names that printer (the core tells the scan again).
  it(
    'printer off -> scan -> move to the second printer: printed there, and the headline says so',
    { timeout: 120_000 },
    async () => {
      await runSequence(browser, [new PrinterOff(), new ScanPrepared('ORD-1002'), new MoveWaiting()]);
    },
  );
});
