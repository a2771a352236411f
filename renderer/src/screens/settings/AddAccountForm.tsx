/**
 * Adding a company account: the environment, the client the service registered for this station
 * (id + secret), and the loopback redirect it registered (defaults of the station). The secret is
 * sent once and the field is cleared: it is never shown again.
 */
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useState, type FormEvent } from 'react';
import type { Environment } from '../../../../shared/contract/accounts';
import { useT, type T } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { useAccounts } from '../../state/accountsStore';
import { errorText, fieldErrors } from '../../i18n/errors';
import { Field, FormActions } from './Field';

/** The station's loopback defaults (electron/auth/loopbackLogin.ts). */
const DEFAULT_PORT = '53682';
const DEFAULT_PATH = '/callback';

/**
 * Where the service runs: the built-in sandbox (no address), a sandbox run on its own (`npm run
 * sandbox`, at its address), or the service's test or production environment (at its address).
 */
type Where = 'builtin' | 'sandbox' | 'test' | 'production';
const environmentOf = (w: Where): Environment => (w === 'builtin' ? 'sandbox' : w);

interface Form {
  name: string;
  environment: Where;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectPort: string;
  redirectPath: string;
}
const empty: Form = {
  name: '',
  environment: 'builtin',
  baseUrl: '',
  clientId: '',
  clientSecret: '',
  redirectPort: DEFAULT_PORT,
  redirectPath: DEFAULT_PATH,
};

function validate(t: T, f: Form): Partial<Record<keyof Form, string>> {
  const e: Partial<Record<keyof Form, string>> = {};
  if (!f.name.trim()) e.name = t('accounts.err.name');
  if (f.environment !== 'builtin' && !/^https?:\/\/[^\s/]+/i.test(f.baseUrl.trim()))
    e.baseUrl = t(f.environment === 'sandbox' ? 'accounts.err.sandboxUrl' : 'accounts.err.baseUrl');
  if (!f.clientId.trim()) e.clientId = t('accounts.err.clientId');
  if (!f.clientSecret) e.clientSecret = t('accounts.err.clientSecret');
  const port = Number(f.redirectPort);
  if (!/^\d+$/.test(f.redirectPort.trim()) || port < 1 || port > 65535) e.redirectPort = t('accounts.err.port');
  if (!f.redirectPath.startsWith('/') || /\s/.test(f.redirectPath)) e.redirectPath = t('accounts.err.path');
  return e;
}

export function AddAccountForm() {
  const t = useT();
  const [f, setF] = useState<Form>(empty);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF((old) => ({ ...old, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const local = validate(t, f);
    setErrors(local);
    const form = e.currentTarget as HTMLFormElement;
    if (Object.keys(local).length) return focusFirstInvalid(form);
    setBusy(true);
    const r = await rpc.request('accounts.add', {
      name: f.name.trim(),
      environment: environmentOf(f.environment),
      baseUrl: f.environment === 'builtin' ? null : f.baseUrl.trim(),
      clientId: f.clientId.trim(),
      clientSecret: f.clientSecret,
      redirectPort: Number(f.redirectPort),
      redirectPath: f.redirectPath,
    });
    setBusy(false);
    if (!r.ok) {
      setErrors(fieldErrors(t, r.error));
      setResult({ kind: 'bad', text: errorText(t, r.error) });
      return;
    }
    setF(empty);
    setResult({ kind: 'ok', text: t('accounts.add.done', { name: r.value.name }) });
    void useAccounts.getState().load();
  }

  const redirectUri = `http://127.0.0.1:${f.redirectPort || DEFAULT_PORT}${f.redirectPath || DEFAULT_PATH}`;
  return (
    <form
      className="set-form"
      onSubmit={(e) => void submit(e)}
      onChange={() => setResult(null)}
      noValidate
      data-testid="account-add"
    >
      <h3>{t('accounts.add.title')}</h3>
      <div className="set-grid">
        <Field id="acct-name" label={t('accounts.add.name')} error={errors.name}>
          <input id="acct-name" value={f.name} maxLength={100} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field id="acct-env" label={t('accounts.add.environment')} error={errors.environment}>
          <select id="acct-env" value={f.environment} onChange={(e) => set('environment', e.target.value as Where)}>
            <option value="builtin">{t('accounts.add.env.builtin')}</option>
            <option value="sandbox">{t('accounts.add.env.sandbox')}</option>
            <option value="test">{t('env.test')}</option>
            <option value="production">{t('env.production')}</option>
          </select>
        </Field>
        {f.environment !== 'builtin' && (
          <Field
            id="acct-url"
            label={t('accounts.add.baseUrl')}
            error={errors.baseUrl}
            hint={f.environment === 'sandbox' ? t('accounts.add.sandboxUrlHint') : undefined}
            wide
          >
            <input
              id="acct-url"
              type="url"
              value={f.baseUrl}
              maxLength={500}
              placeholder={f.environment === 'sandbox' ? 'http://127.0.0.1:8080' : 'https://'}
              onChange={(e) => set('baseUrl', e.target.value)}
            />
          </Field>
        )}
        <Field id="acct-client" label={t('accounts.add.clientId')} error={errors.clientId}>
          <input
            id="acct-client"
            value={f.clientId}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set('clientId', e.target.value)}
          />
        </Field>
        <Field
          id="acct-secret"
          label={t('accounts.add.clientSecret')}
          error={errors.clientSecret}
          hint={t('accounts.add.secretHint')}
        >
          <input
            id="acct-secret"
            type="password"
            value={f.clientSecret}
            maxLength={500}
            autoComplete="new-password"
            onChange={(e) => set('clientSecret', e.target.value)}
          />
        </Field>
        <Field id="acct-port" label={t('accounts.add.redirectPort')} error={errors.redirectPort}>
          <input
            id="acct-port"
            inputMode="numeric"
            value={f.redirectPort}
            maxLength={5}
            onChange={(e) => set('redirectPort', e.target.value)}
          />
        </Field>
        <Field
          id="acct-path"
          label={t('accounts.add.redirectPath')}
          error={errors.redirectPath}
          hint={t('accounts.add.redirectHint', { uri: redirectUri })}
        >
          <input
            id="acct-path"
            value={f.redirectPath}
            maxLength={200}
            onChange={(e) => set('redirectPath', e.target.value)}
          />
        </Field>
      </div>
      <FormActions result={result} resultTestId="account-add-result">
        <button type="submit" className="primary" disabled={busy} data-testid="account-add-submit">
          {t('accounts.add.submit')}
        </button>
      </FormActions>
    </form>
  );
}
