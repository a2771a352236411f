/**
 * The WebSocket transport of the contract: one JSON message per frame, `call` in, `reply` and
 * `event` out. Admission (token, Origin, Host) happens in the web host before a socket gets here.
 */
import type { WebSocket } from 'ws';
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import type { Logger, RpcServer } from './rpcServer';

function parseCall(data: string): { id: number; method: unknown; params: unknown } | string {
  let msg: unknown;
  try {
    msg = JSON.parse(data);
  } catch {
    return 'The message is not valid JSON.';
  }
  if (typeof msg !== 'object' || msg === null) return 'The message must be a JSON object.';
  const m = msg as Record<string, unknown>;
  if (m.t !== 'call') return 'The message type must be "call".';
  if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id)) return 'The call needs an integer id.';
  return { id: m.id, method: m.method, params: m.params };
}

/** Serves one admitted socket until it closes. */
export function serveRpcSocket(socket: WebSocket, rpc: RpcServer, log: Logger): void {
  const send = (msg: RpcHostMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  };
  const unsubscribe = rpc.onEvent((name, payload) => send({ t: 'event', name, payload }));
  socket.on('message', async (raw, isBinary) => {
    if (isBinary) {
      send({ t: 'reply', id: -1, result: { ok: false, error: { code: 'invalid_message', message: 'Binary frames are not accepted.' } } });
      return;
    }
    const call = parseCall(raw.toString());
    if (typeof call === 'string') {
      send({ t: 'reply', id: -1, result: { ok: false, error: { code: 'invalid_message', message: call } } });
      return;
    }
    const result = await rpc.dispatch(call.method, call.params);
    send({ t: 'reply', id: call.id, result });
  });
  socket.on('close', unsubscribe);
  socket.on('error', (err) => log.warn('rpc socket error', { error: err.message }));
}
