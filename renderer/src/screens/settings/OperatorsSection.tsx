/**
 * Settings → Operators: this desk (its name, whether a sign-in is required before the first scan,
 * the idle time after which the worker is signed out), and the registered workers: add, edit (a
 * new PIN, or none), remove after a confirmation. A badge is typed or scanned into its field (a
 * scan box of its own, so the scan stays there instead of signing anyone in). PINs are typed
 * twice and leave the page only in the save.
 */
import { useEffect, useState } from 'react';
import type { OperatorView } from '../../../../shared/contract/operators';
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';
import { useOperators } from '../../state/operatorsStore';
import { useSettings } from '../../state/settingsStore';
import { Field, FormActions, NumberField } from './Field';

const PIN = /^\d{4,8}$/;

function DeskForm() {
  const t = useT();
  const { settings, save } = useSettings();
  const [name, setName] = useState('');
  const [required, setRequired] = useState(false);
  const [idle, setIdle] = useState('0');
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const desk = settings?.desk;
  useEffect(() => {
    if (!desk) return;
    setName(desk.name ?? '');
    setRequired(desk.signInRequired);
    setIdle(String(desk.idleMinutes));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refilled when the saved desk fields change, not on every new settings object (a save elsewhere would wipe what is being typed)
  }, [desk?.name, desk?.signInRequired, desk?.idleMinutes]);
  if (!desk) return <p>{t('settings.loading')}</p>;
  const idleMinutes = /^\s*\d{1,3}\s*$/.test(idle) ? Number(idle) : NaN;
  const idleError = idleMinutes >= 0 && idleMinutes <= 480 ? null : t('operators.desk.idleRange');
  const nameError = name.trim().length > 60 ? t('operators.desk.nameTooLong') : null;
  return (
    <form
      className="set-form"
      noValidate
      data-testid="desk-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (idleError || nameError) return focusFirstInvalid(e.currentTarget);
        const form = e.currentTarget;
        void save({ desk: { name: name.trim() || null, signInRequired: required, idleMinutes } }).then((ok) => {
          setResult(
            ok ? { kind: 'ok', text: t('settings.saved') } : { kind: 'bad', text: useSettings.getState().error ?? '' },
          );
          if (!ok) focusFirstInvalid(form);
        });
      }}
    >
      <div className="set-grid">
        <Field
          id="desk-name"
          label={t('operators.desk.name')}
          error={nameError}
          hint={nameError ? undefined : t('operators.desk.nameHint')}
        >
          <input
            id="desk-name"
            value={name}
            placeholder={useOperators.getState().who?.desk}
            onChange={(e) => setName(e.target.value)}
            data-testid="desk-name"
          />
        </Field>
        <NumberField
          id="desk-idle"
          label={t('operators.desk.idle')}
          value={idle}
          onChange={setIdle}
          error={idleError}
          hint={idleError ? undefined : t('operators.desk.idleHint')}
        />
      </div>
      <div className="set-checks">
        <label>
          <input
            type="checkbox"
            checked={required}
            onChange={(e) => setRequired(e.target.checked)}
            data-testid="desk-sign-in-required"
          />{' '}
          {t('operators.desk.required')}
        </label>
      </div>
      <FormActions result={result} resultTestId="desk-result">
        <button type="submit" className="primary" data-testid="desk-save">
          {t('settings.save')}
        </button>
      </FormActions>
    </form>
  );
}

