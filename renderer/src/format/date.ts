/**
 * Calendar dates as the UI language writes them, for inputs as well as tables: English (en-GB, as
 * the tables) 23/11/2026, Czech 23. 11. 2026. A native <input type=date> shows the browser's
 * locale instead (mm/dd/yyyy in an English-US Chromium beside 23/11/2026 in the table), so date
 * fields are text fields that read and write these forms (DateInput.tsx).
 */
const locales = { en: 'en-GB', cs: 'cs-CZ' } as const;
type Lang = keyof typeof locales;

const pad = (n: number) => String(n).padStart(2, '0');

/** A local calendar day as "yyyy-mm-dd" (the station's own day, not UTC's). */
export const isoDayOf = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** "2026-11-23" → "23/11/2026" (en) or "23. 11. 2026" (cs); '' stays ''. */
export function formatIsoDate(iso: string, language: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.toLocaleDateString(locales[language], {
    day: language === 'en' ? '2-digit' : 'numeric',
    month: language === 'en' ? '2-digit' : 'numeric',
    year: 'numeric',
  });
}

/** The pattern shown as a placeholder: what to type. */
export function datePattern(language: Lang): string {
  return language === 'cs' ? 'd. m. rrrr' : 'dd/mm/yyyy';
}

/**
 * A typed date → "yyyy-mm-dd", or null when it is no date. Day, month, year in that order in both
 * languages, with any of / . - or spaces between ("23/11/2026", "23. 11. 2026", "23.11.26"); an ISO
 * date is taken as it is. A day that does not exist (31/02) is no date.
 */
export function parseDate(text: string): string | null {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dmy =
    /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]?\s*(\d{2}|\d{4})$/.exec(s) ??
    /^(\d{1,2})\s+(\d{1,2})\s+(\d{2}|\d{4})$/.exec(s);
  let y: number, mo: number, d: number;
  if (iso) [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) {
    const year = dmy[3] ?? '';
    [d, mo, y] = [Number(dmy[1]), Number(dmy[2]), Number(year.length === 2 ? `20${year}` : year)];
  } else return null;
  const date = new Date(y, mo - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return `${y}-${pad(mo)}-${pad(d)}`;
}
