/**
 * Who works at the desk, wired by the composition root (electron/station.ts): the registered
 * workers, sign-in and sign-out, the desk's scan rules around every RPC handler, and the idle time
 * checked every second.
 */
import type { Clock } from '../base/clock';
import type { StationSettingsStore } from '../settings/stationSettings';
import type { Emit } from '../status/eventBus';
import type { DeskActionsRepo } from '../store/deskActionsRepo';
import { createOperatorsRepo } from '../store/operatorsRepo';
import type { StationStore } from '../store/wireStore';
import type { DeskOperator } from './deskOperator';
import { createOperators } from './operators';

export function wireOperators(o: {
  store: StationStore;
  desk: DeskOperator;
  deskActions: DeskActionsRepo;
  settings: StationSettingsStore;
  clock: Clock;
  emit: Emit;
}) {
  const repo = createOperatorsRepo(o.store.db);
  const operators = createOperators({
    repo,
    desk: o.desk,
    deskActions: o.deskActions,
    clock: o.clock,
    deskSettings: () => o.settings.get().desk,
    scannerAffixes: () => o.settings.get().scanner,
    emitList: (l) => o.emit('operators.listChanged', l),
  });
  return {
    handlers: operators.handlers,
    /** The desk's rules first: no desk code and no scan without a required sign-in; the idle time. */
    guard: operators.guard,
    isSupervisor: (id: number) => repo.get(id)?.supervisor === true,
    /** The idle time checked every second; returns what stops it. */
    watchIdle: () => o.clock.setInterval(() => operators.checkIdle(), 1000),
  };
}
