/**
 * The reprint question on screen (reasons/ReasonDialog.tsx): 1 damaged, 2 lost, 3 wrong printer,
 * 4 other with a few words; Esc or a click beside it cancels the reprint. For a parcel of several
 * packages, which labels: all (first) or one package's alone, picked by a click or ← →.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { REPRINT_NOTE_MAX, type ReprintWhy } from '../../../shared/contract/reprint';
import { reprintReasons } from '../../../shared/contract/operators';
import { useT } from '../i18n';
import { ReasonDialog } from '../reasons/ReasonDialog';
import { useReprintQuestion } from './reprintReason';

/** Which labels: 0 every label, else one package's (1-based). */
function PackageChoice(p: { packages: number; chosen: number; onChoose(n: number): void }) {
  const t = useT();
  const { packages, chosen, onChoose } = p;
  useEffect(() => {
    // ← → step through the choices; the note's own box keeps its arrows.
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      e.stopImmediatePropagation(); // the list behind the dialog keeps its place
      onChoose((chosen + step + packages + 1) % (packages + 1));
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [packages, chosen, onChoose]);
  const choice = (n: number, text: string, testId: string) => (
    <button
      key={n}
      type="button"
      role="radio"
      aria-checked={chosen === n}
      className={`key-button ${chosen === n ? 'on' : ''}`}
      onClick={() => onChoose(n)}
      data-testid={testId}
    >
      {text}
    </button>
  );
  return (
    <div className="reprint-why-packages" role="radiogroup" aria-label={t('reprint.why.labels')}>
      <span>
        {t('reprint.why.labels')} <kbd>←</kbd>
        <kbd>→</kbd>
      </span>
      <div>
        {choice(0, t('reprint.why.allLabels', { n: packages }), 'reprint-why-package-all')}
        {Array.from({ length: packages }, (_, i) =>
          choice(i + 1, t('reprint.why.package', { n: i + 1, of: packages }), `reprint-why-package-${i + 1}`),
        )}
      </div>
    </div>
  );
}

export function ReprintReasonHost() {
  const t = useT();
  const asking = useReprintQuestion((s) => s.asking);
  const [chosen, setChosen] = useState(0);
  // The answer reads the choice from a ref: a new onAnswer at each choice would make the dialog
  // (useModalDialog) close and open again, and its closing is a cancel.
  const chosenNow = useRef(0);
  const choose = useCallback((n: number) => {
    chosenNow.current = n;
    setChosen(n);
  }, []);
  useEffect(() => choose(0), [asking, choose]);
  const several = (asking?.packages ?? 1) > 1;
  const onAnswer = useCallback(
    (why: ReprintWhy | null) =>
      asking?.answer(why && { why, ...(several && chosenNow.current > 0 ? { packageNumber: chosenNow.current } : {}) }),
    [asking, several],
  );
  if (!asking) return null;
  return (
    <ReasonDialog
      key={asking.id}
      reasons={reprintReasons}
      id="reprint-why"
      title={t('reprint.why.title')}
      subject={asking.subject}
      subjectTestId="reprint-why-subject"
      extra={several ? <PackageChoice packages={asking.packages} chosen={chosen} onChoose={choose} /> : null}
      label={(code) => t(`reprint.why.${code}`)}
      noteLabel={t('reprint.why.noteLabel')}
      sendLabel={t('reprint.why.send')}
      cancelLabel={t('reprint.why.cancel')}
      noteMax={REPRINT_NOTE_MAX}
      onAnswer={onAnswer}
    />
  );
}
