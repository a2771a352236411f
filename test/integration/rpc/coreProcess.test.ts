/**
 * The desktop app's core process (electron/host/coreProcess.ts) as the main process drives it: start,
 * a page's port, the seams it asks of the main process, its log, close, and a start that fails.
 *
 * Electron's utility process cannot run here (no Electron binary: ELECTRON_SKIP_BINARY_DOWNLOAD),
 * so its two Electron-only parts are named mocks: `mockParentPort` stands in for
 * `process.parentPort`, and `mockMessagePortMain` gives a real worker_threads port the event shape
 * of Electron's MessagePortMain (`{ data }`), so the bridge's Electron adapter is the one used.
 * Everything else is real: the station core, its embedded sandbox, the virtual printer, the log.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { runCoreProcess, type CoreToMain, type ParentPortLike } from '../../../electron/host/coreProcess';
import type { MessagePortLike } from '../../../electron/rpc/messagePortBridge';
import type { RpcHostMessage } from '../../../shared/rpcEnvelope';
import { repoRoot } from '../../support/station';
import { freePort } from '../../support/freePort';

/** Mock of Electron's `process.parentPort` (exists only in a utility process Electron forked). */
function mockParentPort() {
  let listener: ((e: { data: unknown; ports: MessagePortLike[] }) => void) | null = null;
  const said: CoreToMain[] = [];
  const port: ParentPortLike = {
    on(_event, l) {
      listener = l;
    },
    postMessage: (msg) => void said.push(msg),
  };
  return {
    port,
    said,
    send: (data: unknown, ports: MessagePortLike[] = []) => listener!({ data, ports }),
    waitFor: (t: CoreToMain['t']) => until(() => said.find((m) => m.t === t), `"${t}" from the core`),
  };
}

/** Mock of Electron's MessagePortMain over a real Node port: 'message' listeners get `{ data }`. */
function mockMessagePortMain(port: MessagePort): MessagePortLike {
  return {
    on(event: string, l: (arg: unknown) => void) {
      if (event === 'message') port.on('message', (data: unknown) => l({ data }));
      else port.on(event, l);
      return this;
    },
    postMessage: (v) => port.postMessage(v),
    start: () => port.start(),
    close: () => port.close(),
  };
}

