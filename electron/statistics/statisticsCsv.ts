/**
 * The statistics as one CSV table for payroll or a dispute. Its first row holds the stable English
 * column keys (what a script reads), its second row their names in the UI language (what a person
 * reads); then a row per operator (section `operator`, nobody signed in included), the total
 * (`total`), each hour of the day (`hour`: parcels closed in it, per operator and in total) and
 * each step time (`step`: per operator or everyone, per carrier or every carrier; seconds, p50
 * and p95 by nearest rank). Cells a section has no figure for are empty.
 *
 * Numbers and separators in the one form of the station's exports (../base/csvFile.ts): Czech with
 * a decimal comma and `;` between fields, English with a point and `,`.
 */
import { csvDecimal, csvFile } from '../base/csvFile';
import {
  statisticsCsvColumns,
  type OperatorFigures,
  type Statistics,
  type StatisticsCsvColumn,
  type StatisticsScope,
} from '../../shared/contract/statistics';

export interface StatisticsCsvLabels {
  columns: Record<StatisticsCsvColumn, string>;
  nobody: string;
  everyone: string;
  everyCarrier: string;
}

type Row = Partial<Record<StatisticsCsvColumn, string | number>>;

export function statisticsCsv(s: Statistics, language: 'en' | 'cs', labels: StatisticsCsvLabels): string {
  const decimal = (n: number, digits: number) => csvDecimal(n.toFixed(digits), language);
  const nameOf = new Map<StatisticsScope, string>(s.operators.map((o) => [o.scope, o.name ?? labels.nobody]));
  nameOf.set('nobody', labels.nobody);
  nameOf.set('everyone', labels.everyone);
  const who = (scope: StatisticsScope): Row => ({
    operator_id: typeof scope === 'number' ? scope : '',
    operator: nameOf.get(scope) ?? '',
  });
  const counts = (section: string, f: OperatorFigures): Row => ({
    section,
    ...who(f.scope),
    parcels: f.parcels,
    rescans: f.rescans,
    closed: f.closed,
    printed: f.printed,
    labels: f.labels,
    reprints_damaged: f.reprints.damaged,
    reprints_lost: f.reprints.lost,
    reprints_wrong_printer: f.reprints.wrong_printer,
    reprints_other: f.reprints.other,
    held: f.held,
    refusals: f.refusals,
    errors: f.errors,
    parcels_per_hour: f.perHour === null ? '' : decimal(f.perHour, 1),
  });

  const rows: Row[] = [
    ...s.operators.map((o) => counts('operator', o)),
    counts('total', s.total),
    ...s.hours.flatMap((h) => [
      ...h.closed.map((c) => ({ section: 'hour', ...who(c.scope), hour: h.hour, closed: c.closed })),
      { section: 'hour', ...who('everyone'), hour: h.hour, closed: h.closed.reduce((n, c) => n + c.closed, 0) },
    ]),
    ...s.steps.map((t) => ({
      section: 'step',
      ...who(t.scope),
      carrier: t.carrier ?? labels.everyCarrier,
      step: t.step,
      count: t.count,
      p50_s: decimal(t.p50Ms / 1000, 1),
      p95_s: decimal(t.p95Ms / 1000, 1),
    })),
  ];
  const table = [
    [...statisticsCsvColumns],
    statisticsCsvColumns.map((c) => labels.columns[c]),
    ...rows.map((r) => statisticsCsvColumns.map((c) => r[c] ?? '')),
  ];
  return csvFile(table, language);
}
