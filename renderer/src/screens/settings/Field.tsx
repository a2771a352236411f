/** A labelled form field with its validation message right under it (read by screen readers too). */
import type { ReactNode } from 'react';

export function Field(props: { id: string; label: string; error?: string | null; hint?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <div className={props.wide ? 'set-field wide' : 'set-field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint && <small className="set-hint">{props.hint}</small>}
      {props.error && (
        <small className="set-field-error" role="alert" id={`${props.id}-error`} data-testid={`${props.id}-error`}>
          {props.error}
        </small>
      )}
    </div>
  );
}

/** A one-line result of an action: saved, failed, sent... */
export function Notice(props: { kind: 'ok' | 'bad' | 'info'; testId?: string; children: ReactNode }) {
  return (
    <p className={`set-notice ${props.kind}`} role={props.kind === 'bad' ? 'alert' : 'status'} data-testid={props.testId}>
      {props.children}
    </p>
  );
}

/** A form's buttons, and the answer to its last submit beside them. */
export function FormActions(props: { result: { kind: 'ok' | 'bad' | 'info'; text: string } | null; resultTestId?: string; children: ReactNode }) {
  return (
    <div className="set-actions">
      {props.children}
      {props.result && (
        <Notice kind={props.result.kind} testId={props.resultTestId}>
          {props.result.text}
        </Notice>
      )}
    </div>
  );
}
