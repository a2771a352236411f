/** Starts a real station core (embedded sandbox included) and its web host for a test. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { RPC_SUBPROTOCOL, rpcSubprotocols, startWebHost, type WebHost } from '../../electron/host/webHost';
import { createStation, type Station, type StationOptions } from '../../electron/station';
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import type { Logger } from '../../electron/rpc/rpcServer';
import { memoryLogger } from './memoryLogger';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export interface HostedStation {
  station: Station;
  host: WebHost;
  dataDir: string;
  log: Logger & { lines: string[] };
  close(): Promise<void>;
}

export async function startHostedStation(
  opts: { staticDir?: string; dataDir?: string; log?: Logger & { lines: string[] } } & Partial<
    Pick<
      StationOptions,
      | 'sandbox'
      | 'sandboxControls'
      | 'secrets'
      | 'printWaitMs'
      | 'serviceTimeoutMs'
      | 'healthIntervalMs'
      | 'restartedAfter'
      | 'clock'
    >
  > = {},
): Promise<HostedStation> {
  // A given dataDir is a restart of the station that used it before.
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'station-test-'));
  const log = opts.log ?? memoryLogger();
  const { staticDir: _s, dataDir: _d, log: _l, ...stationOpts } = opts;
  // The tests drive the embedded sandbox's controls (/_sandbox/ faults, clock, tokens) directly,
  // so the harness opens them; a station started any other way gates them by its secret.
  const station = await createStation({
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    log,
    sandboxControls: 'open',
    ...stationOpts,
  });
  const host = await startWebHost({
    rpc: station.rpc,
    log,
    staticDir: opts.staticDir ?? process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer'),
  });
  return {
    station,
    host,
    dataDir,
    log,
    async close(this: HostedStation) {
      // The host in hand now (a test may have started another on the same address).
      await this.host.close();
      await station.close();
    },
  };
}

/**
 * Opens an RPC socket the way the page does (the token as a subprotocol, this host's Origin), or
 * with what the test gives: `token: null` offers no token, `headers` replaces the Origin header.
 */
export function openRpcSocket(
  host: WebHost,
  o: { token?: string | null; headers?: Record<string, string> } = {},
): Promise<{
  ws: WebSocket;
  call(method: unknown, params: unknown): Promise<RpcHostMessage>;
  next(): Promise<RpcHostMessage>;
  /** The next reply, skipping pushed events. */
  nextReply(): Promise<RpcHostMessage>;
}> {
  return new Promise((resolve, reject) => {
    const token = o.token === undefined ? host.token : o.token;
    const protocols = token === null ? [RPC_SUBPROTOCOL] : rpcSubprotocols(token);
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc`, protocols, {
      headers: o.headers ?? { origin: host.origin },
    });
    const inbox: RpcHostMessage[] = [];
    const waiters: ((m: RpcHostMessage) => void)[] = [];
    ws.on('message', (data) => {
      const msg = JSON.parse((data as Buffer).toString()) as RpcHostMessage;
      const w = waiters.shift();
      if (w) w(msg);
      else inbox.push(msg);
    });
    const next = () => new Promise<RpcHostMessage>((r) => (inbox.length ? r(inbox.shift()!) : waiters.push(r)));
    const nextReply = async (): Promise<RpcHostMessage> => {
      for (;;) {
        const m = await next();
        if (m.t === 'reply') return m;
      }
    };
    let id = 0;
    ws.on('open', () =>
      resolve({
        ws,
        next,
        nextReply,
        async call(method, params) {
          const myId = ++id;
          ws.send(JSON.stringify({ t: 'call', id: myId, method, params }));
          for (;;) {
            const m = await next();
            if (m.t === 'reply' && m.id === myId) return m;
          }
        },
      }),
    );
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}
