/** One printer: its connection and state, a test print that follows its job, settings, removal. */
import { useState } from 'react';
import type { PrinterView } from '../../../../shared/contract/printing';
import { useLanguage, useT, type T } from '../../i18n';
import { printerName } from '../../i18n/printerName';
import { reasonText } from '../../i18n/reasons';
import { rpc } from '../../rpc/transport';
import { errorText } from '../../i18n/errors';
import { Notice } from './Field';
import { PrinterSettingsForm } from './PrinterSettingsForm';
import { BUILT_IN_PRINTERS } from './usePrinters';
import { useTestPrint } from './useTestPrint';

export function connectionText(t: T, c: PrinterView['connection']): string {
  switch (c.kind) {
    case 'zpl-tcp':
      return t('printers.kind.zpl-tcp', { host: c.host, port: c.port });
    case 'zpl-usb':
      return t('printers.kind.zpl-usb', { device: c.device });
    case 'zpl-spooler':
      return t('printers.kind.zpl-spooler', { queue: c.queue });
    case 'pdf-system':
      return t('printers.kind.pdf-system', { queue: c.queue });
    default:
      return t(`printers.kind.${c.kind}`);
  }
}

export function PrinterRow(props: { printer: PrinterView; usedByRouting: boolean; onChanged: () => void }) {
  const { printer: p } = props;
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const test = useTestPrint(p.id, () => useLanguage.getState().language);
  const job = test.job;
  const builtIn = BUILT_IN_PRINTERS.has(p.id);

  async function remove() {
    setConfirm(false);
    const r = await rpc.request('printing.printers.remove', { printerId: p.id });
    if (r.ok) props.onChanged();
    else setError(errorText(t, r.error));
  }

  const s = p.status;
  const jobKind = test.shown === 'out' ? 'ok' : test.shown === 'failed' ? 'bad' : 'info';
  return (
    <li className="printer" data-testid="printer-row" data-printer-id={p.id} data-state={s.state}>
      <div className="acct-head">
        <strong>{printerName(t, p)}</strong>
        <span
          className={`set-badge ${s.state === 'ready' ? 'ok' : s.state === 'unknown' ? '' : 'bad'}`}
          data-testid="printer-state"
        >
          {t(`printerState.${s.state}`)}
        </span>
        {builtIn && <span className="set-badge">{t('printers.builtIn')}</span>}
      </div>
      <div className="acct-meta">
        {connectionText(t, p.connection)}
        {s.reason && s.state !== 'ready' ? ` · ${reasonText(t, s.reasonCode, s.reason)}` : ''}
      </div>
      <div className="acct-actions">
        <button type="button" className="primary" onClick={() => void test.press()} data-testid="printer-test-print">
          {t('printers.testPrint')}
        </button>
        <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing} data-testid="printer-edit">
          {t('printers.edit')}
        </button>
        {builtIn ? (
          <span className="set-hint" data-testid="printer-builtin-note">
            {t('printers.builtInWhy')}
          </span>
        ) : props.usedByRouting ? (
          <span className="set-hint" data-testid="printer-used-note">
            {t('printers.usedByRouting')}
          </span>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirm(true)} data-testid="printer-remove">
            {t('printers.remove')}
          </button>
        )}
      </div>
      {job && (
        <Notice kind={jobKind} testId="printer-test-result">
          <span data-testid="printer-test-state" data-shown={test.shown}>
            {test.shown === 'waiting'
              ? t('printers.testWaits', { id: job.id })
              : t('printers.testSent', { id: job.id, state: t(`printers.job.${job.state}`) })}
          </span>
          {job.reason && test.shown !== 'out' ? ` — ${reasonText(t, job.reasonCode, job.reason)}` : ''}
        </Notice>
      )}
      {test.already !== null && (
        <Notice kind="info" testId="printer-test-already">
          {t('printers.testAlreadyWaits', { id: test.already })}
        </Notice>
      )}
      {test.error && <Notice kind="bad">{errorText(t, test.error)}</Notice>}
      {confirm && (
        <div className="confirm" role="alertdialog" aria-label={t('printers.remove')}>
          <span>{t('printers.removeConfirm', { name: printerName(t, p) })}</span>
          <button type="button" className="danger" onClick={() => void remove()} data-testid="printer-remove-yes">
            {t('accounts.removeYes')}
          </button>
          <button type="button" onClick={() => setConfirm(false)} autoFocus>
            {t('accounts.cancel')}
          </button>
        </div>
      )}
      {error && <Notice kind="bad">{error}</Notice>}
      {editing && <PrinterSettingsForm printer={p} onSaved={props.onChanged} onClose={() => setEditing(false)} />}
    </li>
  );
}
