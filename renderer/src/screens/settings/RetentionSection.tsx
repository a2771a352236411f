/**
 * Settings → Data kept (retention, keep): how many days this desk keeps the labels of printed jobs
 * and its history. The core checks the values again (shared/contract/retention.ts); the form only
 * says early what the core would refuse.
 */
import { useEffect, useState } from 'react';
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';
import { FormActions, NumberField } from './Field';

/** Whole days: 0 (forever) or min..3650; NaN for anything else. */
function days(text: string, min: number): number {
  if (!/^\s*\d{1,4}\s*$/.test(text)) return NaN;
  const n = Number(text);
  return n === 0 || (n >= min && n <= 3650) ? n : NaN;
}

export function RetentionSection() {
  const t = useT();
  const [labels, setLabels] = useState('');
  const [history, setHistory] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  useEffect(() => {
    void rpc.request('retention.get', {}).then((r) => {
      if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
      setLabels(String(r.value.settings.labelsDays));
      setHistory(String(r.value.settings.historyDays));
      setLoaded(true);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once when the section opens
  }, []);
  if (!loaded && !result) return <p>{t('settings.loading')}</p>;

  const labelsDays = days(labels, 7);
  const historyDays = days(history, 30);
  const labelsError = Number.isNaN(labelsDays) ? t('retention.labelsRange') : null;
  const historyError = Number.isNaN(historyDays) ? t('retention.historyRange') : null;

  async function save(form: HTMLFormElement) {
    if (labelsError || historyError) {
      setResult({ kind: 'bad', text: t('settings.fixToSave') });
      return focusFirstInvalid(form);
    }
    const r = await rpc.request('retention.set', { labelsDays, historyDays });
    setResult(r.ok ? { kind: 'ok', text: t('settings.saved') } : { kind: 'bad', text: errorText(t, r.error) });
  }

  return (
    <div className="set-section" data-testid="settings-retention">
      <h2>{t('retention.title')}</h2>
      <p className="set-hint">{t('retention.intro')}</p>
      <form
        className="set-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save(e.currentTarget);
        }}
      >
        <div className="set-grid">
          <NumberField
            id="retention-labels"
            label={t('retention.labelsDays')}
            value={labels}
            onChange={setLabels}
            error={labelsError}
            hint={t('retention.labelsHint')}
          />
          <NumberField
            id="retention-history"
            label={t('retention.historyDays')}
            value={history}
            onChange={setHistory}
            error={historyError}
            hint={t('retention.historyHint')}
          />
        </div>
        <FormActions result={result} resultTestId="retention-result">
          <button type="submit" className="primary" data-testid="retention-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>
    </div>
  );
}
