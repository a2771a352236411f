/** Amounts and times as the worker reads them, from exact decimal text (no float on the way). */
import type { Language } from '../../i18n';
import { formatAmount } from '../../format/decimal';

export { formatAmount };

export function formatMoney(p: { total: string; currency: string } | null, lang: Language): string {
  return p ? `${formatAmount(p.total, lang)} ${p.currency}` : '';
}

const locale = (lang: Language) => (lang === 'cs' ? 'cs-CZ' : 'en-GB');

/**
 * The wall-clock time as the service wrote it (its numeric offset is the carrier's local time,
 * spec "Common conventions" 7), not converted to this computer's zone: a Prague pick-up at 10:00
 * reads 10:00 on any desk.
 */
function parts(iso: string): { date: Date; hm: string } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!m) return null;
  return { date: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), hm: `${m[4]}:${m[5]}` };
}

function day(d: Date, lang: Language): string {
  return new Intl.DateTimeFormat(locale(lang), {
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}

/** "Tue 4/6 10:00–14:00", or "Tue 4/6 by 18:00" when only the end is known. */
export function formatWindow(from: string | null, to: string | null, lang: Language): string {
  const a = from ? parts(from) : null;
  const b = to ? parts(to) : null;
  const anchor = b ?? a;
  if (!anchor) return '—';
  if (a && b) return `${day(anchor.date, lang)} ${a.hm}–${b.hm}`;
  return `${day(anchor.date, lang)} ${b ? (lang === 'cs' ? 'do' : 'by') : lang === 'cs' ? 'od' : 'from'} ${anchor.hm}`;
}
