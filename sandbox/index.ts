/**
 * The sandbox's public entry. The station (demo mode) and the tests start the service through
 * `startSandbox` only; nothing else in sandbox/ is imported from outside it.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { addAdminRoutes } from './admin/controls';
import { FaultTable } from './admin/faults';
import { adminMessages } from './admin/messages';
import { offsetClock, type SandboxClock } from './clock';
import { createDecodePool } from './http/decodePool';
import { envelope, type Reply } from './http/envelope';
import { Router } from './http/router';
import { createSandboxServer } from './http/server';
import { addOAuthRoutes } from './oauth/index';
import { PendingAuthorizations } from './oauth/pending';
import { addApiIndexRoute } from './routes/api';
import { addOpenApiRoutes } from './routes/openapi';
import { addReferenceRoutes } from './routes/reference';
import { addDeliveryRoutes } from './routes/deliveries';
import { addPlaceRoutes } from './routes/places';
import { addProtocolRoutes } from './routes/protocols';
import { addTicketRoutes } from './routes/tickets';
import { addZplRoutes } from './routes/zpl';
import { addTraceRoutes } from './routes/traces';
import { addTransportRoutes } from './routes/transports';
import { addRootPage } from './routes/rootPage';
import { DEMO, seed, type SeedKind } from './seed';
import type { Services } from './services';
import { SandboxStore } from './store/index';

export type { SandboxClock } from './clock';

export interface SandboxOptions {
  /** 0 picks a free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file (better-sqlite3): state survives a restart. Default: in memory. */
  dataFile?: string;
  /** Default: real time plus the offset moved by POST /_sandbox/clock/advance. */
  clock?: SandboxClock;
  /** Data for a fresh store (ignored when --data names a file that already has data). Default 'demo'. */
  seed?: SeedKind;
  /** The test controls under /_sandbox/ (default true). */
  admin?: boolean;
  /**
   * When set, the test controls answer only a request carrying it in the `x-sandbox-admin-secret`
   * header (anything else gets 403). The station sets a fresh one for the sandbox it embeds, so
   * no other local program can mint tokens, inject faults or reset its data. Default: none, the
   * controls are open (`npm run sandbox`, the tests).
   */
  adminSecret?: string;
  /** The better-sqlite3 binary to load (the station passes its Electron build). Default: node_modules'. */
  sqliteBinding?: string;
  /**
   * Take only requests addressed to this sandbox itself: Host `127.0.0.1:<port>` or
   * `localhost:<port>` (else 421) and an origin-form target `/path` (else 400). The station sets it
   * for the sandbox it embeds, so a web page on another name that resolves to 127.0.0.1 (DNS
   * rebinding) cannot read it. Default false: a sandbox run on its own may sit behind any name.
   */
  onlyOwnHost?: boolean;
  /**
   * This run's demo client secret and demo user password, replacing the public ones (`demo-secret`,
   * `demo-password`, which then log nobody in; the second company's user gets a random password
   * too, and tokens issued before are withdrawn). The station hands fresh ones to the sandbox it
   * embeds at every launch and keeps them in its own process. Default: the public ones.
   */
  demoSecrets?: { clientSecret: string; password: string };
  /** Unexpected errors (bugs) are reported here; the client gets a 500 envelope. Default: stderr. */
  onError?: (err: unknown) => void;
}

export interface Sandbox {
  url: string;
  port: number;
  demo: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    username: string;
    password: string;
    companyName: string;
    scope: string;
  };
  close(): Promise<void>;
}

function hostOf(req: http.IncomingMessage, fallback: string): string {
  const host = req.headers.host ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(host) ? host : fallback;
}

async function faultFor(
  s: Services,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  path: string,
): Promise<Reply | 'handled' | null> {
  if (path.startsWith('/_sandbox')) return null;
  const fault = s.faults.actionFor(method, path);
  if (!fault) return null;
  if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault.reset) {
    req.socket.destroy();
    return 'handled';
  }
  if (fault.hang) {
    s.faults.hold(res);
    return 'handled';
  }
  return fault.status ? envelope(fault.status, adminMessages.injectedFault) : null;
}

