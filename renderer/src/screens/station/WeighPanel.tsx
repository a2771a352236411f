/**
 * The Station screen's weighing: while a scan waits for the scale, a full-width panel
 * names the package to put on it, the shipment's weight, the live reading and a countdown; the
 * worker's key (F10) skips weighing. The weight a parcel was closed with shows under the outcome.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { ScaleReading, ScaleSettings, Weighing } from '../../../../shared/contract/scale';
import type { ClosedShipmentInfo } from '../../../../shared/contract/workflows';
import { formatQuantity } from '../../format/decimal';
import { useLanguage, useT } from '../../i18n';
import { en, type MessageKey } from '../../i18n/en';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';
import { useScans } from '../../state/scanStore';
import './desk.css';

const SKIP_WEIGH_KEY = 'F10';

type DisplayUnit = ScaleSettings['displayUnit'];

export const useScale = create<{
  reading: ScaleReading | null;
  weighing: Weighing;
  unit: DisplayUnit;
  load(): Promise<void>;
}>((set) => ({
  reading: null,
  weighing: null,
  unit: 'kg',
  async load() {
    const [reading, weighing, settings] = await Promise.all([
      rpc.call('scale.reading', {}),
      rpc.call('scale.weighing', {}),
      rpc.call('scale.getSettings', {}),
    ]);
    set({ reading, weighing, unit: settings.displayUnit });
  },
}));
rpc.on('scale.reading', (reading) => useScale.setState({ reading }));
rpc.on('scale.weighing', (weighing) => useScale.setState({ weighing }));

/** Kilograms per display unit, as scaled integers (1 lb = 0.45359237 kg exactly; 1 oz = 1/16 lb). */
const PER: Record<DisplayUnit, { n: bigint; places: number }> = {
  kg: { n: 1n, places: 0 },
  g: { n: 1n, places: 3 },
  lb: { n: 45359237n, places: 8 },
  oz: { n: 28349523125n, places: 12 },
};

/** kg -> the display unit, rounded to 3 decimals (exact integer arithmetic). */
function kgIn(kg: string, unit: DisplayUnit): string {
  if (unit === 'kg') return kg;
  const [i = '0', f = ''] = kg.replace('-', '').split('.');
  const n = BigInt(i + f);
  const per = PER[unit];
  // value = n / 10^f.length / (per.n / 10^per.places), to 3 decimals
  const num = n * 10n ** BigInt(per.places + 3) * 2n;
  const den = per.n * 10n ** BigInt(f.length);
  const q = (num / den + 1n) / 2n;
  const s = q.toString().padStart(4, '0');
  return `${kg.startsWith('-') ? '-' : ''}${s.slice(0, -3)}.${s.slice(-3)}`.replace(/\.?0+$/, '') || '0';
}

export function useWeightText(): (kg: string) => string {
  const lang = useLanguage((s) => s.language);
  const unit = useScale((s) => s.unit);
  return (kg) => `${formatQuantity(kgIn(kg, unit), lang)} ${unit}`;
}

/** Why the scale gives no weight, in the UI language; the core's English sentence only for a code the catalogue does not know. */
function readingWhy(t: ReturnType<typeof useT>, r: Extract<ScaleReading, { state: 'fault' | 'disconnected' }>): string {
  const key = r.code ? `scale.${r.state === 'fault' ? 'fault' : 'disconnected'}.${r.code}` : null;
  return key && Object.hasOwn(en, key) ? t(key as MessageKey) : r.message;
}

/** The live reading in words. */
export function ReadingText({ reading }: { reading: ScaleReading | null }) {
  const t = useT();
  const lang = useLanguage((s) => s.language);
  if (!reading) return null;
  const own = (v: string | null, u: string | null) => (v && u ? `${formatQuantity(v, lang)} ${u}` : '—');
  switch (reading.state) {
    case 'stable':
      return (
        <span className="scale-reading stable" data-testid="scale-reading" data-state="stable">
          {t('scale.state.stable', { weight: own(reading.value, reading.unit) })}
        </span>
      );
    case 'motion':
      return (
        <span className="scale-reading motion" data-testid="scale-reading" data-state="motion">
          {t('scale.state.motion', { weight: own(reading.value, reading.unit) })}
        </span>
      );
    case 'overload':
    case 'underload':
      return (
        <span className="scale-reading bad" data-testid="scale-reading" data-state={reading.state}>
          {t(`scale.state.${reading.state}`)}
        </span>
      );
    case 'fault':
    case 'disconnected':
      return (
        <span className="scale-reading bad" data-testid="scale-reading" data-state={reading.state}>
          {t(`scale.state.${reading.state}`, { message: readingWhy(t, reading) })}
        </span>
      );
  }
}

function secondsLeft(deadline: string): number {
  return Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
}

export function WeighPanel() {
  const t = useT();
  const { reading, weighing, load } = useScale();
  // In batch mode the parcel is collected, not closed, when the wait ends.
  const batchMode = useScans((s) => s.batchMode);
  const weight = useWeightText();
  const [, tick] = useState(0);
  useEffect(() => void load().catch(() => undefined), [load]);
  useReconnected(() => load().catch(() => undefined));
  useEffect(() => {
    if (!weighing) return;
    const i = setInterval(() => tick((n) => n + 1), 250);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== SKIP_WEIGH_KEY) return;
      e.preventDefault();
      void rpc.call('scale.skipWeighing', {});
    };
    window.addEventListener('keydown', onKey);
    return () => {
      clearInterval(i);
      window.removeEventListener('keydown', onKey);
    };
  }, [weighing]);
  if (!weighing) return null;
  return (
    <div className="weigh-panel" role="status" data-testid="weigh-panel">
      <h2>{t('weigh.title', { n: weighing.packageNumber, count: weighing.packageCount })}</h2>
      {weighing.expectedKg && (
        <p className="weigh-expected">{t('weigh.expected', { weight: weight(weighing.expectedKg) })}</p>
      )}
      <p className="weigh-live">
        <ReadingText reading={reading} />
      </p>
      <p className="weigh-countdown" data-testid="weigh-countdown">
        {t(batchMode ? 'weigh.countdownBatch' : 'weigh.countdown', { s: secondsLeft(weighing.deadline) })}
        <button
          type="button"
          className="key-button"
          onClick={() => void rpc.call('scale.skipWeighing', {})}
          data-testid="weigh-skip"
        >
          <kbd>{SKIP_WEIGH_KEY}</kbd> {t('weigh.skip')}
        </button>
      </p>
    </div>
  );
}

/** Under the outcome: the weight the parcel was closed with. */
export function WeighedLine({ weighed: w }: { weighed: NonNullable<ClosedShipmentInfo['weighed']> }) {
  const t = useT();
  const weight = useWeightText();
  const weights = w.packages.map(weight).join(' + ');
  const key = w.updated ? 'weigh.usedUpdated' : w.source === 'shipment' ? 'weigh.fromShipment' : 'weigh.used';
  return (
    <p className="weighed-line" data-testid="outcome-weight">
      {t(key, { weights })}
    </p>
  );
}
