/**
 * Time in the sandbox: every timestamp is ISO 8601 with the numeric offset of Europe/Prague
 * (spec "Common conventions" 7), and working days follow the Czech calendar (weekends, fixed
 * public holidays, Good Friday and Easter Monday). Time is always passed in; nothing reads a clock.
 */

const ZONE = 'Europe/Prague';
const HOUR = 3_600_000;

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(d: Date): Wall {
  const p: Record<string, number> = {};
  for (const part of partsFormat.formatToParts(d)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** Offset of Prague from UTC at instant d, in minutes (60 or 120). */
function offsetMinutes(d: Date): number {
  const w = wallClock(d);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(d.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ISO 8601 with the Europe/Prague offset, whole seconds: 2024-05-02T10:15:00+02:00. */
export function formatTimestamp(d: Date): string {
  const w = wallClock(d);
  const off = offsetMinutes(d);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The Prague calendar date of an instant, YYYY-MM-DD. */
export function pragueDate(d: Date): string {
  const w = wallClock(d);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The instant of a Prague wall-clock time on a date (YYYY-MM-DD). */
export function atPragueTime(date: string, hour: number, minute = 0): Date {
  const [y, m, day] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, day, hour, minute);
  // Two passes settle the offset even right next to a DST switch.
  let t = guess - offsetMinutes(new Date(guess)) * 60_000;
  t = guess - offsetMinutes(new Date(t)) * 60_000;
  return new Date(t);
}

function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Easter Sunday (Gregorian, anonymous algorithm). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const FIXED_HOLIDAYS = [
  '01-01',
  '05-01',
  '05-08',
  '07-05',
  '07-06',
  '09-28',
  '10-28',
  '11-17',
  '12-24',
  '12-25',
  '12-26',
];

/** Czech working day: Monday-Friday and not a public holiday. */
export function isWorkingDay(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  if (FIXED_HOLIDAYS.includes(date.slice(5))) return false;
  const easter = easterSunday(y);
  return date !== addDays(easter, -2) && date !== addDays(easter, 1);
}

/** The n-th working day after `date` (n >= 1). */
export function addWorkingDays(date: string, n: number): string {
  let day = date;
  for (let left = n; left > 0;) {
    day = addDays(day, 1);
    if (isWorkingDay(day)) left--;
  }
  return day;
}

/** Next working day after the Prague date of `now` (pick-up orders, spec "Pick-up order"). */
export function nextWorkingDay(now: Date): string {
  return addWorkingDays(pragueDate(now), 1);
}

export function addHours(d: Date, h: number): Date {
  return new Date(d.getTime() + h * HOUR);
}

/** Parses an ISO timestamp; null when it is not one. */
export function parseTimestamp(s: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t);
}

export { addDays };
