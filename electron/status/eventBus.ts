/**
 * The station's events (the contract's `Events`: settings.changed, printing.jobs, ...) go
 * through one bus that exists before any module is built, so nothing can emit into a server that
 * is not there yet (the start-up crash of the durable-journal issue came from closures calling
 * the RPC server before its declaration). The RPC server connects as the bus's sink once every
 * domain's handlers exist; an event emitted before then has no page to reach and is dropped.
 */
import type { RpcServer } from '../rpc/rpcServer';

export type Emit = RpcServer['emit'];

export interface EventBus {
  emit: Emit;
  /** Where events go from now on (the RPC server); returns the function that disconnects it. */
  connect(sink: Emit): () => void;
}

export function createEventBus(): EventBus {
  const sinks = new Set<Emit>();
  const emit = ((name: Parameters<Emit>[0], payload: Parameters<Emit>[1]) => {
    for (const sink of sinks) sink(name, payload as never);
  }) as Emit;
  return {
    emit,
    connect(sink) {
      sinks.add(sink);
      return () => void sinks.delete(sink);
    },
  };
}
