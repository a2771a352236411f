/**
 * The station's settings, wired by the composition root (electron/station.ts): the settings, the
 * desk (its name is a setting; who works at it is said in the top bars), the language the core
 * speaks to the service, and their RPC handlers.
 */
import os from 'node:os';
import type { Clock } from '../base/clock';
import { createDeskOperator } from '../operators/deskOperator';
import type { Handlers } from '../rpc/rpcServer';
import type { Emit } from '../status/eventBus';
import { createStationLanguage } from '../status/stationLanguage';
import type { StationStore } from '../store/wireStore';
import { createStationSettings } from './stationSettings';

export function wireSettings(o: { store: StationStore; clock: Clock; emit: Emit }) {
  const settings = createStationSettings(o.store.settings, o.clock, (s) => {
    o.emit('settings.changed', s);
    // The desk's name may have changed: the top bars show it.
    o.emit('operators.changed', deskOperator.who());
  });
  // The desk's name: the one Settings gives it, else the computer's.
  const deskOperator = createDeskOperator(() => settings.get().desk.name ?? os.hostname());
  deskOperator.onChange((w) => o.emit('operators.changed', w));
  const languages = createStationLanguage(() => settings.get().language);
  const handlers: Pick<Handlers, 'settings.get' | 'settings.set' | 'settings.pageLanguage'> = {
    'settings.get': () => settings.get(),
    'settings.set': (patch) => settings.set(patch),
    'settings.pageLanguage': (p) => ({ language: languages.pageShows(p.language) }),
  };
  return { settings, deskOperator, language: languages.current, handlers };
}
