/**
 * The station's events, wired by the composition root (electron/station.ts) before any part that
 * emits: the event bus (the RPC server connects to it last) and the lists the pages follow,
 * gathered in bursts (electron/status/pageFeeds.ts).
 */
import type { PendingScansChange } from '../../shared/contract/workflows';
import { createEventBus } from './eventBus';
import { createListChangeFeed, createShipmentsChangedFeed, pendingForPages } from './pageFeeds';

export function wireEvents() {
  const bus = createEventBus();
  const emit = bus.emit;
  const shipmentsChanged = createShipmentsChangedFeed((e) => emit('shipments.changed', e));
  const pending = createListChangeFeed<PendingScansChange['put'][number], number>({
    key: (p) => p.scanId,
    send: (c) => emit('scan.pending', pendingForPages(c)),
  });
  return {
    emit,
    connect: bus.connect,
    shipmentsChanged,
    pending,
    /** The gathered lists stop sending (the station closes). */
    stop(): void {
      shipmentsChanged.stop();
      pending.stop();
    },
  };
}

export type StationEvents = ReturnType<typeof wireEvents>;
