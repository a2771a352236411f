/**
 * The reprint question on screen: one key per reason (1–4), `other` asks for a few words (Enter
 * sends them), Esc or a click beside it cancels the reprint. A modal dialog, so the Station screen's scan box gives the
 * keyboard up while it is asked.
 *
 * The keys are read on the window in the capture phase: the scanner capture
 * (scan/scanCapture.ts) holds characters typed on a button before React sees them, so the dialog's
 * own key handler would never hear a digit.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { REPRINT_NOTE_MAX, type ReprintWhy } from '../../../shared/contract/reprint';
import { reprintReasons, type ReprintReason } from '../../../shared/contract/operators';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../i18n';
import { useReprintQuestion } from './reprintReason';
import './reprintReason.css';

/** Longer than the gap between a scanner's keys (tens of ms at most), shorter than a person notices. */
const SCANNER_KEY_GAP_MS = 120;

export function ReprintReasonHost() {
  const asking = useReprintQuestion((s) => s.asking);
  return asking ? <ReprintReasonDialog key={asking.id} /> : null;
}

function ReprintReasonDialog() {
  const t = useT();
  const asking = useReprintQuestion((s) => s.asking)!;
  const ref = useRef<HTMLDialogElement>(null);
  const noteBox = useRef<HTMLInputElement>(null);
  const [other, setOther] = useState(false);
  const [note, setNote] = useState('');
  const answered = useRef(false);
  const answer = useCallback(
    (why: ReprintWhy | null) => {
      if (answered.current) return;
      answered.current = true;
      asking.answer(why);
    },
    [asking],
  );
  const cancel = useCallback(() => answer(null), [answer]);
  // The dialog itself has the focus, not its first button: an Enter pressed once too often picks nothing.
  useModalDialog(ref, cancel, () => ref.current?.focus());

  const pick = useCallback(
    (code: ReprintReason) => {
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
      const i = ['1', '2', '3', '4'].indexOf(e.key);
      if (i < 0 || e.ctrlKey || e.altKey || e.metaKey) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      chosenKey = e.key;
      chosen = setTimeout(() => pick(reprintReasons[i]!), SCANNER_KEY_GAP_MS);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      drop();
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [other, pick, cancel]);

  const trimmed = note.trim();
  return (
    <dialog
      ref={ref}
      className="reprint-why"
      data-testid="reprint-why"
      aria-labelledby="reprint-why-title"
      tabIndex={-1}
      onClick={(e) => {
        // A click beside the dialog (on its backdrop, whose clicks the dialog element gets) cancels, as Esc.
        const r = e.currentTarget.getBoundingClientRect();
        const beside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
        if (e.target === e.currentTarget && beside) cancel();
      }}
    >
      <h2 id="reprint-why-title">{t('reprint.why.title')}</h2>
      <p className="reprint-why-subject" data-testid="reprint-why-subject">
        {asking.subject}
      </p>
      <ol className="reprint-why-list">
        {reprintReasons.map((code, i) => (
          <li key={code}>
            <button
              type="button"
              className={`key-button ${other && code === 'other' ? 'on' : ''}`}
              onClick={() => pick(code)}
              data-testid={`reprint-why-${code}`}
            >
              <kbd>{i + 1}</kbd> {t(`reprint.why.${code}`)}
            </button>
          </li>
        ))}
      </ol>
      {other && (
        <form
          className="reprint-why-note"
          onSubmit={(e) => {
            e.preventDefault();
            if (trimmed) answer({ code: 'other', note: trimmed });
          }}
        >
          <label>
            <span>{t('reprint.why.noteLabel')}</span>
            <input
              ref={noteBox}
              value={note}
              maxLength={REPRINT_NOTE_MAX}
              onChange={(e) => setNote(e.target.value)}
              data-testid="reprint-why-note"
              autoComplete="off"
            />
          </label>
          <button type="submit" disabled={!trimmed} data-testid="reprint-why-send">
            <kbd>Enter</kbd> {t('reprint.why.send')}
          </button>
        </form>
      )}
      <p className="reprint-why-hint">
        <kbd>Esc</kbd> {t('reprint.why.cancel')}
      </p>
    </dialog>
  );
}
