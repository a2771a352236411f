/**
 * The WebSocket transport of the contract: one JSON message per frame, `call` in, `reply` and
 * `event` out (the wire format in callMessage.ts, shared with the MessagePort bridge).
 * Admission (token, Origin, Host) happens in the web host before a socket gets here.
 */
import type { WebSocket } from 'ws';
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import { createCallPacer, invalidMessage, parseCall } from './callMessage';
import type { Logger, RpcServer } from './rpcServer';

/** Serves one admitted socket until it closes. */
export function serveRpcSocket(socket: WebSocket, rpc: RpcServer, log: Logger): void {
  const send = (msg: RpcHostMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  };
  const unsubscribe = rpc.onEvent((name, payload) => send({ t: 'event', name, payload }));
  const pace = createCallPacer();
  const take = async (raw: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) {
      send(invalidMessage('Binary frames are not accepted.'));
      return;
    }
    // A text frame arrives as one Buffer (the socket's binaryType is the default 'nodebuffer').
    const call = parseCall((raw as Buffer).toString());
    if (typeof call === 'string') {
      send(invalidMessage(call));
      return;
    }
    const result = await rpc.dispatch(call.method, call.params);
    send({ t: 'reply', id: call.id, result });
  };
  socket.on('message', (raw, isBinary) => pace(() => void take(raw, isBinary)));
  socket.on('close', unsubscribe);
  socket.on('error', (err) => log.warn('rpc socket error', { error: err.message }));
}
