/**
 * Statistics: for a range of local days (today by default), per operator and for nobody signed in,
 * the parcels closed and printed, labels, reprints with their reasons, refusals and errors, the
 * parcels an hour; a chart of the parcels closed in each hour; and where the time went between the
 * journal's steps (p50 and p95 per carrier, of one operator or everyone). The core computes every
 * figure (electron/statistics/); "Export CSV" saves the same figures as a file.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  STATISTICS_MAX_DAYS,
  STATISTICS_MIN_RATE_MINUTES,
  statisticsCsvColumns,
  statisticsRange,
  statisticsSteps,
  type OperatorFigures,
  type Statistics,
  type StatisticsScope,
} from '../../../../shared/contract/statistics';
import { reprintReasons } from '../../../../shared/contract/operators';
import { DateInput } from '../../format/DateInput';
import { errorTextNow, useLanguage, useT, type T } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { rpc } from '../../rpc/transport';
import { HourChart } from './HourChart';
import { isoDayOf } from '../../format/date';
import { saveTextFile } from '../../format/saveTextFile';
import { scopeName } from './scopeName';
import './statistics.css';

/** Today as the station's calendar says it (local time). */
const localToday = (): string => isoDayOf(new Date());

export function StatisticsScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [from, setFrom] = useState(localToday);
  const [to, setTo] = useState(localToday);
  const [stats, setStats] = useState<Statistics | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [stepsOf, setStepsOf] = useState<StatisticsScope>('everyone');
  const valid = statisticsRange.safeParse({ from, to }).success;

  const load = useCallback(async (range: { from: string; to: string }) => {
    setLoading(true);
    const r = await rpc.request('statistics.get', range);
    setLoading(false);
    if (r.ok) {
      setStats(r.value);
      setMessage(null);
    } else setMessage(errorTextNow(r.error));
  }, []);

  useEffect(() => {
    if (valid) void load({ from, to });
  }, [from, to, valid, load]);

  async function exportCsv() {
    const r = await rpc.request('statistics.csv', {
      range: { from, to },
      language,
      labels: {
        columns: Object.fromEntries(
          statisticsCsvColumns.map((c) => [c, t(`statistics.csv.${c}` as MessageKey)]),
        ) as Record<(typeof statisticsCsvColumns)[number], string>,
        nobody: t('statistics.nobody'),
        everyone: t('statistics.everyone'),
        everyCarrier: t('statistics.everyCarrier'),
      },
    });
    if (r.ok) saveTextFile(r.value.fileName, r.value.csv, 'text/csv;charset=utf-8');
    else setMessage(errorTextNow(r.error));
  }

  const decimal = useMemo(
    () => new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    [language],
  );
  const scopes = stats ? [...stats.operators.map((o) => o.scope), 'everyone' as const] : ['everyone' as const];
  const shownScope = scopes.includes(stepsOf) ? stepsOf : 'everyone';
  const empty =
    stats &&
    stats.total.parcels === 0 &&
    Object.values(stats.total.reprints).every((n) => n === 0) &&
    stats.total.held === 0;

  return (
    <section className="stats" aria-label={t('statistics.title')} data-testid="screen-statistics">
      <div className="stats-head">
        <h1>{t('statistics.title')}</h1>
        <label>
          {t('statistics.from')}{' '}
          <DateInput value={from} onChange={setFrom} testId="stats-from" invalidText={t('statistics.badDate')} />
        </label>
        <label>
          {t('statistics.to')}{' '}
          <DateInput value={to} onChange={setTo} testId="stats-to" invalidText={t('statistics.badDate')} />
        </label>
        <button
          type="button"
          onClick={() => {
            setFrom(localToday());
            setTo(localToday());
          }}
        >
          {t('statistics.today')}
        </button>
        <button
          type="button"
          className="primary"
          disabled={!valid || !stats}
          onClick={() => void exportCsv()}
          data-testid="stats-export"
        >
          {t('statistics.export')}
        </button>
        {loading && <span className="stats-muted">{t('statistics.loading')}</span>}
      </div>
      {!valid && (
        <p className="stats-message" role="alert">
          {t('statistics.badRange', { max: STATISTICS_MAX_DAYS })}
        </p>
      )}
      {message && (
        <p className="stats-message" role="alert">
          {message}
        </p>
      )}
      {stats && valid && (
        <>
          <p className="stats-summary" data-testid="stats-summary">
            {t('statistics.summary.closed', { n: stats.total.closed })} ·{' '}
            {t('statistics.summary.labels', { n: stats.total.labels })} ·{' '}
            {t('statistics.summary.reprints', { n: Object.values(stats.total.reprints).reduce((a, b) => a + b, 0) })}
          </p>
          {empty ? (
            <p className="stats-muted">{t('statistics.empty')}</p>
          ) : (
            <>
              <OperatorTable t={t} stats={stats} decimal={decimal} />
              <div className="stats-lower">
                <div className="stats-panel">
                  <h2>{t('statistics.chart')}</h2>
                  <HourChart stats={stats} />
                </div>
                <div className="stats-panel">
                  <div className="stats-panel-head">
                    <h2>{t('statistics.steps')}</h2>
                    <label>
                      {t('statistics.stepsOf')}{' '}
                      <select
                        value={String(shownScope)}
                        onChange={(e) => {
                          const v = e.target.value;
                          setStepsOf(v === 'everyone' || v === 'nobody' ? v : Number(v));
                        }}
                        data-testid="stats-steps-of"
                      >
                        {[...stats.operators, stats.total].map((o) => (
                          <option key={String(o.scope)} value={String(o.scope)}>
                            {scopeName(t, o)}
                          </option>
                        ))}
                      </select>
                    </label>
                  </div>
                  <p className="stats-muted">{t('statistics.stepsHint')}</p>
                  <StepTable t={t} stats={stats} scope={shownScope} decimal={decimal} />
                </div>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

function OperatorTable({ t, stats, decimal }: { t: T; stats: Statistics; decimal: Intl.NumberFormat }) {
  const row = (o: OperatorFigures, total = false) => {
    const reprints = reprintReasons.filter((r) => o.reprints[r] > 0);
    const sum = reprints.reduce((n, r) => n + o.reprints[r], 0);
    return (
      <tr
        key={String(o.scope)}
        className={total ? 'stats-total' : undefined}
        data-testid="stats-operator"
        data-scope={String(o.scope)}
      >
        <th scope="row">{scopeName(t, o)}</th>
        <td>{o.parcels}</td>
        <td data-testid="stats-rescans">{o.rescans}</td>
        <td>{o.closed}</td>
        <td>{o.printed}</td>
        <td>{o.labels}</td>
        <td data-testid="stats-reprints">
          {sum}
          {sum > 0 && (
            <span className="stats-muted">
              {' '}
              ({reprints.map((r) => `${o.reprints[r]} ${t(`statistics.reason.${r}` as MessageKey)}`).join(', ')})
            </span>
          )}
        </td>
        <td data-testid="stats-held">{o.held}</td>
        <td>{o.refusals}</td>
        <td>{o.errors}</td>
        <td
          data-testid="stats-per-hour"
          title={
            o.perHour === null && o.closed > 0
              ? t('statistics.perHourShort', { min: STATISTICS_MIN_RATE_MINUTES })
              : undefined
          }
        >
          {o.perHour === null ? '—' : decimal.format(o.perHour)}
        </td>
      </tr>
    );
  };
  return (
    <div className="stats-panel">
      <h2>{t('statistics.operators')}</h2>
      <table className="stats-table" data-testid="stats-operators">
        <thead>
          <tr>
            <th scope="col">{t('statistics.col.operator')}</th>
            <th scope="col">{t('statistics.col.parcels')}</th>
            <th scope="col" title={t('statistics.rescansHint')}>
              {t('statistics.col.rescans')}
            </th>
            <th scope="col">{t('statistics.col.closed')}</th>
            <th scope="col">{t('statistics.col.printed')}</th>
            <th scope="col">{t('statistics.col.labels')}</th>
            <th scope="col">{t('statistics.col.reprints')}</th>
            <th scope="col">{t('statistics.col.held')}</th>
            <th scope="col">{t('statistics.col.refusals')}</th>
            <th scope="col">{t('statistics.col.errors')}</th>
            <th scope="col" title={t('statistics.perHourHint', { min: STATISTICS_MIN_RATE_MINUTES })}>
              {t('statistics.col.perHour')}
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.operators.map((o) => row(o))}
          {row(stats.total, true)}
        </tbody>
      </table>
      {[...stats.operators, stats.total].some((o) => o.perHour === null && o.closed > 0) && (
        <p className="stats-muted" data-testid="stats-per-hour-hint">
          {t('statistics.perHourShort', { min: STATISTICS_MIN_RATE_MINUTES })}
        </p>
      )}
    </div>
  );
}

function StepTable({
  t,
  stats,
  scope,
  decimal,
}: {
  t: T;
  stats: Statistics;
  scope: StatisticsScope;
  decimal: Intl.NumberFormat;
}) {
  const mine = stats.steps.filter((s) => s.scope === scope);
  if (!mine.length) return <p className="stats-muted">{t('statistics.noSteps')}</p>;
  const carriers = [...new Set(mine.map((s) => s.carrier))].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  const seconds = (ms: number) => decimal.format(ms / 1000);
  return (
    <table className="stats-table" data-testid="stats-steps">
      <thead>
        <tr>
          <th scope="col">{t('statistics.col.carrier')}</th>
          {statisticsSteps.map((s) => (
            <th scope="col" key={s}>
              {t(`statistics.step.${s}` as MessageKey)}
              <br />
              <span className="stats-muted">p50 / p95</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {carriers.map((c) => (
          <tr
            key={c ?? ''}
            data-testid="stats-step-row"
            data-carrier={c ?? ''}
            className={c === null ? 'stats-total' : undefined}
          >
            <th scope="row">{c === null ? t('statistics.everyCarrier') : c || t('statistics.unknownCarrier')}</th>
            {statisticsSteps.map((step) => {
              const f = mine.find((s) => s.carrier === c && s.step === step);
              return (
                <td key={step} data-step={step} title={f ? t('statistics.stepCount', { n: f.count }) : undefined}>
                  {f ? `${seconds(f.p50Ms)} / ${seconds(f.p95Ms)}` : '—'}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
