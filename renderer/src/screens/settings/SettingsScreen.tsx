/**
 * Settings (F8): accounts, printers, routing, scanner & sounds, language, as sub-tabs. The chosen
 * sub-tab is kept while the worker visits other screens; arrow keys move between sub-tabs.
 */
import { create } from 'zustand';
import type { ComponentType } from 'react';
import { useT } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { AccountsSection } from './AccountsSection';
import { LanguageSection } from './LanguageSection';
import { OperatorsSection } from './OperatorsSection';
import { PrintersSection } from './PrintersSection';
import { RoutingSection } from './RoutingSection';
import { ScannerSoundsSection } from './ScannerSoundsSection';
import { ScaleSection } from './ScaleSection';
import { RetentionSection } from './RetentionSection';
import { MetricsSection } from './MetricsSection';
import { CameraSection } from './CameraSection';
import './settings.css';

export type SettingsTab =
  | 'accounts'
  | 'printers'
  | 'routing'
  | 'scanner'
  | 'scale'
  | 'operators'
  | 'camera'
  | 'retention'
  | 'language'
  | 'metrics';

const tabs: { id: SettingsTab; label: MessageKey; Component: ComponentType }[] = [
  { id: 'accounts', label: 'settings.tab.accounts', Component: AccountsSection },
  { id: 'printers', label: 'settings.tab.printers', Component: PrintersSection },
  { id: 'routing', label: 'settings.tab.routing', Component: RoutingSection },
  { id: 'scanner', label: 'settings.tab.scanner', Component: ScannerSoundsSection },
  { id: 'scale', label: 'settings.tab.scale', Component: ScaleSection },
  { id: 'operators', label: 'operators.tab', Component: OperatorsSection },
  { id: 'camera', label: 'settings.tab.camera', Component: CameraSection },
  { id: 'retention', label: 'settings.tab.retention', Component: RetentionSection },
  { id: 'language', label: 'settings.tab.language', Component: LanguageSection },
  { id: 'metrics', label: 'metrics.tab', Component: MetricsSection },
];

export const useSettingsTab = create<{ tab: SettingsTab; setTab(t: SettingsTab): void }>((set) => ({
  tab: 'accounts',
  setTab: (tab) => set({ tab }),
}));

export function SettingsScreen() {
  const t = useT();
  const { tab, setTab } = useSettingsTab();
  const current = tabs.find((x) => x.id === tab) ?? tabs[0]!;
  const move = (step: number) => {
    const i = (tabs.indexOf(current) + step + tabs.length) % tabs.length;
    setTab(tabs[i]!.id);
    document.getElementById(`settings-tab-${tabs[i]!.id}`)?.focus();
  };
  return (
    <section className="card settings" data-testid="screen-settings" aria-label={t('nav.settings')}>
      <div
        className="set-tabs"
        role="tablist"
        aria-label={t('nav.settings')}
        onKeyDown={(e) => {
          if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(1);
          else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(-1);
          else return;
          e.preventDefault();
        }}
      >
        {tabs.map((x) => (
          <button
            key={x.id}
            id={`settings-tab-${x.id}`}
            type="button"
            role="tab"
            aria-selected={x.id === tab}
            tabIndex={x.id === tab ? 0 : -1}
            className={x.id === tab ? 'set-tab active' : 'set-tab'}
            onClick={() => setTab(x.id)}
            data-testid={`settings-tab-${x.id}`}
          >
            {t(x.label)}
          </button>
        ))}
      </div>
      <div className="set-body" role="tabpanel" aria-labelledby={`settings-tab-${current.id}`}>
        <current.Component />
      </div>
    </section>
  );
}
