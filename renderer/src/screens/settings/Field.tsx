/** A labelled form field with its validation message right under it (read by screen readers too). */
import { cloneElement, isValidElement, useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';

export function Field(props: { id: string; label: string; error?: string | null; hint?: ReactNode; children: ReactNode; wide?: boolean }) {
  // The control says it is invalid and names its message: the form's failed save focuses the first such one.
  const control =
    props.error && isValidElement(props.children)
      ? cloneElement(props.children as ReactElement<Record<string, unknown>>, { 'aria-invalid': true, 'aria-describedby': `${props.id}-error` })
      : props.children;
  return (
    <div className={props.wide ? 'set-field wide' : 'set-field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {control}
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
  const ref = useRef<HTMLDivElement>(null);
  // A failed save: the cursor goes to the form's first invalid field, in reading order (issue 25 item 10).
  useEffect(() => {
    if (props.result?.kind === 'bad') focusFirstInvalid(ref.current?.closest('form') ?? null);
  }, [props.result]);
  return (
    <div className="set-actions" ref={ref}>
      {props.children}
      {props.result && (
        <Notice kind={props.result.kind} testId={props.resultTestId}>
          {props.result.text}
        </Notice>
      )}
    </div>
  );
}
