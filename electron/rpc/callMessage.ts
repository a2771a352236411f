/**
 * The one wire format of the contract's message transports (the WebSocket bridge and the
 * MessagePort bridge): JSON text, `call` in, `reply` and `event` out. Both read a call here, so a
 * malformed message gets the same answer whichever transport carried it.
 */
import type { RpcHostMessage } from '../../shared/rpcEnvelope';

export interface CallMessage {
  id: number;
  method: unknown;
  params: unknown;
}

/** The call in a message, or why it is none (said to the sender as an `invalid_message` reply). */
export function parseCall(data: string): CallMessage | string {
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

/** The answer to a message that is not a call: it has no id to answer, so -1. */
export function invalidMessage(message: string): RpcHostMessage {
  return { t: 'reply', id: -1, result: { ok: false, error: { code: 'invalid_message', message } } };
}