/** Adds a worker (`editing` null) or changes one. */
function OperatorForm({ editing, onDone }: { editing: OperatorView | null; onDone(): void }) {
  const t = useT();
  const [name, setName] = useState(editing?.name ?? '');
  const [badge, setBadge] = useState(editing?.badge ?? '');
  const [pin, setPin] = useState('');
  const [pin2, setPin2] = useState('');
  const [removePin, setRemovePin] = useState(false);
  const [supervisor, setSupervisor] = useState(editing?.supervisor ?? false);
  const [tried, setTried] = useState(false);
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);

  const keepsPin = editing?.hasPin === true && !removePin && pin === '';
  const nameError = tried && !name.trim() ? t('operators.form.err.name') : null;
  const pinError = tried && pin !== '' && !PIN.test(pin) ? t('operators.form.err.pin') : null;
  const pin2Error = tried && !pinError && pin !== pin2 ? t('operators.form.err.pin2') : null;
  const noneError = tried && !badge.trim() && !pin && !keepsPin ? t('operators.form.err.none') : null;

  async function submit(form: HTMLFormElement) {
    setTried(true);
    const bad =
      !name.trim() ||
      (pin !== '' && !PIN.test(pin)) ||
      pin !== pin2 ||
      (!badge.trim() && !pin && !(editing?.hasPin === true && !removePin));
    if (bad) return setTimeout(() => focusFirstInvalid(form), 0);
    const r = await rpc.request('operators.save', {
      ...(editing ? { id: editing.id } : {}),
      name: name.trim(),
      badge: badge.trim() || null,
      ...(pin ? { pin } : removePin ? { pin: null } : {}),
      supervisor,
    });
    setPin('');
    setPin2('');
    if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
    void useOperators.getState().load();
    if (editing) return onDone();
    setName('');
    setBadge('');
    setSupervisor(false);
    setTried(false);
    setResult({ kind: 'ok', text: t('operators.form.added', { name: r.value.name }) });
  }

  return (
    <form
      className="set-form inset"
      noValidate
      data-testid="operator-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
    >
      <h3>{editing ? t('operators.form.edit', { name: editing.name }) : t('operators.form.add')}</h3>
      <div className="set-grid">
        <Field id="op-name" label={t('operators.form.name')} error={nameError}>
          <input
            id="op-name"
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
            data-testid="operator-name"
          />
        </Field>
        <Field id="op-badge" label={t('operators.form.badge')} hint={t('operators.form.badgeHint')} error={noneError}>
          <input
            id="op-badge"
            value={badge}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setBadge(e.target.value)}
            // The scanner's Enter ends the badge here: it neither saves the form half filled nor signs anyone in.
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            data-scan-line
            data-testid="operator-badge"
          />
        </Field>
        <Field
          id="op-pin"
          label={t('operators.form.pin')}
          error={pinError}
          hint={editing?.hasPin && !pinError ? t('operators.form.pinKeep') : undefined}
        >
          <input
            id="op-pin"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            maxLength={8}
            value={pin}
            disabled={removePin}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
            data-testid="operator-pin"
          />
        </Field>
        <Field id="op-pin2" label={t('operators.form.pin2')} error={pin2Error}>
          <input
            id="op-pin2"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            maxLength={8}
            value={pin2}
            disabled={removePin}
            onChange={(e) => setPin2(e.target.value.replace(/\D/g, ''))}
            data-testid="operator-pin2"
          />
        </Field>
      </div>
      <div className="set-checks">
        <label>
          <input
            type="checkbox"
            checked={supervisor}
            onChange={(e) => setSupervisor(e.target.checked)}
            data-testid="operator-supervisor"
          />{' '}
          {t('operators.form.supervisor')}
        </label>
      </div>
      {editing?.hasPin && (
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={removePin}
              onChange={(e) => {
                setRemovePin(e.target.checked);
                setPin('');
                setPin2('');
              }}
              data-testid="operator-remove-pin"
            />{' '}
            {t('operators.form.pinRemove')}
          </label>
        </div>
      )}
      <FormActions result={result} resultTestId="operator-result">
        <button type="submit" className="primary" data-testid="operator-save">
          {t('operators.form.save')}
        </button>
        {editing && (
          <button type="button" onClick={onDone} data-testid="operator-cancel">
            {t('operators.form.cancel')}
          </button>
        )}
      </FormActions>
    </form>
  );
}

function OperatorRow({ o, onEdit }: { o: OperatorView; onEdit(): void }) {
  const t = useT();
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <tr data-testid="operator-row" data-operator-id={o.id}>
      <td>
        {o.name}
        {o.supervisor && (
          <span className="muted" data-testid="operator-is-supervisor">
            {' '}
            · {t('operators.supervisor')}
          </span>
        )}
      </td>
      <td className="op-badge-cell">{o.badge ?? '—'}</td>
      <td>{o.hasPin ? t('operators.hasPin') : t('operators.noPin')}</td>
      <td>
        {confirm ? (
          <div
            className="confirm"
            role="alertdialog"
            aria-label={t('operators.remove')}
            data-testid="operator-remove-confirm"
          >
            <span>{t('operators.remove.confirm', { name: o.name })}</span>{' '}
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirm(false);
                void rpc.request('operators.remove', { id: o.id }).then((r) => {
                  if (!r.ok) setError(errorText(t, r.error));
                  else useOperators.setState({ operators: r.value });
                });
              }}
              data-testid="operator-remove-yes"
            >
              {t('operators.remove.yes')}
            </button>{' '}
            <button type="button" onClick={() => setConfirm(false)} data-testid="operator-remove-no">
              {t('operators.remove.no')}
            </button>
          </div>
        ) : (
          <>
            <button type="button" onClick={onEdit} data-testid="operator-edit">
              {t('operators.edit')}
            </button>{' '}
            <button type="button" className="danger" onClick={() => setConfirm(true)} data-testid="operator-remove">
              {t('operators.remove')}
            </button>
          </>
        )}
        {error && (
          <p className="set-field-error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}

export function OperatorsSection() {
  const t = useT();
  const operators = useOperators((s) => s.operators);
  const [editing, setEditing] = useState<OperatorView | null>(null);
  return (
    <div className="set-section" data-testid="settings-operators">
      <h2>{t('operators.desk.title')}</h2>
      <DeskForm />
      <h2>{t('operators.list.title')}</h2>
      {operators.length === 0 ? (
        <p className="set-hint" data-testid="operators-empty">
          {t('operators.list.empty')}
        </p>
      ) : (
        <table className="op-table" data-testid="operators-table">
          <thead>
            <tr>
              <th scope="col">{t('operators.col.name')}</th>
              <th scope="col">{t('operators.col.badge')}</th>
              <th scope="col">{t('operators.col.pin')}</th>
              <th scope="col">{t('operators.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {operators.map((o) => (
              <OperatorRow key={o.id} o={o} onEdit={() => setEditing(o)} />
            ))}
          </tbody>
        </table>
      )}
      <OperatorForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
    </div>
  );
}
