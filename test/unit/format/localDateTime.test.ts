import { describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../../shared/dateTime';
import { testLabelLines } from '../../../electron/printing/testLabel';

// British English writes the 24-hour clock with two digits ("00:07", CLDR en-GB time pattern HH:mm:ss);
// Czech writes the hour as a number ("0:07", CLDR cs pattern H:mm:ss). A CI run after midnight found
// the test print writing "0:07:04" in English.
describe('a moment as the desk reads it', () => {
  const midnight = new Date(2026, 10, 27, 0, 7, 4);
  const morning = new Date(2026, 10, 27, 9, 5, 0);

  it('writes English hours with two digits at midnight and in the morning', () => {
    expect(formatLocalDateTime(midnight, 'en', { seconds: true })).toBe('27/11/2026, 00:07:04');
    expect(formatLocalDateTime(morning, 'en')).toBe('27/11/2026, 09:05');
  });

  it('writes Czech hours as a number, with the year in full', () => {
    expect(formatLocalDateTime(midnight, 'cs', { seconds: true })).toBe('27. 11. 2026 0:07:04');
    expect(formatLocalDateTime(morning, 'cs')).toBe('27. 11. 2026 9:05');
  });

  it('prints the same time on the test label as the screens show', () => {
    const p = { id: 'virtual-zpl', name: 'x', builtIn: true };
    expect(testLabelLines(p, midnight, 'en')[2]).toBe('27/11/2026, 00:07:04');
    expect(testLabelLines(p, midnight, 'cs')[2]).toBe('27. 11. 2026 0:07:04');
  });
});
