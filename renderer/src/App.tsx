import { useEffect } from 'react';
import { useLanguage, useT, type Language } from './i18n';
import { errorText, serviceErrorText } from './i18n/errors';
import { useConnection } from './rpc/transport';
import { screens } from './screens/registry';
import { ReprintReasonHost } from './reprint/ReprintReasonDialog';
import { HoldReasonHost } from './shelf/HoldReasonDialog';
import { useHold } from './shelf/holdStore';
import { CommandNote } from './scan/CommandNote';
import { DemoPickListButton } from './screens/firstRun/DemoPickList';
import { useSettingsTab } from './screens/settings/SettingsScreen';
import { activeAccount, useAccounts } from './state/accountsStore';
import { useNav } from './state/navStore';
import { useSettings } from './state/settingsStore';
import { useStatus } from './state/statusStore';
import { useScanCapture } from './scan/scanCapture';
import { ScanToast } from './scan/ScanToast';
import { printerName } from './i18n/printerName';
import { OperatorBar } from './operators/OperatorBar';
import { useOperators } from './state/operatorsStore';
import { useCamera } from './camera/cameraStore';
import { CameraNotice } from './camera/CameraCorner';

function LanguageSwitch() {
  const { language } = useLanguage();
  const save = useSettings((s) => s.save);
  const t = useT();
  return (
    <label className="lang">
      <span className="visually-hidden">{t('lang.label')}</span>
      <select
        value={language}
        onChange={(e) => {
          useLanguage.getState().setLanguage(e.target.value as Language);
          void save({ language: e.target.value as Language });
        }}
        data-testid="language"
      >
        <option value="cs">Čeština</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}

function AccountSwitch() {
  const t = useT();
  const { accounts, setActive } = useAccounts();
  const active = activeAccount({ accounts });
  if (accounts.length === 0) return <span className="pill bad">{t('account.none')}</span>;
  const login = active?.login.state;
  return (
    <span className="account">
      <label>
        <span className="visually-hidden">{t('account.label')}</span>
        <select value={active?.id ?? ''} onChange={(e) => void setActive(e.target.value)} data-testid="account-switch">
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      {login && login !== 'logged-in' && (
        <span className="pill bad" data-testid="login-pill">
          {login === 'logging-in'
            ? t('account.loggingIn')
            : login === 'login_required'
              ? t('account.loginRequired')
              : t('account.loggedOut')}
        </span>
      )}
    </span>
  );
}

function PrinterPill() {
  const t = useT();
  const printers = useStatus((s) => s.status?.printers ?? []);
  const trouble = printers.find((p) => p.state === 'offline' || p.state === 'error');
  return (
    <span className={`pill ${trouble ? 'bad' : 'ok'}`} data-testid="printer-pill">
      {trouble
        ? t('printers.trouble', { name: printerName(t, trouble), state: t(`printerState.${trouble.state}`) })
        : t('printers.allReady')}
    </span>
  );
}

function Nav() {
  const t = useT();
  const { screen, go } = useNav();
  const onShelf = useHold((s) => s.count);
  return (
    <nav className="tabs" aria-label={t('nav.label')}>
      {screens.map((s) => (
        <button
          key={s.id}
          type="button"
          className={s.id === screen ? 'tab active' : 'tab'}
          aria-current={s.id === screen ? 'page' : undefined}
          onClick={() => go(s.id)}
          data-testid={`nav-${s.id}`}
        >
          {/* data-text reserves the bold width (styles.css .tab-label), so an active tab never moves the others. */}
          <span className="tab-label" data-text={t(s.label)}>
            {t(s.label)}
          </span>{' '}
          {s.id === 'shelf' && onShelf > 0 && (
            <>
              <span className="tab-count" data-testid="shelf-count">
                {onShelf}
              </span>{' '}
            </>
          )}
          {/* ⇧ as on the key itself: "Shift+F1" in full did not leave ten tabs room on one row. */}
          {s.shift ? <kbd title={`Shift+${s.key}`}>⇧{s.key}</kbd> : <kbd>{s.key}</kbd>}
        </button>
      ))}
    </nav>
  );
}

/** F-keys switch screens from anywhere; they never reach a text field as input. */
function useScreenKeys() {
  const go = useNav((s) => s.go);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const hit = screens.find((s) => s.key === e.key && !!s.shift === e.shiftKey);
      if (hit && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        go(hit.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);
}

export function App() {
  const t = useT();
  const connected = useConnection((s) => s.connected);
  const status = useStatus((s) => s.status);
  const loadStatus = useStatus((s) => s.load);
  const loadAccounts = useAccounts((s) => s.load);
  const loadSettings = useSettings((s) => s.load);
  const loadOperators = useOperators((s) => s.load);
  const accounts = useAccounts((s) => s.accounts);
  const screen = useNav((s) => s.screen);
  const go = useNav((s) => s.go);
  useScreenKeys();
  useScanCapture();
  useEffect(() => {
    if (connected) {
      void loadStatus();
      void loadAccounts();
      void loadSettings();
      void loadOperators();
    }
  }, [connected, loadStatus, loadAccounts, loadSettings, loadOperators]);
  // Camera (camera): the desk camera runs on every screen while it is on (a scan anywhere gets its photo).
  useEffect(() => void (connected && useCamera.getState().load()), [connected]);

  const active = activeAccount({ accounts });
  const reachable = status?.service.reachable;
  // The service answers but the active company must log in: that is what the worker must do, not
  // check the connection.
  const loginNeeded = reachable && status?.session.usable === 'login_needed';
  // The demo banner is about the demo company: another company (even one on a sandbox of its own) is real work.
  const demo = active ? active.demo : status?.service.environment === 'sandbox';
  const Current = (screens.find((s) => s.id === screen) ?? screens[0]!).Component;
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">{t('app.title')}</span>
        <span className="spacer" />
        <span className={`pill ${connected ? 'ok' : 'bad'}`} data-testid="connection">
          {connected ? t('conn.up') : t('conn.down')}
        </span>
        {status && (
          <span
            className={`pill ${loginNeeded ? 'warn' : reachable ? 'ok' : 'bad'}`}
            data-testid="service-pill"
            data-usable={status.session.usable}
            title={status.service.error ? serviceErrorText(t, status.service) : status.service.baseUrl}
          >
            {loginNeeded ? t('service.loginNeeded') : reachable ? t('service.reachable') : t('service.unreachable')}
          </span>
        )}
        {status && <PrinterPill />}
        <OperatorBar />
        <AccountSwitch />
        <LanguageSwitch />
      </header>
      <Nav />
      {status && demo && (
        <div className="banner" role="note" data-testid="demo-banner">
          {t('banner.demo')}
          <DemoPickListButton />
        </div>
      )}
      {status?.storage.failed && (
        <div className="banner storage-failed" role="alert" data-testid="storage-banner" data-state="failed">
          <strong>
            {errorText(t, {
              code: 'storage_failed',
              message: status.storage.failed.message,
              details: status.storage.failed,
            })}
          </strong>{' '}
          {t('banner.storage.failed', { dataDir: status.dataDir })}
        </div>
      )}
      {status && !status.storage.failed && status.storage.restartedAfter && (
        <div className="banner warn" role="alert" data-testid="storage-banner" data-state="restarted">
          {t('banner.storage.restarted', {
            dataDir: status.dataDir,
            reason: t(`storage.kind.${status.storage.restartedAfter.kind}`),
            code: status.storage.restartedAfter.code,
          })}
        </div>
      )}
      {status && !status.keychain.available && (
        <div className="banner warn" role="alert" data-testid="keychain-banner">
          {t('banner.keychain')}
        </div>
      )}
      {active && active.login.state !== 'logged-in' && active.login.state !== 'logging-in' && (
        <div className="banner warn" role="alert" data-testid="login-banner">
          {t('banner.login', { name: active.name })}{' '}
          <button
            type="button"
            data-testid="login-banner-action"
            onClick={() => {
              useSettingsTab.getState().setTab('accounts');
              go('settings');
            }}
          >
            {t('banner.login.action')}
          </button>
        </div>
      )}
      <CameraNotice />
      <main>
        <Current />
      </main>
      <ScanToast />
      <ReprintReasonHost />
      <HoldReasonHost />
      <CommandNote />
    </div>
  );
}
