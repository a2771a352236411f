/**
 * Printing numbers and dates on Czech labels, exactly: decimals stay strings (no float drift),
 * Czech conventions (decimal comma, space as thousands separator, Prague time).
 */

/** "1234.5" -> "1 234,50" (minFraction 2); "2.350" -> "2,35" (minFraction 0 drops trailing zeros). */
export function formatDecimal(value: string, minFraction: number): string {
  const [rawInt = '0', rawFrac = ''] = value.trim().replace(',', '.').split('.');
  const negative = rawInt.startsWith('-');
  const digits = (negative ? rawInt.slice(1) : rawInt).replace(/^0+(?=\d)/, '');
  let frac = rawFrac.replace(/0+$/, '');
  if (frac.length < minFraction) frac = frac.padEnd(minFraction, '0');
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${negative ? '-' : ''}${grouped}${frac ? `,${frac}` : ''}`;
}

export function formatMoney(amount: string, currency: string): string {
  return `${formatDecimal(amount, 2)} ${currency}`;
}

export function formatWeight(kg: string): string {
  return `${formatDecimal(kg, 0)} kg`;
}

/** Sums exact decimal strings ("1.5" + "2,25" = "3.75") through BigInt. */
export function addDecimals(values: string[]): string {
  const parts = values.map((v) => v.trim().replace(',', '.'));
  const scale = Math.max(0, ...parts.map((v) => (v.split('.')[1] ?? '').length));
  let total = 0n;
  for (const v of parts) {
    const [i = '0', f = ''] = v.split('.');
    const negative = i.startsWith('-');
    const units = BigInt((negative ? i.slice(1) : i) + f.padEnd(scale, '0'));
    total += negative ? -units : units;
  }
  const negative = total < 0n;
  const s = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale);
  return `${negative ? '-' : ''}${int}${scale ? `.${frac}` : ''}`;
}

const dateTime = new Intl.DateTimeFormat('cs-CZ', {
  timeZone: 'Europe/Prague',
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const dateOnly = new Intl.DateTimeFormat('cs-CZ', {
  timeZone: 'Europe/Prague',
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
});

/** "5. 3. 2025 14:07" in Prague time, independent of the machine's zone. */
export function formatDateTime(d: Date): string {
  return dateTime.format(d).replace(/\s+/g, ' ');
}

export function formatDate(d: Date): string {
  return dateOnly.format(d).replace(/\s+/g, ' ');
}
