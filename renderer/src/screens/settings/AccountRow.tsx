/**
 * One company account: where it points, whether it is logged in, and what can be done with it
 * (log in through the browser or with a pasted refresh token, make active, log out, remove).
 */
import { useState } from 'react';
import type { AccountView } from '../../../../shared/contract/accounts';
import { useT } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { useAccounts } from '../../state/accountsStore';
import { errorText } from '../../i18n/errors';
import { Notice } from './Field';

/** In the web host nothing opens the system browser for us: the page opens the login page itself. */
function openLoginPage(url: string) {
  if (window.stationBridge) return; // Electron: the core opened the system browser already.
  window.open(url, '_blank', 'noopener,noreferrer');
}

export function AccountRow({ account: a }: { account: AccountView }) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tokenOpen, setTokenOpen] = useState(false);
  const [token, setToken] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [resetDone, setResetDone] = useState(false);

  async function run<R>(
    call: () => Promise<{ ok: true; value: R } | { ok: false; error: { code: string; message: string } }>,
  ): Promise<R | null> {
    setBusy(true);
    setError(null);
    const r = await call();
    setBusy(false);
    if (!r.ok) {
      setError(errorText(t, r.error));
      return null;
    }
    return r.value;
  }

  async function loginInBrowser() {
    // The demo company's password is made anew at every launch and known to nobody: the station
    // logs it in again the way it did at the first run.
    if (a.demo) {
      await run(() => rpc.request('accounts.loginDemo', { accountId: a.id }));
      void useAccounts.getState().load();
      return;
    }
    const r = await run(() => rpc.request('accounts.loginWithBrowser', { accountId: a.id }));
    if (r) openLoginPage(r.url);
    void useAccounts.getState().load();
  }

  async function loginWithToken() {
    if (!token.trim()) return setError(t('accounts.err.tokenEmpty'));
    const r = await run(() => rpc.request('accounts.loginWithRefreshToken', { accountId: a.id, refreshToken: token }));
    if (r) {
      setToken('');
      setTokenOpen(false);
      void useAccounts.getState().load();
    }
  }

  const state = a.login.state;
  return (
    <li
      className={a.active ? 'acct active' : 'acct'}
      data-testid="account-row"
      data-account-id={a.id}
      data-active={a.active}
      data-login={state}
    >
      <div className="acct-head">
        <strong className="acct-name">{a.name}</strong>
        {a.active && (
          <span className="set-badge ok" data-testid="account-active">
            ✓ {t('accounts.active')}
          </span>
        )}
        {a.demo && <span className="set-badge">{t('accounts.demo')}</span>}
        <span
          className={`set-badge ${state === 'logged-in' ? 'ok' : state === 'logging-in' ? 'warn' : 'bad'}`}
          data-testid="account-login-state"
        >
          {t(`accounts.state.${state}`)}
        </span>
      </div>
      <div className="acct-meta">
        {a.environment === 'sandbox' && !a.embedded ? t('env.sandboxOwn') : t(`env.${a.environment}`)}
        {a.baseUrl ? ` · ${a.baseUrl}` : ''} · {t('accounts.clientId', { id: a.clientId })}
      </div>
      {a.login.state === 'login_required' && <Notice kind="bad">{a.login.reason}</Notice>}
      {a.lastLoginError && (
        <Notice kind="bad" testId="account-last-error">
          {t('accounts.lastError', { message: a.lastLoginError })}
        </Notice>
      )}

      {a.login.state === 'logging-in' ? (
        <div className="acct-waiting" role="status" data-testid="login-waiting">
          <span className="spinner" aria-hidden="true" />
          <span className="acct-waiting-text">
            <strong>{t('accounts.waiting')}</strong> {t('accounts.waitingHint')}
          </span>
          <a href={a.login.url} target="_blank" rel="noopener noreferrer" data-testid="login-link">
            {t('accounts.openLogin')}
          </a>
          <button
            type="button"
            onClick={() => void run(() => rpc.request('accounts.cancelLogin', { accountId: a.id }))}
            data-testid="login-cancel"
          >
            {t('accounts.cancelLogin')}
          </button>
        </div>
      ) : (
        <div className="acct-actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void loginInBrowser()}
            data-testid="account-login"
          >
            {a.demo
              ? state === 'logged-in'
                ? t('accounts.loginAgain')
                : t('accounts.loginDemo')
              : state === 'logged-in'
                ? t('accounts.loginAgain')
                : t('accounts.login')}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => setTokenOpen((o) => !o)}
            aria-expanded={tokenOpen}
            data-testid="account-paste-token"
          >
            {t('accounts.pasteToken')}
          </button>
          {!a.active && (
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => rpc.request('accounts.setActive', { accountId: a.id }))}
              data-testid="account-activate"
            >
              {t('accounts.makeActive')}
            </button>
          )}
          {state === 'logged-in' && (
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => rpc.request('accounts.logout', { accountId: a.id }))}
              data-testid="account-logout"
            >
              {t('accounts.logout')}
            </button>
          )}
          {a.demo && a.active && (
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setResetDone(false);
                setConfirmReset(true);
              }}
              data-testid="demo-reset"
            >
              {t('accounts.demoReset')}
            </button>
          )}
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => setConfirmRemove(true)}
            data-testid="account-remove"
          >
            {t('accounts.remove')}
          </button>
        </div>
      )}

      {tokenOpen && (
        <form
          className="acct-token"
          onSubmit={(e) => {
            e.preventDefault();
            void loginWithToken();
          }}
        >
          <label htmlFor={`token-${a.id}`}>{t('accounts.tokenLabel')}</label>
          <input
            id={`token-${a.id}`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            maxLength={500}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            data-testid="account-token-input"
            autoFocus
          />
          <button type="submit" className="primary" disabled={busy} data-testid="account-token-submit">
            {t('accounts.tokenSubmit')}
          </button>
          <small className="set-hint">{t('accounts.tokenHint')}</small>
        </form>
      )}

      {confirmReset && (
        <div
          className="confirm"
          role="alertdialog"
          aria-label={t('accounts.demoReset')}
          data-testid="demo-reset-confirm"
        >
          <span>{t('accounts.demoResetConfirm')}</span>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setConfirmReset(false);
              void run(() => rpc.request('demo.reset', {})).then((r) => r && setResetDone(true));
            }}
            data-testid="demo-reset-yes"
          >
            {t('accounts.demoResetYes')}
          </button>
          <button type="button" onClick={() => setConfirmReset(false)} autoFocus>
            {t('accounts.cancel')}
          </button>
        </div>
      )}
      {resetDone && (
        <Notice kind="ok" testId="demo-reset-done">
          {t('accounts.demoResetDone')}
        </Notice>
      )}
      {confirmRemove && (
        <div
          className="confirm"
          role="alertdialog"
          aria-label={t('accounts.remove')}
          data-testid="account-remove-confirm"
        >
          <span>{t('accounts.removeConfirm', { name: a.name })}</span>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setConfirmRemove(false);
              void run(() => rpc.request('accounts.remove', { accountId: a.id }));
            }}
            data-testid="account-remove-yes"
          >
            {t('accounts.removeYes')}
          </button>
          <button type="button" onClick={() => setConfirmRemove(false)} autoFocus>
            {t('accounts.cancel')}
          </button>
        </div>
      )}
      {error && (
        <Notice kind="bad" testId="account-error">
          {error}
        </Notice>
      )}
    </li>
  );
}
