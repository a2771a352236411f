/**
 * The one wire format of the contract's message transports (the WebSocket bridge and the
 * MessagePort bridge): JSON text, `call` in, `reply` and `event` out. Both read a call here, so a
 * malformed message gets the same answer whichever transport carried it.
 */
import type { RpcHostMessage } from '../../shared/rpcEnvelope';
import { SLICE_MS } from '../base/slices';

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

/**
 * Takes the calls of one connection in order, about SLICE_MS of them per turn of the event loop:
 * a page sending what it held (1,000 scans made while it was offline) arrives in one read of the
 * socket, and reading, checking and starting every call in that one turn held the core's loop far
 * longer than a slice. A lone call runs at once, as before. `start` must not throw: the bridges
 * pass the start of an async handler, whose failures are its promise's.
 */
export function createCallPacer(sliceMs = SLICE_MS): (start: () => void) => void {
  const waiting: (() => void)[] = [];
  /** Where this turn's share ends; null while no turn is open. */
  let turnEnds: number | null = null;
  const endTurn = () => {
    turnEnds = null;
    run();
  };
  function run(): void {
    while (waiting.length) {
      if (turnEnds === null) {
        turnEnds = performance.now() + sliceMs;
        setImmediate(endTurn);
      } else if (performance.now() >= turnEnds) return; // the rest on the next turn (endTurn)
      waiting.shift()!();
    }
  }
  return (start) => {
    waiting.push(start);
    if (waiting.length === 1) run();
  };
}
