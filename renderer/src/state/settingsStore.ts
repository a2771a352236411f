/**
 * The station's settings (language, sounds, scanner affixes). The UI language follows the saved
 * choice, or the system language while none is saved.
 */
import { create } from 'zustand';
import type { StationSettings } from '../../../shared/contract/accounts';
import { errorTextNow, systemLanguage, useLanguage } from '../i18n';
import { rpc } from '../rpc/transport';

interface SettingsState {
  settings: StationSettings | null;
  error: string | null;
  load(): Promise<void>;
  save(patch: Partial<StationSettings>): Promise<boolean>;
}

function apply(s: StationSettings) {
  useLanguage.getState().setLanguage(s.language ?? systemLanguage());
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  error: null,
  async load() {
    // Service messages (carrier refusals, transport names) then come in the language this page shows.
    await rpc.request('settings.pageLanguage', { language: systemLanguage() });
    const r = await rpc.request('settings.get', {});
    if (r.ok) apply(r.value);
    set(r.ok ? { settings: r.value, error: null } : { error: errorTextNow(r.error) });
  },
  async save(patch) {
    const r = await rpc.request('settings.set', patch);
    if (r.ok) apply(r.value);
    set(r.ok ? { settings: r.value, error: null } : { error: errorTextNow(r.error) });
    return r.ok;
  },
}));

rpc.on('settings.changed', (settings) => {
  apply(settings);
  useSettings.setState({ settings });
});
