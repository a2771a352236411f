/**
 * The hold question on screen: one key per reason (1–4), `other` asks for a few words (Enter sends
 * them), Esc or a click beside it cancels (the next scan closes as usual). Built as the reprint
 * question (reprint/ReprintReasonDialog.tsx), whose keys it shares: a digit picks its reason only
 * when no scanner key follows at once, read on the window in the capture phase.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { HOLD_NOTE_MAX, holdReasons, type HoldReason, type HoldWhy } from '../../../shared/contract/shelf';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../i18n';
import { useHold } from './holdStore';
import '../reprint/reprintReason.css';

/** Longer than the gap between a scanner's keys (tens of ms at most), shorter than a person notices. */
const SCANNER_KEY_GAP_MS = 120;

export function HoldReasonHost() {
  const asking = useHold((s) => s.asking);
  return asking ? <HoldReasonDialog key={asking.id} /> : null;
}

function HoldReasonDialog() {
  const t = useT();
  const asking = useHold((s) => s.asking)!;
  const ref = useRef<HTMLDialogElement>(null);
  const noteBox = useRef<HTMLInputElement>(null);
  const [other, setOther] = useState(asking.other);
  const [note, setNote] = useState('');
  const answered = useRef(false);
  const answer = useCallback(
    (why: HoldWhy | null) => {
      if (answered.current) return;
      answered.current = true;
      asking.answer(why);
    },
    [asking],
  );
  const cancel = useCallback(() => answer(null), [answer]);
  useModalDialog(ref, cancel, () => (asking.other ? noteBox.current?.focus() : ref.current?.focus()));

  const pick = useCallback(
    (code: HoldReason) => {
      if (code === 'other') return setOther(true);
      answer({ code });
    },
    [answer],
  );

  useEffect(() => {
    if (other) noteBox.current?.focus();
  }, [other]);

  useEffect(() => {
    let chosen: ReturnType<typeof setTimeout> | undefined;
    let chosenKey = '';
    const drop = () => {
      clearTimeout(chosen);
      chosenKey = '';
    };
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
      chosen = setTimeout(() => pick(holdReasons[i]!), SCANNER_KEY_GAP_MS);
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
      className="reprint-why hold-why"
      data-testid="hold-why"
      aria-labelledby="hold-why-title"
      tabIndex={-1}
      onClick={(e) => {
        const r = e.currentTarget.getBoundingClientRect();
        const beside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
        if (e.target === e.currentTarget && beside) cancel();
      }}
    >
      <h2 id="hold-why-title">{t('shelf.why.title')}</h2>
      <p className="reprint-why-subject">{t('shelf.why.subject')}</p>
      <ol className="reprint-why-list">
        {holdReasons.map((code, i) => (
          <li key={code}>
            <button
              type="button"
              className={`key-button ${other && code === 'other' ? 'on' : ''}`}
              onClick={() => pick(code)}
              data-testid={`hold-why-${code}`}
            >
              <kbd>{i + 1}</kbd> {t(`shelf.reason.${code}`)}
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
            <span>{t('shelf.why.noteLabel')}</span>
            <input
              ref={noteBox}
              value={note}
              maxLength={HOLD_NOTE_MAX}
              onChange={(e) => setNote(e.target.value)}
              data-testid="hold-why-note"
              autoComplete="off"
            />
          </label>
          <button type="submit" disabled={!trimmed} data-testid="hold-why-send">
            <kbd>Enter</kbd> {t('shelf.why.send')}
          </button>
        </form>
      )}
      <p className="reprint-why-hint">
        <kbd>Esc</kbd> {t('shelf.why.cancel')}
      </p>
    </dialog>
  );
}