/** With `onlyOwnHost`: a reply for a request not addressed to this sandbox, else null. */
function notOwnHost(req: http.IncomingMessage, ownHosts: Set<string>): Reply | null {
  const text = (status: number, body: string): Reply => ({
    kind: 'raw',
    status,
    body,
    contentType: 'text/plain; charset=UTF-8',
  });
  if (!ownHosts.has(req.headers.host ?? ''))
    return text(421, 'Misdirected request: this sandbox answers only requests addressed to it.\n');
  const target = req.url ?? '';
  if (!target.startsWith('/') || target.startsWith('//')) return text(400, 'Bad request target.\n');
  return null;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  if (opts.adminSecret !== undefined && opts.adminSecret.length < 16)
    throw new Error('The sandbox admin secret must be at least 16 characters.');
  if (opts.demoSecrets && (opts.demoSecrets.clientSecret.length < 16 || opts.demoSecrets.password.length < 16))
    throw new Error('The sandbox demo secrets must be at least 16 characters.');
  const store = SandboxStore.open(opts.dataFile, opts.sqliteBinding);
  const clock = opts.clock ?? offsetClock(Number(store.companies.meta('clockOffsetMs') ?? 0));
  try {
    if (store.isEmpty()) seed(store, opts.seed ?? 'demo', clock.now());
  } catch (err) {
    store.close();
    throw err;
  }
  // After the seed, and again after every reset (which seeds the public ones).
  const applyDemoSecrets = () => {
    if (!opts.demoSecrets) return;
    store.oauth.setClientSecret(DEMO.clientId, opts.demoSecrets.clientSecret);
    store.oauth.setPassword(DEMO.username, opts.demoSecrets.password);
    store.oauth.setPassword(DEMO.otherUsername, randomBytes(24).toString('base64url'));
    store.oauth.withdraw(DEMO.clientId, DEMO.username);
    store.oauth.withdraw(DEMO.clientId, DEMO.otherUsername);
  };
  applyDemoSecrets();
  const s: Services = { store, clock, pending: new PendingAuthorizations(), faults: new FaultTable() };

  const router = new Router();
  // The public demo secrets and open registration are for a sandbox run on its own (integrators);
  // the one a station embeds keeps its per-launch ones off the page and registration behind its secret.
  addRootPage(router, {
    admin: opts.admin !== false,
    publicDemo: !opts.demoSecrets,
    registrationNeedsSecret: opts.adminSecret !== undefined,
  });
  addApiIndexRoute(router);
  addOpenApiRoutes(router);
  addReferenceRoutes(router);
  addOAuthRoutes(router, s, opts.adminSecret);
  addDeliveryRoutes(router, s);
  addTransportRoutes(router, s);
  addTraceRoutes(router, s);
  addPlaceRoutes(router, s);
  addTicketRoutes(router, s);
  addZplRoutes(router, s);
  addProtocolRoutes(router, s);
  if (opts.admin !== false) addAdminRoutes(router, s, opts.adminSecret, applyDemoSecrets);

  let listenAddress = `${host}:0`;
  let ownHosts = new Set<string>();
  const onError = opts.onError ?? ((err: unknown) => console.error('sandbox: unexpected error', err));
  // Large bodies are decoded in worker threads; started at the first one.
  const bodies = createDecodePool(undefined, undefined, onError);
  const server = createSandboxServer(
    router,
    (req) => `http://${hostOf(req, listenAddress)}`,
    {
      intercept: async (req, res, ctx) =>
        (opts.onlyOwnHost ? notOwnHost(req, ownHosts) : null) ?? faultFor(s, req, res, ctx.method, ctx.path),
      onError,
    },
    bodies,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  }).catch((err: unknown) => {
    store.close();
    void bodies?.close();
    throw err;
  });
  const port = (server.address() as { port: number }).port;
  listenAddress = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  ownHosts = new Set([listenAddress, `localhost:${port}`]);

  return {
    url: `http://${listenAddress}`,
    port,
    demo: {
      clientId: DEMO.clientId,
      clientSecret: opts.demoSecrets?.clientSecret ?? DEMO.clientSecret,
      redirectUri: DEMO.redirectUri,
      username: DEMO.username,
      password: opts.demoSecrets?.password ?? DEMO.password,
      companyName: DEMO.companyName,
      scope: DEMO.scope,
    },
    close: () =>
      new Promise<void>((resolve) => {
        s.faults.clear();
        server.closeAllConnections();
        server.close(() => {
          store.close();
          void (bodies?.close() ?? Promise.resolve()).then(resolve, resolve);
        });
      }),
  };
}
