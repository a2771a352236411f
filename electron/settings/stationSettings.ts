/**
 * The station's own settings (language, sounds, scanner affixes), stored as one JSON value in the
 * settings table. Unknown or damaged values fall back to the defaults instead of failing the start.
 */
import { stationSettings, type StationSettings } from '../../shared/contract/accounts';
import type { Clock } from '../base/clock';
import type { SettingsRepo } from '../store/settingsRepo';

const KEY = 'station.settings';

export const defaultSettings: StationSettings = {
  language: null,
  sounds: true,
  volume: 80,
  scanner: { prefix: '', suffix: '', keyGapMs: 35 },
  newShipment: { lastSenderPlace: null },
  desk: { name: null, signInRequired: false, idleMinutes: 0 },
};

export function createStationSettings(repo: SettingsRepo, clock: Clock, onChange: (s: StationSettings) => void) {
  /**
   * Read and checked once, then kept: every scan asks for the scanner's affixes, and reading and
   * validating the stored value per scan was most of what a burst of 1,000 scans cost the core.
   * Only set() writes the value (this module owns its key), and it renews the copy.
   */
  let current: StationSettings | null = null;
  function get(): StationSettings {
    if (current) return current;
    const parsed = stationSettings.safeParse({ ...defaultSettings, ...(repo.get<object>(KEY) ?? {}) });
    current = parsed.success ? parsed.data : defaultSettings;
    return current;
  }
  return {
    get,
    set(patch: Partial<StationSettings>): StationSettings {
      const next = stationSettings.parse({ ...get(), ...patch });
      repo.set(KEY, next, clock.now());
      current = next;
      onChange(next);
      return next;
    },
  };
}

export type StationSettingsStore = ReturnType<typeof createStationSettings>;
