/**
 * A moment as the desk's language writes it, in the desk's time zone: "26. 11. 2026 8:45:03" (Czech
 * writes the hour without a leading zero) and "26/11/2026, 08:45:03" (British English always writes
 * two digits, midnight included). One writer for the screens and the labels the station prints, so
 * a test print and the Shipments screen never disagree about what time it is.
 */
export function formatLocalDateTime(at: Date, language: string, o: { seconds?: boolean } = {}): string {
  const cs = language === 'cs';
  return at.toLocaleString(cs ? 'cs-CZ' : 'en-GB', {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    // ICU's en-GB writes "0:07" for a numeric hour at midnight: ask for two digits.
    hour: cs ? 'numeric' : '2-digit',
    minute: '2-digit',
    ...(o.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  });
}
