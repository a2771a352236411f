/**
 * The outcome of a station scan while the worker is on another screen: the outcome is shown
 * wherever the worker is. A strip at the foot of the window, in the tone of the station's
 * full-screen feedback; it hides itself after a while,
 * on a click or on the next screen change. The Station screen shows its own full-screen feedback.
 */
import { useEffect, useState } from 'react';
import { useT } from '../i18n';
import { outcomeTitle, refusalText, toneOf, useUsable } from '../screens/station/OutcomeView';
import { useNav } from '../state/navStore';
import { openQuestionOf, useScans } from '../state/scanStore';

const SHOWN_MS = 12_000;

export function ScanToast() {
  const t = useT();
  const screen = useNav((s) => s.screen);
  const feedback = useScans((s) => s.feedback);
  const seq = useScans((s) => s.feedbackSeq);
  const inLine = useScans((s) => s.pending.length);
  const usable = useUsable();
  // Only what happened since the worker left the station screen, and until it is hidden.
  const [hiddenUpTo, setHiddenUpTo] = useState(seq);
  useEffect(() => {
    if (screen === 'station') setHiddenUpTo(useScans.getState().feedbackSeq);
  }, [screen]);
  useEffect(() => {
    if (seq <= hiddenUpTo) return;
    const timer = setTimeout(() => setHiddenUpTo(seq), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [seq, hiddenUpTo]);

  if (screen === 'station' || !feedback || seq <= hiddenUpTo) return null;
  const tone = toneOf(feedback);
  const kind = feedback.type === 'outcome' ? feedback.outcome.kind : feedback.type;
  const title =
    feedback.type === 'outcome'
      ? outcomeTitle(t, feedback.outcome, usable)
      : feedback.type === 'working'
        ? t('station.kind.working')
        : feedback.type === 'shelved'
          ? t('shelf.kind.shelved')
          : t('station.kind.refused');
  const code =
    feedback.type === 'outcome'
      ? feedback.outcome.code
      : feedback.type === 'shelved'
        ? feedback.parcel.code
        : feedback.code;
  const who =
    feedback.type === 'outcome' && 'shipment' in feedback.outcome
      ? `${feedback.outcome.shipment.carrier} · ${feedback.outcome.shipment.recipientName}`
      : feedback.type === 'refused'
        ? refusalText(t, feedback.reason)
        : '';
  return (
    <div
      className={`scan-toast tone-${tone}`}
      role={tone === 'bad' ? 'alert' : 'status'}
      data-testid="scan-toast"
      data-kind={kind}
      onClick={() => setHiddenUpTo(seq)}
    >
      <b className="scan-toast-title">{title}</b>
      <span className="scan-toast-code" data-testid="scan-toast-code">
        {t('station.code', { code })}
      </span>
      {who && <span className="scan-toast-who">{who}</span>}
      {inLine > 0 && <span className="scan-toast-line">{t('station.inLine', { n: inLine })}</span>}
      {openQuestionOf(feedback) && (
        <span>
          {t(openQuestionOf(feedback)?.kind === 'weight_check' ? 'scanToast.toStationWeight' : 'scanToast.toStation')}
        </span>
      )}
    </div>
  );
}
