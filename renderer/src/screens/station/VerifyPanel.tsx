/**
 * Verify after printing: once a label is printed with the check on, the Station screen
 * asks for the label to be scanned; the answer fills the panel green, or red with the error sound
 * when the label belongs to another parcel (both shipments named). A scan that is no label (the
 * next parcel) goes to the scan line as usual, and the unchecked label waits on the End of day list.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { LabelExpected, UnverifiedLabel, VerifyResult } from '../../../../shared/contract/scale';
import { useLanguage, useT } from '../../i18n';
import { formatDateTime } from '../shipments/format';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';
import { useSettings } from '../../state/settingsStore';
import { playCue } from './sounds';

const useVerify = create<{ expecting: LabelExpected; result: VerifyResult | null; load(): Promise<void> }>((set) => ({
  expecting: null,
  result: null,
  async load() {
    set({ expecting: await rpc.call('verify.expecting', {}) });
  },
}));
rpc.on('verify.expecting', (expecting) => useVerify.setState({ expecting }));

/**
 * The scan box's first stop: while a label is expected, the code is checked; true when taken.
 * A code that is no label goes on to `next` (the scan line).
 */
export function takeForCheck(code: string, next: (code: string) => void): boolean {
  if (!useVerify.getState().expecting) {
    // No label is expected (the check was turned off, or every label was checked): this scan is the
    // next parcel's, and the last check's answer, red included, is about a parcel already gone.
    dismissCheckResult();
    return false;
  }
  void rpc
    .call('verify.check', { code })
    .then((result) => {
      if (result.kind === 'not_a_label') {
        useVerify.setState({ result: null });
        return next(code);
      }
      useVerify.setState({ result });
      // Green is a glance; red stays until the right label (or the next parcel) is scanned.
      if (result.kind === 'match')
        setTimeout(() => useVerify.getState().result === result && useVerify.setState({ result: null }), 4000);
      const s = useSettings.getState().settings;
      if (s?.sounds) playCue(result.kind === 'match' ? 'success' : 'error', s.volume);
    })
    .catch(() => next(code));
  return true;
}

/** Esc on the Station screen, or a scan that is no check: the last check's answer goes. True when one was shown. */
export function dismissCheckResult(): boolean {
  if (!useVerify.getState().result) return false;
  useVerify.setState({ result: null });
  return true;
}

export function VerifyPanel() {
  const t = useT();
  const { expecting, result, load } = useVerify();
  useEffect(() => void load().catch(() => undefined), [load]);
  useReconnected(() => load().catch(() => undefined));
  if (result?.kind === 'mismatch') {
    const params = {
      code: result.code,
      expected: result.expectedDeliveryId,
      barcodes: result.expectedBarcodes.join(', '),
    };
    return (
      <div className="verify-panel bad" role="alert" data-testid="verify-result" data-result="mismatch">
        <strong>
          {result.labelDeliveryId !== null
            ? t('verify.mismatch', { ...params, label: result.labelDeliveryId })
            : t('verify.mismatchUnknown', params)}
        </strong>
      </div>
    );
  }
  if (result?.kind === 'match' && result.left.length) {
    return (
      <div className="verify-panel ok" role="status" data-testid="verify-result" data-result="match">
        <strong>
          {t('verify.matchLeft', { code: result.code, id: result.deliveryId, left: result.left.join(', ') })}
        </strong>
      </div>
    );
  }
  if (expecting) {
    return (
      <div className="verify-panel ask" role="status" data-testid="verify-expect">
        <strong>{t('verify.expect')}</strong>
        <span>{t('verify.expectShipment', { id: expecting.deliveryId, barcodes: expecting.barcodes.join(', ') })}</span>
      </div>
    );
  }
  if (result?.kind === 'match') {
    return (
      <div className="verify-panel ok" role="status" data-testid="verify-result" data-result="match">
        <strong>{t('verify.match', { code: result.code, id: result.deliveryId })}</strong>
      </div>
    );
  }
  return null;
}

/** End of day: labels printed with the check on that nobody checked. */
export function UnverifiedLabels() {
  const t = useT();
  // In the UI language's form, not the browser's ("11/26/2026, 8:45:18 AM" on a Czech screen).
  const language = useLanguage((s) => s.language);
  const [list, setList] = useUnverified();
  useEffect(() => {
    void rpc.call('verify.unverified', {}).then(setList, () => undefined);
  }, [setList]);
  // Nothing unchecked (or the check is off): nothing to say.
  if (!list?.length) return null;
  return (
    <section className="unverified-labels" data-testid="unverified-labels">
      <h3>{t('verify.unverified.title')}</h3>
      <ul>
        {list.map((l) => (
          <li key={`${l.deliveryId}-${l.printedAt}`}>
            {t('verify.unverified.row', {
              id: l.deliveryId,
              barcodes: l.barcodes.join(', '),
              at: formatDateTime(l.printedAt, language),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

const useUnverifiedStore = create<{ list: UnverifiedLabel[] | null; set(l: UnverifiedLabel[]): void }>((set) => ({
  list: null,
  set: (list) => set({ list }),
}));
function useUnverified(): [UnverifiedLabel[] | null, (l: UnverifiedLabel[]) => void] {
  return [useUnverifiedStore((s) => s.list), useUnverifiedStore((s) => s.set)];
}
