/** One printer: its connection and state, a test print that follows its job, settings, removal. */
import { useEffect, useState } from 'react';
import type { JobState, PrinterView } from '../../../../shared/contract/printing';
import { useLanguage, useT, type T } from '../../i18n';
import { printerName } from '../../i18n/printerName';
import { reasonText } from '../../i18n/reasons';
import { rpc } from '../../rpc/transport';
import { errorText } from '../../i18n/errors';
import { Notice } from './Field';
import { PrinterSettingsForm } from './PrinterSettingsForm';
import { BUILT_IN_PRINTERS } from './usePrinters';

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

interface TestJob {
  id: number;
  state: JobState;
  reasonCode: string | null;
  reason: string | null;
}

export function PrinterRow(props: { printer: PrinterView; usedByRouting: boolean; onChanged: () => void }) {
  const { printer: p } = props;
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<TestJob | null>(null);
  const builtIn = BUILT_IN_PRINTERS.has(p.id);

  useEffect(
    () =>
      rpc.on('printing.jobs', (c) =>
        setJob((mine) => {
          const j = mine && c.jobs.find((x) => x.id === mine.id);
          return j ? { id: j.id, state: j.state, reasonCode: j.reasonCode ?? null, reason: j.reason ?? null } : mine;
        }),
      ),
    [],
  );

  async function testPrint() {
    setError(null);
    // The label in the language the worker reads here.
    const r = await rpc.request('printing.printers.testPrint', {
      printerId: p.id,
      language: useLanguage.getState().language,
    });
    if (r.ok)
      setJob((mine) =>
        mine?.id === r.value.id
          ? mine
          : { id: r.value.id, state: r.value.state, reasonCode: r.value.reasonCode, reason: r.value.reason },
      );
    else setError(errorText(t, r.error));
  }

  async function remove() {
    setConfirm(false);
    const r = await rpc.request('printing.printers.remove', { printerId: p.id });
    if (r.ok) props.onChanged();
    else setError(errorText(t, r.error));
  }

  const s = p.status;
  const jobKind = job
    ? job.state === 'done'
      ? 'ok'
      : job.state === 'failed' || job.state === 'cancelled' || job.state === 'uncertain' || job.state === 'unconfirmed'
        ? 'bad'
        : 'info'
    : 'info';
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
        <button type="button" className="primary" onClick={() => void testPrint()} data-testid="printer-test-print">
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
          {t('printers.testSent', { id: job.id, state: t(`printers.job.${job.state}`) })}
          {job.reason && job.state !== 'done' ? ` — ${reasonText(t, job.reasonCode, job.reason)}` : ''}
        </Notice>
      )}
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
