/**
 * The audit trail of a date range as CSV, for payroll or a dispute: one row per step, its time in
 * the page's time zone, the desk, the operator, the parcel, the step, the printer, the outcome and
 * the reason. Steps, outcomes and reasons are the station's codes (snake_case, the same in every
 * language), so a spreadsheet's filter reads them the same on every desk. Separators, decimals and
 * encoding are those of every export of the station (../base/csvFile.ts): in Czech `;` and a
 * decimal comma (a weight of 2,418 kg), in English `,` and a point.
 */
import { csvDecimal, csvFile, type CsvLanguage } from '../base/csvFile';
import type { TrailStep } from '../../shared/contract/audit';

const TRAIL_CSV_COLUMNS = [
  'date_time',
  'desk',
  'operator',
  'delivery_id',
  'code',
  'step',
  'printer',
  'job_id',
  'outcome',
  'reason',
  'note',
  'package',
  'weight_kg',
] as const;

/** "2026-11-26 09:15:03" in `timeZone` (24-hour clock, sortable as text). */
export function localDateTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const p = (type: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
}

export function trailCsv(steps: TrailStep[], timeZone: string, language: CsvLanguage): string {
  const rows = steps.map((s) => [
    localDateTime(s.at, timeZone),
    s.desk ?? '',
    s.operator?.name ?? '',
    s.deliveryId ?? '',
    s.code ?? '',
    s.step === 'print_asked' && s.source ? `print_asked_${s.source}` : s.step,
    s.printer ?? s.printerId ?? '',
    s.jobId ?? '',
    s.outcome ?? '',
    s.reasonCode ?? '',
    s.note ?? '',
    s.packageNumber ?? '',
    s.kg === null ? '' : csvDecimal(s.kg, language),
  ]);
  return csvFile([[...TRAIL_CSV_COLUMNS], ...rows], language);
}
