/** A labelled form field with its validation message right under it (read by screen readers too). */
import { Children, cloneElement, isValidElement, useEffect, useRef, type ReactElement, type ReactNode } from 'react';

export function Field(props: {
  id: string;
  label: string;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  // The control says it is invalid and names its message: the form's failed save focuses the first such one.
  // The control is the child the label names (its id); a field may hold more (a list, a button).
  const control = props.error
    ? Children.map(props.children, (c) =>
        isValidElement<{ id?: string }>(c) && c.props.id === props.id
          ? cloneElement(c as ReactElement<Record<string, unknown>>, {
              'aria-invalid': true,
              'aria-describedby': `${props.id}-error`,
            })
          : c,
      )
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

/**
 * A labelled number field of a Settings form. The value stays the text as typed (a half-typed
 * number, "0,05" in Czech) and the section reads and checks it: the ranges and their messages are
 * each setting's own. The input's id is also its test id, and its message's test id is `<id>-error`.
 */
export function NumberField(props: {
  id: string;
  label: string;
  value: string;
  onChange(text: string): void;
  error?: string | null;
  hint?: ReactNode;
  /** A keypad with the decimal separator (a weight), instead of digits only. */
  decimal?: boolean;
  maxLength?: number;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      <input
        id={props.id}
        inputMode={props.decimal ? 'decimal' : 'numeric'}
        maxLength={props.maxLength}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.id}
      />
    </Field>
  );
}

/** A one-line result of an action: saved, failed, sent... */
export function Notice(props: { kind: 'ok' | 'bad' | 'info'; testId?: string; children: ReactNode }) {
  return (
    <p
      className={`set-notice ${props.kind}`}
      role={props.kind === 'bad' ? 'alert' : 'status'}
      data-testid={props.testId}
    >
      {props.children}
    </p>
  );
}

/** A form's buttons, and the answer to its last submit beside them. */
export function FormActions(props: {
  result: { kind: 'ok' | 'bad' | 'info'; text: string } | null;
  resultTestId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // A failed save: the cursor goes to the form's first invalid field, in reading order.
  useEffect(() => {
    // The effect runs once the errors are on screen: the focus moves at once, not a frame later.
    if (props.result?.kind === 'bad')
      ref.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
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
