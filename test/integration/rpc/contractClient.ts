/**
 * A page's view of the contract over any message transport, for running the same cases over the
 * web host's WebSocket and over a MessagePort: raw messages in, every message out kept in order.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import WebSocket from 'ws';
import { nodeRpcPort, serveRpcPort } from '../../../electron/rpc/messagePortBridge';
import type { Logger, RpcServer } from '../../../electron/rpc/rpcServer';
import { rpcSubprotocols, type WebHost } from '../../../electron/host/webHost';
import type { RpcHostMessage } from '../../../shared/rpcEnvelope';

export interface ContractClient {
  /** Sends one message as text, as the page does. */
  sendText(text: string): void;
  /** Sends something that is not text (a binary frame; a structured object over a port). */
  sendNonText(): void;
  /** A call and its reply (events that come first are kept for `waitForEvent`). */
  call(method: unknown, params: unknown): Promise<RpcHostMessage>;
  nextReply(): Promise<RpcHostMessage>;
  waitForEvent(name: string, match?: (payload: never) => boolean, timeoutMs?: number): Promise<unknown>;
  close(): void;
}

function clientOver(
  send: (data: unknown) => void,
  nonText: unknown,
  close: () => void,
): { client: ContractClient; receive(text: string): void } {
  const replies: RpcHostMessage[] = [];
  const events: { name: string; payload: unknown }[] = [];
  const watchers = new Set<() => void>();
  let id = 0;
  const until = <T>(find: () => T | undefined, what: string, timeoutMs = 20_000) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (hit === undefined) return;
        watchers.delete(check);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      watchers.add(check);
      check();
    });
  const takeReply = (match: (m: RpcHostMessage) => boolean) => () => {
    const i = replies.findIndex(match);
    return i < 0 ? undefined : replies.splice(i, 1)[0];
  };
  const client: ContractClient = {
    sendText: (text) => send(text),
    sendNonText: () => send(nonText),
    call(method, params) {
      const myId = ++id;
      send(JSON.stringify({ t: 'call', id: myId, method, params }));
      return until(
        takeReply((m) => m.t === 'reply' && m.id === myId),
        `reply to ${String(method)}`,
      );
    },
    nextReply: () =>
      until(
        takeReply(() => true),
        'reply',
      ),
    waitForEvent: (name, match = () => true, timeoutMs) =>
      until(
        () => events.find((e) => e.name === name && match(e.payload as never))?.payload,
        `${name} event`,
        timeoutMs,
      ),
    close,
  };
  return {
    client,
    receive(text) {
      const m = JSON.parse(text) as RpcHostMessage;
      if (m.t === 'event') events.push({ name: m.name, payload: m.payload });
      else replies.push(m);
      watchers.forEach((w) => w());
    },
  };
}

/** The web host's socket, opened the way the page opens it. */
export function webSocketClient(host: WebHost): Promise<ContractClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc`, rpcSubprotocols(host.token), {
      headers: { origin: host.origin },
    });
    const { client, receive } = clientOver(
      (d) => ws.send(d as string | Buffer),
      Buffer.from([0x7b, 0x7d]),
      () => ws.close(),
    );
    ws.on('message', (data) => receive((data as Buffer).toString()));
    ws.on('open', () => resolve(client));
    ws.on('error', reject);
  });
}

/**
 * One end of a worker_threads MessageChannel served by the MessagePort bridge, the other end the
 * page's; `stop` is what the bridge returned, `pagePort` the page's end.
 */
export function messagePortClient(
  rpc: RpcServer,
  log: Logger,
): { client: ContractClient; stop: () => void; pagePort: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  const stop = serveRpcPort(nodeRpcPort(port1), rpc, log);
  // A structured object that looks like a call: only text is accepted, as over the socket.
  const { client, receive } = clientOver(
    (d) => port2.postMessage(d),
    { t: 'call', id: 1, method: 'station.status', params: {} },
    () => port2.close(),
  );
  port2.on('message', (data: unknown) => receive(String(data)));
  return { client, stop, pagePort: port2 };
}
