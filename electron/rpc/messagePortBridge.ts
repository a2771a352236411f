/**
 * The MessagePort transport of the contract: the desktop app's renderer talks to the core (in
 * Electron's utility process) over a MessagePort pair, with the same JSON text messages as the
 * WebSocket bridge (callMessage.ts). Text rather than structured clones keeps every transport's
 * answers identical (a Date or a Buffer arrives as it does over the socket) and makes a value
 * that cannot be cloned impossible to send.
 *
 * Plain Node: Electron's MessagePortMain and Node's worker_threads MessagePort have the same
 * methods, but a 'message' listener gets `{ data }` from the first and the data itself from the
 * second; the two adapters below hide that, so the tests run the bridge over a Node pair.
 */
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import { createCallPacer, invalidMessage, parseCall } from './callMessage';
import type { Logger, RpcServer } from './rpcServer';

/** What the bridge needs of a port. */
export interface RpcPort {
  post(text: string): void;
  onMessage(listener: (data: unknown) => void): void;
  onClose(listener: () => void): void;
  start(): void;
  close(): void;
}

/** The methods Node's MessagePort and Electron's MessagePortMain share (their events differ). */
export interface MessagePortLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the listener's argument is exactly what differs between the two (see the adapters)
  on(event: string, listener: (arg: any) => void): unknown;
  postMessage(value: unknown): void;
  start(): void;
  close(): void;
}

/** Node's worker_threads MessagePort: a 'message' listener gets the data itself. */
export function nodeRpcPort(port: MessagePortLike): RpcPort {
  return {
    post: (text) => port.postMessage(text),
    onMessage: (listener) => void port.on('message', listener),
    onClose: (listener) => void port.on('close', listener),
    start: () => port.start(),
    close: () => port.close(),
  };
}

/** Electron's MessagePortMain: a 'message' listener gets an event whose `data` is the message. */
export function electronRpcPort(port: MessagePortLike): RpcPort {
  return {
    ...nodeRpcPort(port),
    onMessage: (listener) => void port.on('message', (e: { data: unknown }) => listener(e.data)),
  };
}

/**
 * Serves the contract on one port until either end closes it: calls go to `rpc.dispatch`, every
 * event goes out. Returns a function that stops serving and closes the port.
 */
export function serveRpcPort(port: RpcPort, rpc: RpcServer, log: Logger): () => void {
  let open = true;
  const send = (msg: RpcHostMessage) => {
    if (!open) return;
    try {
      port.post(JSON.stringify(msg));
    } catch (err) {
      // A payload JSON cannot carry is a core bug: said in the log, the port keeps serving.
      log.error('rpc port could not send a message', { t: msg.t, error: (err as Error).message });
    }
  };
  const unsubscribe = rpc.onEvent((name, payload) => send({ t: 'event', name, payload }));
  const stop = () => {
    if (!open) return;
    open = false;
    unsubscribe();
  };
  const pace = createCallPacer();
  const take = async (data: unknown) => {
    if (typeof data !== 'string') {
      send(invalidMessage('The message must be JSON text.'));
      return;
    }
    const call = parseCall(data);
    if (typeof call === 'string') {
      send(invalidMessage(call));
      return;
    }
    const result = await rpc.dispatch(call.method, call.params);
    send({ t: 'reply', id: call.id, result });
  };
  port.onMessage((data) => pace(() => void take(data)));
  port.onClose(stop);
  port.start();
  return () => {
    stop();
    port.close();
  };
}
