/**
 * Settings → Scale & check: which scale (discovered serial ports and USB HID scales, or
 * a typed path where discovery cannot run), the tolerance, the display unit and the countdown, the
 * scale's live reading with the zero hint, and the per-station label check.
 */
import { useEffect, useState } from 'react';
import type { ScaleDiscovery, ScaleSettings } from '../../../../shared/contract/scale';
import { useLanguage, useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { formatQuantity } from '../../format/decimal';
import { rpc } from '../../rpc/transport';
import { ReadingText, useScale } from '../station/WeighPanel';
import { Field, FormActions, Notice, NumberField } from './Field';

const KINDS: ScaleSettings['kind'][] = ['none', 'mt-sics', 'continuous', 'hid'];
const UNITS: ScaleSettings['displayUnit'][] = ['kg', 'g', 'lb', 'oz'];
const BAUDS = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200];

export function ScaleSection() {
  const t = useT();
  const reading = useScale((s) => s.reading);
  const [form, setForm] = useState<
    | (Omit<ScaleSettings, 'toleranceKg' | 'waitSeconds' | 'askAbovePercent'> & {
        tolerance: string;
        wait: string;
        askAbove: string;
      })
    | null
  >(null);
  const [found, setFound] = useState<ScaleDiscovery | null>(null);
  const [looking, setLooking] = useState(false);
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);

  useEffect(() => {
    // The tolerance as the worker writes a number in the UI language ("0.05" / "0,05"); both are read back.
    void rpc.call('scale.getSettings', {}).then((s) =>
      setForm({
        ...s,
        tolerance: formatQuantity(s.toleranceKg, useLanguage.getState().language),
        wait: String(s.waitSeconds),
        askAbove: String(s.askAbovePercent),
      }),
    );
    void useScale
      .getState()
      .load()
      .catch(() => undefined);
  }, []);
  if (!form) return <p>{t('settings.loading')}</p>;

  const tolerance = form.tolerance.trim().replace(',', '.');
  const toleranceError = /^\d+(\.\d{1,3})?$/.test(tolerance) ? null : t('scale.toleranceBad');
  const wait = /^\s*\d{1,3}\s*$/.test(form.wait) ? Number(form.wait) : NaN;
  const waitError = wait >= 1 && wait <= 120 ? null : t('scale.waitBad');
  // The share above which the weight check asks; the core checks the same range.
  const askAbove = /^\s*\d{1,4}\s*%?\s*$/.test(form.askAbove) ? Number(form.askAbove.replace('%', '')) : NaN;
  const askAboveError = askAbove >= 1 && askAbove <= 1000 ? null : t('scale.askAboveBad');
  const serial = form.kind === 'mt-sics' || form.kind === 'continuous';
  // A scale needs its port or device: without one nothing could be read (the core refuses it too).
  const pathError = form.kind !== 'none' && !form.path.trim() ? t('scale.pathRequired') : null;
  const choices = form.kind === 'hid' ? (found?.hid ?? []) : serial ? (found?.serial ?? []) : [];

  async function discover() {
    setLooking(true);
    try {
      setFound(await rpc.call('scale.discover', {}));
    } finally {
      setLooking(false);
    }
  }

  async function save() {
    if (!form) return;
    if (toleranceError || waitError || pathError || askAboveError) {
      // FormActions focuses the first invalid field, in the form's order.
      setResult({ kind: 'bad', text: t('settings.fixToSave') });
      return;
    }
    const { tolerance: _t, wait: _w, askAbove: _a, ...rest } = form;
    const r = await rpc.request('scale.setSettings', {
      ...rest,
      path: rest.path.trim(),
      toleranceKg: tolerance,
      waitSeconds: wait,
      askAbovePercent: askAbove,
    });
    if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
    useScale.setState({ unit: r.value.displayUnit });
    setResult({ kind: 'ok', text: t('settings.saved') });
  }

  return (
    <div className="set-section" data-testid="settings-scale">
      <h2>{t('scale.title')}</h2>
      <p className="set-hint">{t('scale.intro')}</p>
      <form
        className="set-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="set-grid">
          <Field id="scale-kind" label={t('scale.kind')} wide>
            <select
              id="scale-kind"
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.target.value as ScaleSettings['kind'] })}
              data-testid="scale-kind"
            >
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`scale.kind.${k}`)}
                </option>
              ))}
            </select>
          </Field>
          {form.kind !== 'none' && (
            <Field
              id="scale-path"
              label={t('scale.path')}
              hint={pathError ? undefined : t('scale.pathHint')}
              error={pathError}
              wide
            >
              <input
                id="scale-path"
                value={form.path}
                spellCheck={false}
                list="scale-found"
                onChange={(e) => setForm({ ...form, path: e.target.value })}
                data-testid="scale-path"
              />
              <datalist id="scale-found">
                {choices.map((c) => (
                  <option key={c.path} value={c.path}>
                    {c.label}
                  </option>
                ))}
              </datalist>
              <span className="scale-discover">
                <button type="button" onClick={() => void discover()} disabled={looking} data-testid="scale-discover">
                  {looking ? t('scale.discovering') : t('scale.discover')}
                </button>
                {found && !choices.length && !found.problems.length && (
                  <small className="set-hint">{t('scale.found.none')}</small>
                )}
                {found?.problems.map((p) => (
                  <small key={p.kind} className="set-hint" data-testid="scale-discover-problem">
                    {p.missingTool
                      ? t(`scale.problem.${p.kind}.missingTool`, { tool: p.missingTool })
                      : t(`scale.problem.${p.kind}`, { detail: p.detail })}
                  </small>
                ))}
              </span>
            </Field>
          )}
          {serial && (
            <Field id="scale-baud" label={t('scale.baud')}>
              <select
                id="scale-baud"
                value={form.baudRate}
                onChange={(e) => setForm({ ...form, baudRate: Number(e.target.value) })}
                data-testid="scale-baud"
              >
                {BAUDS.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <NumberField
            id="scale-tolerance"
            label={t('scale.tolerance')}
            decimal
            value={form.tolerance}
            onChange={(tolerance) => setForm({ ...form, tolerance })}
            error={toleranceError}
            hint={toleranceError ? undefined : t('scale.toleranceHint')}
          />
          <NumberField
            id="scale-ask-above"
            label={t('scale.askAbove')}
            value={form.askAbove}
            onChange={(askAbove) => setForm({ ...form, askAbove })}
            error={askAboveError}
            hint={askAboveError ? undefined : t('scale.askAboveHint')}
          />
          <Field id="scale-unit" label={t('scale.unit')}>
            <select
              id="scale-unit"
              value={form.displayUnit}
              onChange={(e) => setForm({ ...form, displayUnit: e.target.value as ScaleSettings['displayUnit'] })}
              data-testid="scale-unit"
            >
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </Field>
          <NumberField
            id="scale-wait"
            label={t('scale.wait')}
            value={form.wait}
            onChange={(wait) => setForm({ ...form, wait })}
            error={waitError}
          />
        </div>
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={form.verifyLabels}
              onChange={(e) => setForm({ ...form, verifyLabels: e.target.checked })}
              data-testid="scale-verify"
            />{' '}
            {t('scale.verify')}
          </label>
        </div>
        <FormActions result={result} resultTestId="scale-result">
          <button type="submit" className="primary" data-testid="scale-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>
      {form.kind !== 'none' && (
        <div className="set-form" data-testid="scale-live">
          <h3>{t('scale.live')}</h3>
          <p>
            <ReadingText reading={reading} />
          </p>
          <Notice kind="info">{t('scale.zeroHint')}</Notice>
        </div>
      )}
    </div>
  );
}
