/**
 * A question with one key per reason (1–4; the last reason, `other`, asks for a few words that
 * Enter sends), Esc or a click beside it cancels. The reprint question and the problem shelf's hold
 * question are this dialog with their own reasons and words. A modal dialog, so the Station screen's
 * scan box gives the keyboard up while it is asked.
 *
 * The keys are read on the window in the capture phase: the scanner capture (scan/scanCapture.ts)
 * holds characters typed on a button before React sees them, so the dialog's own key handler would
 * never hear a digit.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import '../reprint/reprintReason.css';

/** Longer than the gap between a scanner's keys (tens of ms at most), shorter than a person notices. */
const SCANNER_KEY_GAP_MS = 120;

export interface ReasonDialogProps<R extends string> {
  /** The reasons in key order (1, 2, …); `other` asks for words. */
  reasons: readonly R[];
  /** Test ids and the title's id begin with it (`reprint-why`, `hold-why`). */
  id: string;
  className?: string;
  title: string;
  subject: ReactNode;
  subjectTestId?: string;
  /** Asked beside the reason, above it (the reprint question's choice of labels). */
  extra?: ReactNode;
  label(code: R): string;
  noteLabel: string;
  sendLabel: string;
  cancelLabel: string;
  noteMax: number;
  /** Asked straight for the words (a command barcode that named `other`). */
  startWithOther?: boolean;
  /** The worker's answer, once: a reason (with words for `other`), or null when cancelled. */
  onAnswer(why: { code: R; note?: string } | null): void;
}

export function ReasonDialog<R extends string>(p: ReasonDialogProps<R>) {
  const ref = useRef<HTMLDialogElement>(null);
  const noteBox = useRef<HTMLInputElement>(null);
  const [other, setOther] = useState(p.startWithOther === true);
  const [note, setNote] = useState('');
  const answered = useRef(false);
  const { onAnswer, reasons } = p;
  const answer = useCallback(
    (why: { code: R; note?: string } | null) => {
      if (answered.current) return;
      answered.current = true;
      onAnswer(why);
    },
    [onAnswer],
  );
  const cancel = useCallback(() => answer(null), [answer]);
  // The dialog itself has the focus, not its first button: an Enter pressed once too often picks nothing.
  const startWithOther = p.startWithOther === true;
  useModalDialog(ref, cancel, () => (startWithOther ? noteBox.current?.focus() : ref.current?.focus()));

  const pick = useCallback(
    (code: R) => {
      if (code === 'other') return setOther(true);
      answer({ code });
    },
    [answer],
  );

  useEffect(() => {
    if (other) noteBox.current?.focus();
  }, [other]);

  useEffect(() => {
    /**
     * A digit picks its reason only when no other key follows at once: a scanner typing a parcel's
     * code meanwhile ("1001…") sends its keys milliseconds apart, and its first digit must not answer
     * the question (the scan itself goes its own way, scan/scanCapture.ts).
     */
    let chosen: ReturnType<typeof setTimeout> | undefined;
    let chosenKey = '';
    const drop = () => {
      clearTimeout(chosen);
      chosenKey = '';
    };
    // The scan's Enter is taken by the scanner capture before this listener hears its keydown; its keyup still comes.
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key !== 'Shift' && e.key !== chosenKey) drop();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Shift') return;
      drop();
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopImmediatePropagation();
        return cancel();
      }
      if (other) return; // the note's own keys; Enter is the form's
      const i = reasons.map((_, n) => String(n + 1)).indexOf(e.key);
      if (i < 0 || e.ctrlKey || e.altKey || e.metaKey) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      chosenKey = e.key;
      chosen = setTimeout(() => pick(reasons[i]!), SCANNER_KEY_GAP_MS);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      drop();
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [other, pick, cancel, reasons]);

  const trimmed = note.trim();
  return (
    <dialog
      ref={ref}
      className={`reprint-why${p.className ? ` ${p.className}` : ''}`}
      data-testid={p.id}
      aria-labelledby={`${p.id}-title`}
      tabIndex={-1}
      onClick={(e) => {
        // A click beside the dialog (on its backdrop, whose clicks the dialog element gets) cancels, as Esc.
        const r = e.currentTarget.getBoundingClientRect();
        const beside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
        if (e.target === e.currentTarget && beside) cancel();
      }}
    >
      <h2 id={`${p.id}-title`}>{p.title}</h2>
      <p className="reprint-why-subject" data-testid={p.subjectTestId}>
        {p.subject}
      </p>
      {p.extra}
      <ol className="reprint-why-list">
        {reasons.map((code, i) => (
          <li key={code}>
            <button
              type="button"
              className={`key-button ${other && code === 'other' ? 'on' : ''}`}
              onClick={() => pick(code)}
              data-testid={`${p.id}-${code}`}
            >
              <kbd>{i + 1}</kbd> {p.label(code)}
            </button>
          </li>
        ))}
      </ol>
      {other && (
        <form
          className="reprint-why-note"
          onSubmit={(e) => {
            e.preventDefault();
            if (trimmed) answer({ code: 'other' as R, note: trimmed });
          }}
        >
          <label>
            <span>{p.noteLabel}</span>
            <input
              ref={noteBox}
              value={note}
              maxLength={p.noteMax}
              onChange={(e) => setNote(e.target.value)}
              data-testid={`${p.id}-note`}
              autoComplete="off"
            />
          </label>
          <button type="submit" disabled={!trimmed} data-testid={`${p.id}-send`}>
            <kbd>Enter</kbd> {p.sendLabel}
          </button>
        </form>
      )}
      <p className="reprint-why-hint">
        <kbd>Esc</kbd> {p.cancelLabel}
      </p>
    </dialog>
  );
}
