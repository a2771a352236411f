/** The filter bar: state, carrier, collection place, created dates, free text (typed text waits 250 ms). */
import { useEffect, useState } from 'react';
import type { CachedCollectionPlace } from '../../../../shared/contract/shipments';
import { DateInput } from '../../format/DateInput';
import { useT } from '../../i18n';
import { noFilters, stateGroups, type FilterValues } from './filters';

export function ShipmentFilters(p: {
  value: FilterValues;
  onChange(v: FilterValues): void;
  carriers: string[];
  places: CachedCollectionPlace[];
}) {
  const t = useT();
  const [text, setText] = useState(p.value.text);
  const { value, onChange } = p;
  useEffect(() => setText(value.text), [value.text]);
  useEffect(() => {
    if (text === value.text) return;
    const timer = setTimeout(() => onChange({ ...value, text }), 250);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  const set = (k: keyof FilterValues) => (e: { target: { value: string } }) =>
    onChange({ ...value, [k]: e.target.value });

  return (
    <div className="sh-filters" role="search">
      <label className="sh-text">
        <span>{t('shipments.filter.text')}</span>
        <input
          type="search"
          value={text}
          maxLength={200}
          placeholder={t('shipments.filter.textPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          data-testid="filter-text"
        />
      </label>
      <label>
        <span>{t('shipments.filter.state')}</span>
        <select value={value.state} onChange={set('state')} data-testid="filter-state">
          <option value="">{t('shipments.filter.any')}</option>
          {stateGroups.map((g) => (
            <option key={g.id} value={g.id}>
              {t(g.label)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('shipments.filter.carrier')}</span>
        <select value={value.carrier} onChange={set('carrier')} data-testid="filter-carrier">
          <option value="">{t('shipments.filter.any')}</option>
          {p.carriers.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('shipments.filter.place')}</span>
        <select value={value.place} onChange={set('place')} data-testid="filter-place">
          <option value="">{t('shipments.filter.any')}</option>
          {p.places.map((pl) => (
            <option key={pl.identificator} value={pl.identificator}>
              {pl.identificator}
              {pl.name ? ` – ${pl.name}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('shipments.filter.from')}</span>
        <DateInput
          value={value.from}
          onChange={(from) => onChange({ ...value, from })}
          testId="filter-from"
          invalidText={t('shipments.filter.badDate')}
        />
      </label>
      <label>
        <span>{t('shipments.filter.to')}</span>
        <DateInput
          value={value.to}
          onChange={(to) => onChange({ ...value, to })}
          testId="filter-to"
          invalidText={t('shipments.filter.badDate')}
        />
      </label>
      <button
        type="button"
        className="sh-clear"
        onClick={() => onChange(noFilters)}
        disabled={JSON.stringify(value) === JSON.stringify(noFilters)}
      >
        {t('shipments.filter.clear')}
      </button>
    </div>
  );
}
