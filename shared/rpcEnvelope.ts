/**
 * The wire shapes every transport carries (the desktop app's MessagePort, the WebSocket bridge,
 * the in-memory test transport). Answers cross the boundary as a result envelope, never as a
 * thrown error.
 */

import type { StationErrorCode } from './errors/codes';

/** Error codes a UI can translate: the registry's (shared/errors/codes.ts). `message` is for a person and says what to do. */
export type RpcErrorCode = StationErrorCode;

export interface RpcError {
  code: RpcErrorCode;
  message: string;
  /** Optional structured detail (validation issues, service errors[]), never secrets. */
  details?: unknown;
}

export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError };

/** Client -> host. */
export interface RpcCallMessage {
  t: 'call';
  id: number;
  method: string;
  params: unknown;
}

/** Host -> client: the answer to one call. */
export interface RpcReplyMessage {
  t: 'reply';
  id: number;
  result: RpcResult<unknown>;
}

/** Host -> client: a pushed event. */
export interface RpcEventMessage {
  t: 'event';
  name: string;
  payload: unknown;
}

export type RpcHostMessage = RpcReplyMessage | RpcEventMessage;
