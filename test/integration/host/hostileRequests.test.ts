/**
 * Hostile local input never takes the station down: the real station
 * (dist/node/host.mjs: the core, its embedded sandbox, its virtual printers, the web host) in a
 * child process, and raw requests over real sockets to each of its HTTP listeners on 127.0.0.1:
 * the web host (HTTP and WebSocket upgrade), the OAuth loopback redirect listener while a login
 * waits, and the embedded sandbox. Every request is answered 4xx or dropped, the process lives
 * through all of them, slow headers are cut off, and afterwards the station still scans a demo
 * parcel and prints its label. An unexpected error that does end the core is in station.log.
 *
 * The metrics endpoint (electron/metrics/, off by default) is turned on over RPC as Settings does and
 * gets the same requests, and those a bearer-token listener must refuse: a missing, wrong, huge or
 * oddly formed token, other methods, bodies. Each is refused with a 4xx or dropped, and a
 * scraper with the desk's token is still served afterwards.
 *
 * The virtual ZPL printer's port (a raw TCP listener like a Zebra's 9100, found among the child's
 * listening sockets by its answer to ~HS) gets the same requests: HTTP to a printer port (a web
 * page's no-cors POST) is dropped unread, and the printer still answers and prints.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebHost } from '../../../electron/host/webHost';
import { freePort } from '../../support/freePort';
import { floods, MB, pourInto } from '../../support/portFlood';
import { hostileRequests, rawExchange, slowHeaders } from '../../support/hostileHttp';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { hostBuilt as built, startChildHost, type ChildHost } from '../../support/childHost';

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** A station child with an RPC socket, a login in progress on its own port, and where its sandbox listens. */
interface Rig extends ChildHost {
  rpc: RpcSocket;
  sandboxPort: number;
  loginPort: number;
}

async function startRig(): Promise<Rig> {
  const ch = await startChildHost();
  const rpc = await connectRpc(ch.host as WebHost);
  const status = await rpc.call('station.status', {});
  const sandboxPort = Number(new URL(status.service.baseUrl).port);
  // A login in progress: an account on the embedded sandbox with its own redirect port.
  const loginPort = await freePort();
  const account = await rpc.call('accounts.add', {
    name: 'Hostile test',
    environment: 'sandbox',
    clientId: 'hostile-client',
    clientSecret: 'hostile-secret-123456',
    redirectPort: loginPort,
  });
  await rpc.call('accounts.loginWithBrowser', { accountId: account.id });
  return { ...ch, rpc, sandboxPort, loginPort };
}

/** What a client may see of a hostile request to an HTTP listener: a 4xx refusal or a socket closed. */
const REFUSED_OR_DROPPED = /^(HTTP\/1\.[01] 4\d\d |\((closed|reset|reset by us)\)$)/;

/**
 * Each request to a listener, then proof the process still answers (its web host serves the page).
 * `expected`: the answers a hostile request may get (a 2xx would serve it; a 5xx is a handler that
 * threw; no answer at all is a request left hanging).
 */
async function survives(rig: Rig, port: number, realPath: string, expected = REFUSED_OR_DROPPED, waitMs?: number) {
  for (const r of hostileRequests(`127.0.0.1:${port}`, realPath)) {
    const answer = await rawExchange(port, r.bytes, { reset: r.reset, waitMs });
    expect(answer, r.name).toMatch(r.incomplete ? new RegExp(`${expected.source}|^\\(no answer\\)$`) : expected);
    const probe = await rawExchange(
      rig.host.port,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${rig.host.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(`${r.name} -> ${answer}; then the web host: ${probe}; alive: ${alive(rig.child)}`).toBe(
      `${r.name} -> ${answer}; then the web host: HTTP/1.1 200 OK; alive: true`,
    );
  }
}

/** The TCP ports a process listens on (Linux: its socket inodes in /proc/<pid>/fd, matched in /proc/net/tcp). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return readFileSync(`/proc/${pid}/net/tcp`, 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c[3] === '0A' && inodes.has(c[9]!))
    .map((c) => parseInt(c[1]!.split(':')[1]!, 16));
}

/** The station child's virtual ZPL printer: the one of its listeners that answers ~HS as a Zebra does (<STX>…<ETX>). */
async function virtualPrinterPort(rig: Rig): Promise<number> {
  const others = new Set([rig.host.port, rig.sandboxPort, rig.loginPort]);
  for (const port of listeningPorts(rig.child.pid!).filter((p) => !others.has(p))) {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('~HS'));
      let got = '';
      const timer = setTimeout(() => (socket.destroy(), resolve(got)), 2_000);
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if (got.split('\x03').length > 3) {
          clearTimeout(timer);
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('error', () => (clearTimeout(timer), resolve(got)));
    });
    if (answer.startsWith('\x02')) return port;
  }
  throw new Error('the station child has no listener answering ~HS');
}

