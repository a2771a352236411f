/** One labelled input with its error under it; test ids follow the draft path (`ns-recipient.phone`). */
import type { ReactNode } from 'react';
import { draftFieldMaxLength } from '../../../../shared/contract/newShipment';
import { printsOnLabel, unprintableCharacters } from '../../../../shared/newShipment/labelCharacters';
import { useT } from '../../i18n';

export interface FieldProps {
  field: string;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  required?: boolean;
  placeholder?: string;
  hint?: ReactNode;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'email';
  className?: string;
  disabled?: boolean;
}

export function Field(p: FieldProps) {
  const t = useT();
  const errId = `ns-err-${p.field}`;
  // Said as it is typed, before any label prints boxes; the shipment may still be saved.
  const unprintable = printsOnLabel(p.field) ? unprintableCharacters(p.value) : [];
  return (
    <label className={`ns-field ${p.className ?? ''} ${p.error ? 'has-error' : ''}`}>
      <span className="ns-label">
        {p.label}
        {p.required && (
          <span className="ns-req" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      <input
        data-testid={`ns-${p.field}`}
        data-field={p.field}
        value={p.value}
        placeholder={p.placeholder}
        inputMode={p.inputMode}
        // The contract's limit: the field takes no more than the core accepts.
        maxLength={draftFieldMaxLength(p.field)}
        disabled={p.disabled}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? errId : undefined}
        onChange={(e) => p.onChange(e.target.value)}
      />
      {p.hint && !p.error && <span className="ns-hint">{p.hint}</span>}
      {p.error && (
        <span className="ns-error" id={errId} data-testid={`ns-error-${p.field}`}>
          {p.error}
        </span>
      )}
      {unprintable.length > 0 && (
        <span className="ns-warning" role="status" data-testid={`ns-warning-${p.field}`}>
          {t('newShipment.warn.unprintable', { chars: unprintable.join(' ') })}
        </span>
      )}
    </label>
  );
}

/** An error that belongs to a group of inputs (a party type, the transport choice). */
export function GroupError({ field, error }: { field: string; error?: string }) {
  if (!error) return null;
  return (
    <div className="ns-error" data-testid={`ns-error-${field}`} role="alert">
      {error}
    </div>
  );
}
