/**
 * A date field in the UI language's format (format/date.ts): shows the value as the tables do,
 * takes what the worker types on Enter or on leaving the field, and marks a text that is no date
 * without changing the value. `value` and `onChange` carry "yyyy-mm-dd" ('' for none).
 */
import { useEffect, useState } from 'react';
import { useLanguage } from '../i18n';
import { datePattern, formatIsoDate, parseDate } from './date';

export function DateInput(p: {
  value: string;
  onChange: (iso: string) => void;
  testId?: string;
  'aria-label'?: string;
  invalidText: string;
}) {
  const language = useLanguage((s) => s.language);
  const [text, setText] = useState(() => formatIsoDate(p.value, language));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText(formatIsoDate(p.value, language));
    setBad(false);
  }, [p.value, language]);

  const commit = () => {
    if (!text.trim()) {
      setBad(false);
      if (p.value !== '') p.onChange('');
      return;
    }
    const iso = parseDate(text);
    setBad(iso === null);
    if (iso === null) return;
    setText(formatIsoDate(iso, language));
    if (iso !== p.value) p.onChange(iso);
  };

  return (
    <input
      type="text"
      inputMode="numeric"
      lang={language}
      className={bad ? 'date-input invalid' : 'date-input'}
      value={text}
      placeholder={datePattern(language)}
      size={11}
      aria-label={p['aria-label']}
      aria-invalid={bad || undefined}
      title={bad ? p.invalidText : undefined}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      data-testid={p.testId}
    />
  );
}