function until<T>(find: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const hit = find();
      if (hit !== undefined) return resolve(hit);
      if (Date.now() - started > timeoutMs) return reject(new Error(`no ${what} within ${timeoutMs} ms`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

/** The page's end of a port: calls by id, events kept. */
function pageOn(port: MessagePort) {
  const seen: RpcHostMessage[] = [];
  port.on('message', (text: string) => seen.push(JSON.parse(text) as RpcHostMessage));
  let id = 0;
  return {
    seen,
    async call(method: string, params: unknown) {
      const myId = ++id;
      port.postMessage(JSON.stringify({ t: 'call', id: myId, method, params }));
      const reply = await until(() => seen.find((m) => m.t === 'reply' && m.id === myId), `reply to ${method}`);
      if (reply.t !== 'reply' || !reply.result.ok) throw new Error(`${method} failed: ${JSON.stringify(reply)}`);
      return reply.result.value as never;
    },
    event: (name: string, match: (p: never) => boolean = () => true) =>
      until(
        () => seen.find((m) => m.t === 'event' && m.name === name && match(m.payload as never)),
        `${name} event`,
      ).then((m) => (m as { payload: unknown }).payload as never),
  };
}

const opened: MessagePort[] = [];
afterAll(() => opened.forEach((p) => p.close()));

describe('the core process (utility process entry) under plain Node', () => {
  it('starts the station, serves a page’s port, asks main to open the browser, writes main’s lines to its log, and closes', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-core-'));
    const parent = mockParentPort();
    const exits: number[] = [];
    runCoreProcess(parent.port, {
      version: '0.0.0-test',
      exit: (c) => void exits.push(c),
      station: { secrets: createMemorySecretStore(), printWaitMs: 5000 },
    });

    // The page's port may arrive while the core still starts: it is served once the core is ready.
    const { port1, port2 } = new MessageChannel();
    opened.push(port1, port2);
    parent.send({ t: 'start', dataDir });
    parent.send({ t: 'connect' }, [mockMessagePortMain(port1)]);
    // Messages outside the protocol change nothing.
    parent.send(null);
    parent.send('start');
    parent.send({ t: 'start', dataDir: '/nonexistent/druhý' });
    const ready = await parent.waitFor('ready');
    expect(ready).toEqual({ t: 'ready', logFile: path.join(dataDir, 'logs', 'station.log') });

    const page = pageOn(port2);
    const status = await page.call('station.status', {});
    expect(status).toMatchObject({
      host: 'electron',
      dataDir,
      version: '0.0.0-test',
      service: { environment: 'sandbox', reachable: true },
    });

    // A demo scan over the port: the label comes out of the virtual ZPL printer.
    const { scanId } = await page.call('scan.submit', { code: 'ORD-1001' });
    const outcome = (await page.event('scan.outcome', (o: { scanId: string }) => o.scanId === scanId)) as {
      kind: string;
      shipment: { barcodes: string[] };
    };
    expect(outcome.kind).toBe('printed');
    const labels = (await page.call('printing.printers.received', { printerId: 'virtual-zpl' })) as { text: string }[];
    expect(labels).toHaveLength(1);
    expect(labels[0]!.text).toContain(outcome.shipment.barcodes[0]);

    // The system browser is the main process's: the core asks for it over the parent port.
    // A company with its own loopback port: the demo's 53682 lies in Linux's ephemeral range, and
    // any parallel test's connection may hold it (CI saw login_port_unavailable once).
    const [demo] = (await page.call('accounts.list', {})) as { id: string; clientId: string }[];
    const own = (await page.call('accounts.add', {
      name: 'Sklad Žďár',
      environment: 'sandbox',
      clientId: demo!.clientId,
      clientSecret: 'not-the-secret',
      redirectPort: await freePort(),
    })) as { id: string };
    const { url } = (await page.call('accounts.loginWithBrowser', { accountId: own.id })) as { url: string };
    expect(await parent.waitFor('openExternal')).toEqual({ t: 'openExternal', url });
    await page.call('accounts.cancelLogin', { accountId: own.id });

    parent.send({
      t: 'log',
      level: 'warn',
      message: 'Žluťoučký kůň: zpráva hlavního procesu',
      fields: { legacy: '/tmp/starý' },
    });
    parent.send({ t: 'log', level: 'shout', message: 'not a level' });
    const logFile = ready.t === 'ready' ? ready.logFile! : '';
    const line = await until(
      () =>
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .split('\n')
              .find((l) => l.includes('Žluťoučký kůň'))
          : undefined,
      'main’s line in the station log',
    );
    expect(JSON.parse(line)).toMatchObject({ level: expect.anything(), legacy: '/tmp/starý', from: 'main' });
    expect(readFileSync(logFile, 'utf8')).not.toContain('not a level');

    const pageClosed = new Promise<boolean>((resolve) => port2.once('close', () => resolve(true)));
    parent.send({ t: 'close' });
    expect(await parent.waitFor('closed')).toEqual({ t: 'closed' });
    expect(exits).toEqual([0]);
    expect(await pageClosed).toBe(true);
  });

  it('a start that fails says why and where the log is, and exits with 1', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-core-'));
    // A folder where the database file should be: SQLite cannot open it.
    mkdirSync(path.join(dataDir, 'station.db'));
    const parent = mockParentPort();
    const exits: number[] = [];
    runCoreProcess(parent.port, {
      version: '0.0.0-test',
      exit: (c) => void exits.push(c),
      station: { secrets: createMemorySecretStore() },
    });
    parent.send({ t: 'start', dataDir });
    const failed = await parent.waitFor('failed');
    const logFile = path.join(dataDir, 'logs', 'station.log');
    expect(failed).toMatchObject({ t: 'failed', logFile, message: expect.any(String) });
    expect(failed.t === 'failed' && failed.message.length).toBeGreaterThan(0);
    expect(exits).toEqual([1]);
    expect(parent.said.some((m) => m.t === 'ready')).toBe(false);
    const failedLine = await until(
      () =>
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .split('\n')
              .find((l) => l.includes('the station could not start'))
          : undefined,
      'the failure in the log',
    );
    expect(failedLine).toContain(failed.t === 'failed' ? JSON.stringify(failed.message).slice(1, 30) : '');
  });

  it('a storage failure: main is told why, the core exits with 75; a core started after one shows why to the page it serves', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-core-'));
    const parent = mockParentPort();
    const exits: number[] = [];
    const core = runCoreProcess(parent.port, {
      version: '0.0.0-test',
      exit: (c) => void exits.push(c),
      station: { secrets: createMemorySecretStore() },
    });
    const earlier = {
      kind: 'full',
      code: 'SQLITE_FULL',
      message: 'database or disk is full',
      at: '2026-11-26T12:00:00.000Z',
    };
    parent.send({ t: 'start', dataDir, restartedAfter: earlier });
    const { port1, port2 } = new MessageChannel();
    opened.push(port1, port2);
    parent.send({ t: 'connect' }, [mockMessagePortMain(port1)]);
    await parent.waitFor('ready');
    const page = pageOn(port2);
    // A page that got its port after a restart does not reload: the status comes to it.
    expect(await page.event('station.statusChanged')).toMatchObject({
      storage: { failed: null, restartedAfter: earlier },
    });

    // What better-sqlite3 throws when the disk fails under a commit nobody awaited.
    const ioError = Object.assign(new Error('disk I/O error'), { name: 'SqliteError', code: 'SQLITE_IOERR_FSYNC' });
    core.fatal(ioError);
    expect(await parent.waitFor('storageFailed')).toMatchObject({
      t: 'storageFailed',
      failure: { kind: 'io', code: 'SQLITE_IOERR_FSYNC', message: 'disk I/O error' },
    });
    await until(() => (exits.length ? exits : undefined), 'the exit');
    expect(exits).toEqual([75]);
    // The mock exit ends nothing: the station is closed here.
    parent.send({ t: 'close' });
    await parent.waitFor('closed');
  });
});

const dist = path.join(repoRoot, 'dist', 'electron');
const built = existsSync(path.join(dist, 'core.cjs')) && existsSync(path.join(dist, 'main.cjs'));
if (!built) console.warn('skipped: the built Electron bundles: run node scripts/build.mjs first (npm test does)');

describe.skipIf(!built && !process.env.CI)('the built bundles (node scripts/build.mjs)', () => {
  it('core.cjs loads every module it needs, and refuses to run outside a utility process', () => {
    const r = spawnSync(process.execPath, [path.join(dist, 'core.cjs')], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toContain('runs as an Electron utility process');
    expect(r.status).toBe(2);
  });

  it('main.cjs holds no part of the core: no SQLite, no station, so the window’s process stays free', () => {
    const main = readFileSync(path.join(dist, 'main.cjs'), 'utf8');
    expect(main).not.toContain('better-sqlite3');
    expect(main).not.toContain('createStation');
    expect(main).toContain('utilityProcess.fork');
    const core = readFileSync(path.join(dist, 'core.cjs'), 'utf8');
    expect(core).toContain('createStation');
  });
});
