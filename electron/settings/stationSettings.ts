/**
 * The station's own settings (language, sounds, scanner affixes), stored as one JSON value in the
 * settings table. Unknown or damaged values fall back to the defaults instead of failing the start.
 */
import { stationSettings, type StationSettings } from '../../shared/contract/accounts';
import type { Clock } from '../clock';
import type { SettingsRepo } from '../store/settingsRepo';

const KEY = 'station.settings';

export const defaultSettings: StationSettings = { language: null, sounds: true, volume: 80, scanner: { prefix: '', suffix: '', keyGapMs: 35 }, newShipment: { lastSenderPlace: null } };

export function createStationSettings(repo: SettingsRepo, clock: Clock, onChange: (s: StationSettings) => void) {
  function get(): StationSettings {
    const parsed = stationSettings.safeParse({ ...defaultSettings, ...(repo.get<object>(KEY) ?? {}) });
    return parsed.success ? parsed.data : defaultSettings;
  }
  return {
    get,
    set(patch: Partial<StationSettings>): StationSettings {
      const next = stationSettings.parse({ ...get(), ...patch });
      repo.set(KEY, next, clock.now());
      onChange(next);
      return next;
    },
  };
}

export type StationSettingsStore = ReturnType<typeof createStationSettings>;
