/**
 * Settings → Metrics: the desk's Prometheus endpoint (off by default; loopback by default, a LAN
 * address only on purpose and said plainly), where it listens now, and its bearer token, read
 * from the core only when the admin asks to see it (it is a secret kept in the keychain).
 */
import { useEffect, useState } from 'react';
import { isLoopbackAddress, metricsSettings, type MetricsState } from '../../../../shared/contract/metrics';
import { useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';
import { Field, FormActions, Notice, NumberField } from './Field';

type Form = { enabled: boolean; address: string; port: string };

export function MetricsSection() {
  const t = useT();
  const [state, setState] = useState<MetricsState | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [tokenNote, setTokenNote] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [confirmNew, setConfirmNew] = useState(false);

  const show = (s: MetricsState) => {
    setState(s);
    setForm({ enabled: s.settings.enabled, address: s.settings.address, port: String(s.settings.port) });
  };
  useEffect(() => {
    void rpc.call('metrics.get', {}).then(show);
  }, []);
  if (!form || !state) return <p>{t('settings.loading')}</p>;
  // An edit makes the last save's answer stale.
  const edit = (f: Form) => {
    setForm(f);
    setResult(null);
  };

  // The core's own rules (shared/contract/metrics.ts), so the form says at once what the core would refuse.
  const address = form.address.trim();
  const addressError = metricsSettings.shape.address.safeParse(address).success ? null : t('metrics.addressBad');
  const port = /^\s*\d{1,5}\s*$/.test(form.port) ? Number(form.port) : NaN;
  const portError = metricsSettings.shape.port.safeParse(port).success ? null : t('metrics.portBad');
  const lan = !addressError && !isLoopbackAddress(address);

  async function save() {
    if (!form) return;
    if (addressError || portError) return setResult({ kind: 'bad', text: t('settings.fixToSave') });
    const r = await rpc.request('metrics.set', { enabled: form.enabled, address, port });
    if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
    show(r.value);
    setResult(r.value.error ? null : { kind: 'ok', text: t('settings.saved') });
  }

  async function toggleToken() {
    if (token) return setToken(null);
    const r = await rpc.request('metrics.token', {});
    if (!r.ok) return setTokenNote({ kind: 'bad', text: errorText(t, r.error) });
    setToken(r.value.token);
    setTokenNote(null);
  }

  async function makeNewToken() {
    setConfirmNew(false);
    const r = await rpc.request('metrics.newToken', {});
    if (!r.ok) return setTokenNote({ kind: 'bad', text: errorText(t, r.error) });
    setToken(r.value.token);
    setTokenNote({ kind: 'ok', text: t('metrics.newTokenDone') });
  }

  async function copy() {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token);
      setTokenNote({ kind: 'ok', text: t('metrics.copied') });
    } catch {
      // No clipboard (a page not in a secure context): the token stays selected to copy by hand.
      document.querySelector<HTMLInputElement>('#metrics-token')?.select();
    }
  }

  const status = state.error
    ? t(`metrics.error.${state.error.code}`, {
        port: state.settings.port,
        address: state.settings.address,
        message: state.error.message,
      })
    : state.url
      ? t('metrics.serving', { url: state.url })
      : t('metrics.off');

  return (
    <div className="set-section" data-testid="settings-metrics">
      <h2>{t('metrics.title')}</h2>
      <p className="set-hint">{t('metrics.intro')}</p>
      <form
        className="set-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={form.enabled}
              onChange={(e) => edit({ ...form, enabled: e.target.checked })}
              data-testid="metrics-enabled"
            />{' '}
            {t('metrics.enabled')}
          </label>
        </div>
        <div className="set-grid">
          <Field id="metrics-address" label={t('metrics.address')} error={addressError} hint={t('metrics.addressHint')}>
            <input
              id="metrics-address"
              value={form.address}
              spellCheck={false}
              autoComplete="off"
              maxLength={45}
              onChange={(e) => edit({ ...form, address: e.target.value })}
              data-testid="metrics-address"
            />
          </Field>
          <NumberField
            id="metrics-port"
            label={t('metrics.port')}
            maxLength={5}
            value={form.port}
            onChange={(port) => edit({ ...form, port })}
            error={portError}
          />
        </div>
        {lan && (
          <Notice kind="bad" testId="metrics-lan-warning">
            {t('metrics.lanWarning')}
          </Notice>
        )}
        <FormActions result={result} resultTestId="metrics-result">
          <button type="submit" className="primary" data-testid="metrics-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>
      <Notice kind={state.error ? 'bad' : 'info'} testId="metrics-status">
        {status}
      </Notice>

      <div className="acct-token" data-testid="metrics-token-row">
        <label htmlFor="metrics-token">{t('metrics.token')}</label>
        {token ? (
          <input id="metrics-token" readOnly value={token} spellCheck={false} data-testid="metrics-token" />
        ) : (
          <span aria-hidden="true">••••••••••••••••</span>
        )}
        <span className="set-actions">
          <button type="button" onClick={() => void toggleToken()} data-testid="metrics-show-token">
            {token ? t('metrics.hideToken') : t('metrics.showToken')}
          </button>
          {token && (
            <button type="button" onClick={() => void copy()} data-testid="metrics-copy-token">
              {t('metrics.copy')}
            </button>
          )}
          <button type="button" onClick={() => setConfirmNew(true)} data-testid="metrics-new-token">
            {t('metrics.newToken')}
          </button>
        </span>
        <small className="set-hint">{t('metrics.tokenHint')}</small>
      </div>
      {confirmNew && (
        <div className="confirm" role="alertdialog" aria-label={t('metrics.newToken')}>
          <span>{t('metrics.newTokenConfirm')}</span>
          <button
            type="button"
            className="primary"
            onClick={() => void makeNewToken()}
            data-testid="metrics-new-token-yes"
          >
            {t('metrics.newTokenYes')}
          </button>
          <button type="button" onClick={() => setConfirmNew(false)}>
            {t('metrics.cancel')}
          </button>
        </div>
      )}
      {tokenNote && (
        <Notice kind={tokenNote.kind} testId="metrics-token-note">
          {tokenNote.text}
        </Notice>
      )}
    </div>
  );
}
