/**
 * One printer's settings: name, and for ZPL printers resolution, darkness, offsets, rotation,
 * copies and ~HS; for PDF printers copies, paper (CUPS media) and fit-to-page. Ranges as in
 * shared/contract/printing.ts `printerSettings`; every bad value says what is allowed.
 */
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useState, type FormEvent } from 'react';
import type { PrinterSettings, PrinterView } from '../../../../shared/contract/printing';
import { useT, type T } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { errorText } from '../../i18n/errors';
import { Field, FormActions } from './Field';
import { printsZpl } from './usePrinters';

type Num = 'darkness' | 'offsetX' | 'offsetY' | 'copies';
const ranges: Record<Num, [number, number]> = {
  darkness: [-30, 30],
  offsetX: [-9999, 9999],
  offsetY: [-120, 120],
  copies: [1, 99],
};

interface Form {
  name: string;
  dpi: PrinterSettings['dpi'];
  darkness: string;
  offsetX: string;
  offsetY: string;
  copies: string;
  rotate180: boolean;
  hostStatus: boolean;
  media: string;
  fitToPage: boolean;
}

function toForm(p: PrinterView): Form {
  const s = p.settings;
  return {
    name: p.name,
    dpi: s.dpi,
    darkness: String(s.darkness),
    offsetX: String(s.offsetX),
    offsetY: String(s.offsetY),
    copies: String(s.copies),
    rotate180: s.rotate180,
    hostStatus: s.hostStatus,
    media: s.media,
    fitToPage: s.fitToPage,
  };
}

function validate(t: T, f: Form): Partial<Record<keyof Form, string>> {
  const e: Partial<Record<keyof Form, string>> = {};
  if (!f.name.trim()) e.name = t('printers.err.name');
  for (const k of Object.keys(ranges) as Num[]) {
    const [min, max] = ranges[k];
    const n = Number(f[k]);
    if (!/^-?\d+$/.test(f[k].trim()) || n < min || n > max) e[k] = t('printers.err.range', { min, max });
  }
  if (!/^[\w.-]*$/.test(f.media)) e.media = t('printers.err.media');
  return e;
}

export function PrinterSettingsForm({
  printer,
  onSaved,
  onClose,
}: {
  printer: PrinterView;
  onSaved: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const [f, setF] = useState<Form>(() => toForm(printer));
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF((old) => ({ ...old, [k]: v }));
  const zpl = printsZpl(printer);
  const id = (k: string) => `pr-${printer.id}-${k}`.replace(/[^\w-]/g, '_');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local = validate(t, f);
    setErrors(local);
    setResult(null);
    if (Object.keys(local).length) return focusFirstInvalid(e.currentTarget as HTMLFormElement);
    const r = await rpc.request('printing.printers.save', {
      id: printer.id,
      name: f.name.trim(),
      connection: printer.connection,
      settings: {
        dpi: f.dpi,
        darkness: Number(f.darkness),
        offsetX: Number(f.offsetX),
        offsetY: Number(f.offsetY),
        copies: Number(f.copies),
        rotate180: f.rotate180,
        hostStatus: f.hostStatus,
        media: f.media,
        fitToPage: f.fitToPage,
      },
    });
    if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
    setResult({ kind: 'ok', text: t('settings.saved') });
    onSaved();
  }

  const num = (k: Num, label: string) => (
    <Field id={id(k)} label={label} error={errors[k]}>
      <input
        id={id(k)}
        inputMode="numeric"
        value={f[k]}
        maxLength={6}
        onChange={(e) => set(k, e.target.value)}
        data-testid={`printer-set-${k}`}
      />
    </Field>
  );

  return (
    <form className="set-form inset" onSubmit={(e) => void submit(e)} noValidate data-testid="printer-settings">
      <div className="set-grid">
        <Field id={id('name')} label={t('printers.set.name')} error={errors.name}>
          <input id={id('name')} value={f.name} maxLength={120} onChange={(e) => set('name', e.target.value)} />
        </Field>
        {zpl && (
          <Field id={id('dpi')} label={t('printers.set.dpi')}>
            <select id={id('dpi')} value={f.dpi} onChange={(e) => set('dpi', Number(e.target.value) as Form['dpi'])}>
              <option value={203}>203 dpi</option>
              <option value={300}>300 dpi</option>
              <option value={600}>600 dpi</option>
            </select>
          </Field>
        )}
        {zpl && num('darkness', t('printers.set.darkness'))}
        {zpl && num('offsetX', t('printers.set.offsetX'))}
        {zpl && num('offsetY', t('printers.set.offsetY'))}
        {num('copies', t('printers.set.copies'))}
        {!zpl && (
          <Field id={id('media')} label={t('printers.set.media')} error={errors.media}>
            <input
              id={id('media')}
              value={f.media}
              maxLength={80}
              placeholder="Custom.100x150mm"
              onChange={(e) => set('media', e.target.value)}
            />
          </Field>
        )}
      </div>
      <div className="set-checks">
        {zpl && (
          <label>
            <input type="checkbox" checked={f.rotate180} onChange={(e) => set('rotate180', e.target.checked)} />{' '}
            {t('printers.set.rotate')}
          </label>
        )}
        {zpl && (
          <label>
            <input type="checkbox" checked={f.hostStatus} onChange={(e) => set('hostStatus', e.target.checked)} />{' '}
            {t('printers.set.hostStatus')}
          </label>
        )}
        {!zpl && (
          <label>
            <input type="checkbox" checked={f.fitToPage} onChange={(e) => set('fitToPage', e.target.checked)} />{' '}
            {t('printers.set.fit')}
          </label>
        )}
      </div>
      <FormActions result={result} resultTestId="printer-settings-result">
        <button type="submit" className="primary" data-testid="printer-settings-save">
          {t('settings.save')}
        </button>
        <button type="button" onClick={onClose}>
          {t('settings.close')}
        </button>
      </FormActions>
    </form>
  );
}
