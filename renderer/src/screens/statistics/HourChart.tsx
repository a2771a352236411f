/**
 * Parcels closed in each hour of the day, one stacked bar per hour with a colour per operator
 * (recharts: SVG drawn by React, so the page's strict CSP holds: no inline <style>, no eval).
 * The hours shown run from the first to the last hour anything was closed in; the same figures
 * are in a table a screen reader (and a test) reads.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Statistics } from '../../../../shared/contract/statistics';
import { useT } from '../../i18n';
import { scopeName } from './scopeName';

/** Distinct on white and for the common colour blindnesses (Okabe–Ito). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

export function HourChart({ stats }: { stats: Statistics }) {
  const t = useT();
  const busy = stats.hours.filter((h) => h.closed.some((c) => c.closed > 0)).map((h) => h.hour);
  if (!busy.length) return <p className="stats-muted">{t('statistics.chartEmpty')}</p>;
  const first = Math.min(...busy);
  const last = Math.max(...busy);
  const hours = stats.hours.filter((h) => h.hour >= first && h.hour <= last);
  const series = stats.operators.filter((o) =>
    hours.some((h) => h.closed.some((c) => c.scope === o.scope && c.closed > 0)),
  );
  const key = (scope: string | number) => `s${String(scope)}`;
  const data = hours.map((h) => ({
    hour: `${h.hour}:00`,
    ...Object.fromEntries(h.closed.map((c) => [key(c.scope), c.closed])),
  }));
  return (
    <div className="stats-chart" data-testid="stats-chart">
      <ResponsiveContainer width="100%" height={230}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="hour" />
          <YAxis allowDecimals={false} />
          <Tooltip isAnimationActive={false} />
          <Legend />
          {series.map((o, i) => (
            <Bar
              key={String(o.scope)}
              dataKey={key(o.scope)}
              name={scopeName(t, o)}
              stackId="closed"
              fill={COLOURS[i % COLOURS.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <table className="visually-hidden" data-testid="stats-hours">
        <thead>
          <tr>
            <th scope="col">{t('statistics.csv.hour')}</th>
            {series.map((o) => (
              <th scope="col" key={String(o.scope)}>
                {scopeName(t, o)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {hours.map((h) => (
            <tr key={h.hour} data-hour={h.hour}>
              <th scope="row">{`${h.hour}:00`}</th>
              {series.map((o) => (
                <td key={String(o.scope)}>{h.closed.find((c) => c.scope === o.scope)?.closed ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
