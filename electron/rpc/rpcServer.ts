/**
 * The core's half of the contract: validates every incoming call (the renderer and anything on
 * 127.0.0.1 are untrusted), runs its handler and answers with a result envelope. Transports (the
 * MessagePort bridge, the WebSocket bridge, the in-memory test transport) only move messages to
 * `dispatch` and events from `onEvent`.
 */
import type { z } from 'zod';
import {
  events,
  isMethodName,
  methods,
  type EventName,
  type EventPayload,
  type MethodName,
  type Methods,
  type ResultOf,
} from '../../shared/contract';
import type { RpcResult } from '../../shared/rpcEnvelope';
import { StationError } from '../base/stationError';

export type Handler<M extends MethodName> = (
  params: z.output<Methods[M]['params']>,
) => Promise<ResultOf<M>> | ResultOf<M>;

export type Handlers = { [M in MethodName]: Handler<M> };

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface RpcServer {
  dispatch(method: unknown, params: unknown): Promise<RpcResult<unknown>>;
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Transports subscribe here to forward events to their clients. */
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void;
}

/** Joins per-domain handler maps; a method handled twice throws at start-up. */
export function mergeHandlers(...maps: Partial<Handlers>[]): Handlers {
  const out: Record<string, unknown> = {};
  for (const map of maps) {
    for (const [name, fn] of Object.entries(map)) {
      if (name in out) throw new Error(`RPC method handled twice: ${name}`);
      out[name] = fn;
    }
  }
  const missing = Object.keys(methods).filter((m) => !(m in out));
  if (missing.length) throw new Error(`RPC methods without a handler: ${missing.join(', ')}`);
  return out as Handlers;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(params)'}: ${i.message}`)
    .join('; ');
}

/**
 * One refused field for the page: its path, zod's English sentence, and the issue's code with its
 * limit, so the page can say the same in the worker's language.
 */
function issueDetail(i: z.core.$ZodIssue): {
  path: string[];
  message: string;
  code: string;
  origin?: string;
  limit?: number;
} {
  const bound =
    i.code === 'too_big'
      ? { origin: i.origin, limit: Number(i.maximum) }
      : i.code === 'too_small'
        ? { origin: i.origin, limit: Number(i.minimum) }
        : null;
  return {
    path: i.path.map(String),
    message: i.message,
    code: i.code,
    ...(bound && Number.isFinite(bound.limit) ? bound : {}),
  };
}

export interface RpcGuards {
  /** A refusal before the handler runs (the station's data cannot be written), or null. */
  refuse?(method: MethodName): StationError | null;
  /** What a handler's failure means to the station (a storage failure is a refusal of its own), or null. */
  fault?(err: unknown): StationError | null;
  /**
   * Runs the handler; when it committed, its answer waits until the commit is on the disk
   * (store/walSync.ts): a set-up answered saved survives a power cut.
   */
  afterCommits?<T>(run: () => Promise<T>): Promise<T>;
}

export function createRpcServer(handlers: Handlers, log: Logger, guards: RpcGuards = {}): RpcServer {
  const listeners = new Set<(name: EventName, payload: unknown) => void>();

  async function dispatch(method: unknown, params: unknown): Promise<RpcResult<unknown>> {
    if (typeof method !== 'string' || !isMethodName(method)) {
      const shown = typeof method === 'string' ? method.slice(0, 80) : typeof method;
      return { ok: false, error: { code: 'unknown_method', message: `Unknown method: ${shown}` } };
    }
    const spec = methods[method];
    const parsed = spec.params.safeParse(params ?? {});
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: 'invalid_params',
          message: `Invalid parameters for ${method}: ${describeIssues(parsed.error)}`,
          details: parsed.error.issues.map(issueDetail),
        },
      };
    }
    const refused = guards.refuse?.(method);
    if (refused)
      return { ok: false, error: { code: refused.code, message: refused.message, details: refused.details } };
    try {
      const handler = handlers[method] as (p: unknown) => unknown;
      const run = async () => handler(parsed.data);
      const value = await (guards.afterCommits ? guards.afterCommits(run) : run());
      return { ok: true, value };
    } catch (err) {
      const known = err instanceof StationError ? err : guards.fault?.(err);
      if (known) return { ok: false, error: { code: known.code, message: known.message, details: known.details } };
      log.error('rpc handler failed', { method, error: err instanceof Error ? err.message : String(err) });
      return { ok: false, error: { code: 'internal', message: `The station failed to run ${method}. See the log.` } };
    }
  }

  return {
    dispatch,
    emit(name, payload) {
      // Events are validated too: a malformed push is a core bug, caught here not in a screen.
      const checked = events[name].safeParse(payload);
      if (!checked.success) {
        log.error('rpc event payload invalid', { name, issues: describeIssues(checked.error) });
        return;
      }
      for (const l of listeners) l(name, checked.data);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
