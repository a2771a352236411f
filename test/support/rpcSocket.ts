/**
 * A page's view of the station over the WebSocket bridge, for tests that drive the core without a
 * browser: calls that resolve to their value (or throw the station's error), and every pushed
 * event kept so a test can wait for the one it expects.
 */
import WebSocket from 'ws';
import { rpcSubprotocols, type WebHost } from '../../electron/host/webHost';
import type { EventName, EventPayload, MethodName, ParamsOf, ResultOf } from '../../shared/contract';
import type { RpcHostMessage } from '../../shared/rpcEnvelope';

export class StationCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RpcSocket {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** Resolves with the first event `name` (already received or to come) that `match` accepts. */
  waitFor<E extends EventName>(
    name: E,
    match?: (p: EventPayload<E>) => boolean,
    timeoutMs?: number,
  ): Promise<EventPayload<E>>;
  events<E extends EventName>(name: E): EventPayload<E>[];
  close(): void;
}

export function connectRpc(host: WebHost): Promise<RpcSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc`, rpcSubprotocols(host.token), {
      headers: { origin: host.origin },
    });
    const replies = new Map<number, (m: RpcHostMessage) => void>();
    const seen: { event: string; payload: unknown }[] = [];
    const watchers = new Set<() => void>();
    let id = 0;
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString()) as RpcHostMessage;
      if (m.t === 'reply') {
        replies.get(m.id)?.(m);
        replies.delete(m.id);
      } else if (m.t === 'event') {
        seen.push({ event: m.name, payload: m.payload });
        watchers.forEach((w) => w());
      }
    });
    const socket: RpcSocket = {
      call(method, params) {
        const myId = ++id;
        return new Promise((res, rej) => {
          replies.set(myId, (m) => {
            if (m.t !== 'reply') return;
            if (m.result.ok) res(m.result.value as never);
            else rej(new StationCallError(m.result.error.code, m.result.error.message));
          });
          ws.send(JSON.stringify({ t: 'call', id: myId, method, params }));
        });
      },
      waitFor(name, match = () => true, timeoutMs = 20_000) {
        return new Promise((res, rej) => {
          const check = () => {
            const hit = seen.find((e) => e.event === name && match(e.payload as never));
            if (!hit) return;
            watchers.delete(check);
            clearTimeout(timer);
            res(hit.payload as never);
          };
          const timer = setTimeout(() => {
            watchers.delete(check);
            // The last few events of that name, so a failure in CI says what came instead.
            const last = seen
              .filter((e) => e.event === name)
              .slice(-5)
              .map((e) => JSON.stringify(e.payload).slice(0, 300));
            rej(
              new Error(`no matching ${name} event in ${timeoutMs} ms; the last ones: ${last.join(' | ') || 'none'}`),
            );
          }, timeoutMs);
          watchers.add(check);
          check();
        });
      },
      events: (name) => seen.filter((e) => e.event === name).map((e) => e.payload as never),
      close: () => ws.close(),
    };
    ws.on('open', () => resolve(socket));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}