/** A demo parcel scanned over RPC comes out of the virtual label printer. */
/** The desk's metrics endpoint turned on over RPC on a free loopback port, as Settings → Metrics does. */
async function metricsOn(rig: Rig): Promise<{ port: number; token: string }> {
  const state = await rig.rpc.call('metrics.set', { enabled: true, address: '127.0.0.1', port: await freePort() });
  expect(state.error).toBeNull();
  const { token } = await rig.rpc.call('metrics.token', {});
  return { port: Number(new URL(state.url!).port), token };
}

/**
 * What a scraper with the desk's token gets: the status line and whether the station's scan counter
 * is in it. `from`: the scraper's own loopback address (another host, as far as the endpoint knows).
 */
async function scrape(port: number, token: string, from = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () =>
      socket.write(
        `GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => resolve(`(error) ${got}`));
    socket.on('close', () =>
      resolve(`${got.split('\r\n')[0]} ${/^label_station_scans_total/m.test(got) ? 'with' : 'without'} scans`),
    );
  });
}

async function scansAndPrints(rig: Rig, code: string) {
  expect(alive(rig.child)).toBe(true);
  const { scanId } = await rig.rpc.call('scan.submit', { code });
  const outcome = await rig.rpc.waitFor('scan.outcome', (o) => o.scanId === scanId, 30_000);
  expect(outcome).toMatchObject({ kind: 'printed' });
}

// One station child per test: a crash in one listener must not hide what another does.
describe.skipIf(!built && !process.env.CI)(
  'hostile local requests to the station child (web host, OAuth loopback, embedded sandbox, virtual ZPL printer)',
  { timeout: 120_000 },
  () => {
    let rig: Rig | null = null;
    const fresh = async () => (rig = await startRig());

    afterEach(async () => {
      rig?.rpc.close();
      await rig?.stop();
      if (rig) rmSync(rig.dataDir, { recursive: true, force: true });
      rig = null;
    });

    /**
     * A request announcing a body with `Expect: 100-continue` gets its final answer at once, never
     * "100 Continue": the listener does not invite a body it refuses (RFC 9110 10.1.1 lets a server
     * answer with the final status instead). Node says "100 Continue" by itself unless told otherwise.
     */
    async function noContinue(port: number, target: string) {
      for (const method of ['POST', 'GET']) {
        const bytes = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: 100-continue\r\nContent-Length: 5\r\nConnection: close\r\n\r\n`;
        const answer = await rawExchange(port, bytes);
        expect(`${method} ${target} with Expect: 100-continue -> ${answer}`).toMatch(
          /-> (HTTP\/1\.1 4\d\d |\((closed|reset|reset by us)\)$)/,
        );
      }
    }

    it('the web host (HTTP and upgrade) answers 4xx or drops each hostile request, lives, and the station scans and prints', async () => {
      const r = await fresh();
      await survives(r, r.host.port, '/rpc');
      await noContinue(r.host.port, '/rpc');
      await scansAndPrints(r, 'ORD-1001');
    });

    it('the OAuth loopback listener of a login in progress answers 4xx or drops each hostile request; the core lives, scans and prints', async () => {
      const r = await fresh();
      await survives(r, r.loginPort, '/callback');
      await noContinue(r.loginPort, '/callback');
      // The login still waits for its real answer.
      const [account] = (await r.rpc.call('accounts.list', {})).filter((a) => a.name === 'Hostile test');
      expect(account!.login.state).toBe('logging-in');
      await scansAndPrints(r, 'ORD-1001');
    });

    it('the embedded sandbox answers 4xx or drops each hostile request, lives, and the station scans and prints', async () => {
      const r = await fresh();
      await survives(r, r.sandboxPort, '/api/v3/deliveries');
      await scansAndPrints(r, 'ORD-1001');
    });

    it('the virtual ZPL printer drops each hostile request (HTTP to a printer port included) unanswered, lives, and the station scans and prints on it', async () => {
      const r = await fresh();
      const port = await virtualPrinterPort(r);
      // A printer port answers no HTTP at all: it reads and prints nothing, and says nothing (within
      // half a second) or closes; any line back would be an answer to a web page.
      await survives(r, port, '/', /^\((closed|reset|reset by us|no answer)\)$/, 500);
      await scansAndPrints(r, 'ORD-1001');
    });

    it('a flood to the virtual ZPL printer (junk, thousands of tiny labels, status questions never read) leaves the station alive and printing (what it keeps is bounded: virtualPrinterFlood.test.ts)', async () => {
      const r = await fresh();
      const port = await virtualPrinterPort(r);
      await scansAndPrints(r, 'ORD-1001');
      await Promise.all([
        pourInto(port, floods.junk, 16 * MB),
        pourInto(port, floods.tinyLabels, 8 * MB),
        pourInto(port, floods.statusQuestions, 32 * MB),
      ]);
      expect(alive(r.child)).toBe(true);
      await scansAndPrints(r, 'ORD-1002');
    });

    it("the metrics endpoint answers 4xx or drops each hostile request and each request without the desk's token, lives, and still serves a scraper with it", async () => {
      const r = await fresh();
      const { port, token } = await metricsOn(r);
      await survives(r, port, '/metrics');
      const host = `127.0.0.1:${port}`;
      const get = (extra: string, method = 'GET', target = '/metrics') =>
        `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;
      const refused: [string, string, RegExp][] = [
        ['no token', get(''), /^HTTP\/1\.1 401 /],
        ['a wrong token', get('Authorization: Bearer not-the-desk-token\r\n'), /^HTTP\/1\.1 401 /],
        ['the token one character short', get(`Authorization: Bearer ${token.slice(0, -1)}\r\n`), /^HTTP\/1\.1 401 /],
        [
          'the token as Basic',
          get(`Authorization: Basic ${Buffer.from(`x:${token}`).toString('base64')}\r\n`),
          /^HTTP\/1\.1 401 /,
        ],
        ['the token in the query', get('', 'GET', `/metrics?access_token=${token}`), /^HTTP\/1\.1 401 /],
        ['an empty Bearer', get('Authorization: Bearer \r\n'), /^HTTP\/1\.1 401 /],
        ['a 60 KB token', get(`Authorization: Bearer ${'a'.repeat(60_000)}\r\n`), /^HTTP\/1\.1 (401|431) /],
        [
          'two Authorization headers',
          get(`Authorization: Bearer x\r\nAuthorization: Bearer ${token}\r\n`),
          /^HTTP\/1\.1 4\d\d /,
        ],
        ['a token with a NUL', get(`Authorization: Bearer ${token}\0\r\n`), REFUSED_OR_DROPPED],
        ['a token with non-ASCII bytes', get(`Authorization: Bearer ${token}\xff\xfe\r\n`), REFUSED_OR_DROPPED],
        // Refused before the body is asked for: no "100 Continue" to a request that will be refused.
        [
          'POST, Expect: 100-continue and no token',
          get('Expect: 100-continue\r\nContent-Length: 5\r\n', 'POST'),
          /^HTTP\/1\.1 4\d\d /,
        ],
        [
          'GET, Expect: 100-continue and no token',
          get('Expect: 100-continue\r\nContent-Length: 5\r\n'),
          /^HTTP\/1\.1 401 /,
        ],
        [
          'POST, Expect: 100-continue and the token',
          get(`Authorization: Bearer ${token}\r\nExpect: 100-continue\r\nContent-Length: 5\r\n`, 'POST'),
          /^HTTP\/1\.1 405 /,
        ],
        ['POST with a body and no token', get('Content-Length: 5\r\n', 'POST') + 'hello', /^HTTP\/1\.1 4\d\d /],
        [
          'POST with the token',
          get(`Authorization: Bearer ${token}\r\nContent-Length: 5\r\n`, 'POST') + 'hello',
          /^HTTP\/1\.1 405 /,
        ],
        ['DELETE with the token', get(`Authorization: Bearer ${token}\r\n`, 'DELETE'), /^HTTP\/1\.1 405 /],
        ['TRACE with the token', get(`Authorization: Bearer ${token}\r\n`, 'TRACE'), /^HTTP\/1\.1 405 /],
        ['a made-up method', get(`Authorization: Bearer ${token}\r\n`, 'FOO'), REFUSED_OR_DROPPED],
        [
          'GET with a chunked body and the token',
          get(`Authorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n`) + 'zz\r\n',
          REFUSED_OR_DROPPED,
        ],
        [
          'another path with the token',
          get(`Authorization: Bearer ${token}\r\n`, 'GET', '/metrics/../../etc/passwd'),
          /^HTTP\/1\.1 4\d\d /,
        ],
        [
          'an absolute target with the token',
          get(`Authorization: Bearer ${token}\r\n`, 'GET', `http://${host}/metrics`),
          /^HTTP\/1\.1 400 /,
        ],
      ];
      for (const [name, bytes, expected] of refused) {
        const answer = await rawExchange(port, Buffer.from(bytes, 'latin1'));
        expect(`${name}: ${answer}`).toMatch(new RegExp(`^${name}: (${expected.source.slice(1)})`));
      }
      expect(alive(r.child)).toBe(true);
      await scansAndPrints(r, 'ORD-1001');
      // The scan is counted when its outcome is recorded in the child; the scrape is another
      // connection, so it may come first on a loaded machine: asked again until it counts.
      await expect
        .poll(() => scrape(port, token), { timeout: 30_000, interval: 500 })
        .toBe('HTTP/1.1 200 OK with scans');
    });

    it("idle connections held open by one address do not lock another address's scraper out of the metrics endpoint", async () => {
      const r = await fresh();
      const { port, token } = await metricsOn(r);
      // A program on 127.0.0.1 opens 40 connections and sends nothing (more than the endpoint serves at once).
      const idle = Array.from({ length: 40 }, () => {
        const s = net.connect(port, '127.0.0.1');
        s.on('error', () => undefined);
        return s;
      });
      try {
        await Promise.all(
          idle.map(
            (s) =>
              new Promise((resolve) =>
                s.connecting ? s.once('connect', resolve).once('close', resolve) : resolve(null),
              ),
          ),
        );
        // Prometheus on another address (127.0.0.2 here) is served at once, not after the header time limit.
        expect(await scrape(port, token, '127.0.0.2')).toMatch(/^HTTP\/1\.1 200 OK /);
      } finally {
        for (const s of idle) s.destroy();
      }
      await scansAndPrints(r, 'ORD-1001');
      expect(await scrape(port, token)).toBe('HTTP/1.1 200 OK with scans');
    });

    it('the embedded sandbox answers only requests addressed to itself (no DNS rebinding)', async () => {
      const r = await fresh();
      const get = (target: string, host: string) =>
        rawExchange(r.sandboxPort, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      for (const host of [`rebind.example:${r.sandboxPort}`, 'rebind.example', `127.0.0.1:${r.sandboxPort + 1}`, '']) {
        for (const target of ['/', '/api/v3/deliveries', '/connect/authorize/?client_id=demo-client'])
          expect(`${host} ${target}: ${await get(target, host)}`).toBe(
            `${host} ${target}: HTTP/1.1 421 Misdirected Request`,
          );
      }
      for (const host of [`127.0.0.1:${r.sandboxPort}`, `localhost:${r.sandboxPort}`])
        expect(await get('/', host)).toBe('HTTP/1.1 200 OK');
      expect(await get(`http://127.0.0.1:${r.sandboxPort}/`, `127.0.0.1:${r.sandboxPort}`)).toBe(
        'HTTP/1.1 400 Bad Request',
      );
      await scansAndPrints(r, 'ORD-1001');
    });

    it('slow headers (slowloris) on every listener are cut off, and a scan is printed meanwhile', async () => {
      const r = await fresh();
      const { port: metricsPort, token } = await metricsOn(r);
      const slow = [r.host.port, r.loginPort, r.sandboxPort, metricsPort].flatMap((port) =>
        [0, 1].map(() => slowHeaders(port, `127.0.0.1:${port}`)),
      );
      try {
        await scansAndPrints(r, 'ORD-1002');
        // Bounded by the test's time limit: each listener closes a request whose headers never end.
        const ends = await Promise.all(slow.map((s) => s.closed));
        for (const e of ends) expect(e).toMatch(/^(HTTP\/1\.1 408|\(closed\))/);
      } finally {
        for (const s of slow) s.stop();
      }
      await scansAndPrints(r, 'ORD-1003');
      expect(await scrape(metricsPort, token)).toBe('HTTP/1.1 200 OK with scans');
    });
  },
);

describe.skipIf(!built && !process.env.CI)('an unexpected error in the core', { timeout: 90_000 }, () => {
  it('is written to station.log before the process exits', async () => {
    // A real fault from outside the code: a module loaded before the host throws when told to.
    const planted = "process.on('SIGUSR2', () => { throw new Error('planted-uncaught-31') })";
    const ch = await startChildHost({ nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(planted)}`] });
    try {
      ch.child.kill('SIGUSR2');
      const code = await new Promise<number | null>((resolve) => {
        if (!alive(ch.child)) return resolve(ch.child.exitCode);
        ch.child.once('exit', (c) => resolve(c));
      });
      expect(code).toBe(1);
      const log = readFileSync(path.join(ch.dataDir, 'logs', 'station.log'), 'utf8');
      const line = log.split('\n').find((l) => l.includes('planted-uncaught-31'));
      expect(line, ch.output()).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({
        level: 'error',
        message: 'the station stopped on an unexpected error',
      });
    } finally {
      await ch.stop();
      rmSync(ch.dataDir, { recursive: true, force: true });
    }
  });
});
