import { useEffect } from 'react';
import { useLanguage, useT, type Language } from './i18n';
import { useConnection } from './rpc/transport';
import { StatusScreen } from './screens/StatusScreen';
import { useStatus } from './state/statusStore';

function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  const t = useT();
  return (
    <label className="lang">
      <span className="visually-hidden">{t('lang.label')}</span>
      <select value={language} onChange={(e) => setLanguage(e.target.value as Language)} data-testid="language">
        <option value="cs">Čeština</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}

export function App() {
  const t = useT();
  const connected = useConnection((s) => s.connected);
  const status = useStatus((s) => s.status);
  const load = useStatus((s) => s.load);
  useEffect(() => {
    if (connected) void load();
  }, [connected, load]);

  const reachable = status?.service.reachable;
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">{t('app.title')}</span>
        <span className="spacer" />
        <span className={`pill ${connected ? 'ok' : 'bad'}`} data-testid="connection">
          {connected ? t('conn.up') : t('conn.down')}
        </span>
        {status && (
          <span className={`pill ${reachable ? 'ok' : 'bad'}`} data-testid="service-pill">
            {reachable ? t('service.reachable') : t('service.unreachable')}
          </span>
        )}
        <LanguageSwitch />
      </header>
      {status?.service.environment === 'sandbox' && (
        <div className="banner" role="note" data-testid="demo-banner">
          {t('banner.demo')}
        </div>
      )}
      <main>
        <StatusScreen />
      </main>
    </div>
  );
}
