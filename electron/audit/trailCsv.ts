/**
 * The audit trail of a date range as CSV, for payroll or a dispute: one row per step, its time in
 * the page's time zone, the desk, the operator, the parcel, the step, the printer, the outcome and
 * the reason. Steps, outcomes and reasons are the station's codes (snake_case, the same in every
 * language), so a spreadsheet's filter reads them the same on every desk. UTF-8 with a byte order
 * mark: Excel opens it as UTF-8 (operators' names with diacritics).
 */
import { stringify } from 'csv-stringify/sync';
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

export function trailCsv(steps: TrailStep[], timeZone: string): string {
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
    s.kg ?? '',
  ]);
  return '\uFEFF' + stringify([[...TRAIL_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
