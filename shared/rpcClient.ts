/**
 * The renderer's typed view of the contract, over any transport. Screens call
 * `rpc.call('station.status', {})` and never know whether the desktop app's MessagePort or the
 * WebSocket bridge carries it.
 */
import type { EventName, EventPayload, MethodName, ParamsOf, ResultOf } from './contract';
import type { RpcError, RpcResult } from './rpcEnvelope';

/** The tiny interface every transport implements. */
export interface RpcTransport {
  call(method: string, params: unknown): Promise<RpcResult<unknown>>;
  /** Subscribes to every pushed event; returns the unsubscribe function. */
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

export class RpcCallError extends Error {
  constructor(
    readonly code: RpcError['code'],
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

export interface RpcClient {
  /** Resolves with the envelope; never throws for a service-side error. */
  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<RpcResult<ResultOf<M>>>;
  /** Resolves with the value or throws RpcCallError. */
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createRpcClient(transport: RpcTransport): RpcClient {
  const request = async <M extends MethodName>(method: M, params: ParamsOf<M>) =>
    (await transport.call(method, params)) as RpcResult<ResultOf<M>>;
  return {
    request,
    async call(method, params) {
      const result = await request(method, params);
      if (!result.ok) throw new RpcCallError(result.error.code, result.error.message, result.error.details);
      return result.value;
    },
    on(name, listener) {
      return transport.onEvent((eventName, payload) => {
        if (eventName === name) listener(payload as EventPayload<typeof name>);
      });
    },
  };
}
