/**
 * "Export trail": the audit trail of every parcel in a range of days (this month by default, at
 * most 31 days) as a CSV file the browser downloads, for payroll or a dispute. The days are the
 * page's local days: their midnights go to the core as instants, with the page's time zone in which
 * the CSV writes its times. The file is made by the core (shipments.trailCsv) and saved from a Blob,
 * which works alike in the web host's page and in the Electron window (a download, not a navigation).
 */
import { useState } from 'react';
import { TRAIL_CSV_MAX_DAYS as MAX_DAYS } from '../../../../shared/contract/audit';
import { useLanguage, useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { DateInput } from '../../format/DateInput';
import { isoDayOf } from '../../format/date';
import { saveTextFile } from '../../format/saveTextFile';
import { rpc } from '../../rpc/transport';

/** Local midnight of a "yyyy-mm-dd" day, `plus` days later. */
const midnight = (iso: string, plus = 0) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y!, m! - 1, d! + plus);
};

export function TrailExport() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [open, setOpen] = useState(false);
  const today = new Date();
  const [from, setFrom] = useState(() => isoDayOf(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => isoDayOf(today));
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const start = from ? midnight(from) : null;
  const end = to ? midnight(to, 1) : null;
  // Whole local days; a daylight-saving change makes one of them 23 or 25 hours.
  const days = start && end ? Math.round((end.getTime() - start.getTime()) / 86_400_000) : 0;
  const problem =
    !start || !end ? null : days < 1 ? t('audit.export.backwards') : days > MAX_DAYS ? t('audit.export.tooLong') : null;

  async function download() {
    if (!start || !end || problem) return;
    setBusy(true);
    setNote({ ok: true, text: t('audit.export.busy') });
    const r = await rpc.request('shipments.trailCsv', {
      from: start.toISOString(),
      to: end.toISOString(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      language,
    });
    setBusy(false);
    if (!r.ok) {
      setNote({ ok: false, text: t('audit.export.failed', { message: errorText(t, r.error) }) });
      return;
    }
    saveTextFile(r.value.fileName, r.value.csv, 'text/csv;charset=utf-8');
    setNote({ ok: true, text: t('audit.export.done', { file: r.value.fileName, n: r.value.rows }) });
  }

  return (
    <span className="sh-trail-export">
      <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="trail-export-open">
        {t('audit.export.open')}
      </button>
      {open && (
        <div className="sh-trail-panel" role="group" aria-label={t('audit.export.title')} data-testid="trail-export">
          <p>{t('audit.export.title')}</p>
          <label>
            <span>{t('audit.export.from')}</span>
            <DateInput
              value={from}
              onChange={setFrom}
              testId="trail-from"
              invalidText={t('shipments.filter.badDate')}
            />
          </label>
          <label>
            <span>{t('audit.export.to')}</span>
            <DateInput value={to} onChange={setTo} testId="trail-to" invalidText={t('shipments.filter.badDate')} />
          </label>
          <button
            type="button"
            onClick={() => void download()}
            disabled={busy || !!problem || !start || !end}
            data-testid="trail-download"
          >
            {t('audit.export.download')}
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            {t('audit.export.close')}
          </button>
          {(problem ?? note) && (
            <p className={problem || !note?.ok ? 'bad' : ''} role="status" data-testid="trail-export-note">
              {problem ?? note?.text}
            </p>
          )}
        </div>
      )}
    </span>
  );
}
