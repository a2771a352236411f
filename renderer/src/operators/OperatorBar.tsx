/**
 * The top bar's operator: who is signed in at this desk (or that nobody is), on every screen, with
 * Sign out, or Sign in (the PIN dialog; a badge scanned anywhere signs in without it). The answer
 * to the last sign-in or sign-out at this page shows beside it for a while.
 */
import { useCallback, useEffect, useState } from 'react';
import { useT } from '../i18n';
import { useOperators } from '../state/operatorsStore';
import { PinDialog } from './PinDialog';
import './operators.css';

const NOTICE_MS = 8000;

export function OperatorBar() {
  const t = useT();
  const who = useOperators((s) => s.who);
  const notice = useOperators((s) => s.notice);
  const [pinOpen, setPinOpen] = useState(false);
  // One function for the dialog's life: a new one would close and open the dialog again at every render.
  const closePin = useCallback(() => setPinOpen(false), []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => useOperators.getState().clearNotice(), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  // Someone signed in (a badge while the dialog was open, another page): the dialog has nothing left to do.
  const signedIn = who?.operator?.id;
  useEffect(() => {
    if (signedIn) setPinOpen(false);
  }, [signedIn]);
  if (!who) return null;
  const op = who.operator;
  return (
    <span className="op-bar" role="group" aria-label={t('operators.bar.label')}>
      {notice && (
        <span
          className={`op-notice ${notice.kind}`}
          role={notice.kind === 'bad' ? 'alert' : 'status'}
          data-testid="operator-notice"
          data-kind={notice.kind}
        >
          {notice.text}
        </span>
      )}
      <span
        className={`pill op-pill ${op ? 'ok' : 'none'}`}
        title={t('operators.bar.desk', { desk: who.desk })}
        data-testid="operator-pill"
        data-operator-id={op?.id ?? ''}
      >
        {op ? op.name : t('operators.bar.nobody')}
      </span>
      {op ? (
        <button
          type="button"
          className="op-button"
          onClick={() => void useOperators.getState().signOut()}
          data-testid="operator-sign-out"
        >
          {t('operators.bar.signOut')}
        </button>
      ) : (
        <button type="button" className="op-button" onClick={() => setPinOpen(true)} data-testid="operator-sign-in">
          {t('operators.bar.signIn')}
        </button>
      )}
      {pinOpen && <PinDialog onClose={closePin} />}
    </span>
  );
}
