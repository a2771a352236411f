/**
 * Tracking: the service's traces of the shipments chosen on the Shipments screen
 * or scanned/typed here (any code the scanner lookup knows), asked again on demand.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ShipmentTraces } from '../../../../shared/contract/shipmentActions';
import { errorTextNow, useLanguage, useT } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { useNav } from '../../state/navStore';
import { useScanRoute } from '../../scan/scanCapture';
import { shownCode } from '../../scan/shownCode';
import { errorText } from '../../i18n/errors';
import { formatDateTime, stateClass, stateName } from '../shipments/format';
import './tracking.css';

export function TrackingScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const focus = useNav((s) => s.focus);
  const [ids, setIds] = useState<number[]>(() => focus?.deliveryIds ?? []);
  const [traces, setTraces] = useState<ShipmentTraces[]>([]);
  const [loading, setLoading] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [refreshedAt, setRefreshedAt] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focus?.deliveryIds?.length) setIds(focus.deliveryIds);
  }, [focus]);
  useEffect(() => input.current?.focus(), []);

  const refresh = useCallback(async (list: number[]) => {
    if (list.length === 0) {
      setTraces([]);
      return;
    }
    setLoading(true);
    const r = await rpc.request('tracking.traces', { deliveryIds: list });
    setLoading(false);
    if (r.ok) {
      setTraces(r.value);
      setMessage(null);
      setRefreshedAt(new Date().toISOString());
    } else setMessage(errorTextNow(r.error));
  }, []);

  // Asked again when the list or the language changes (the service writes traces in the station's language).
  useEffect(() => void refresh(ids), [ids, refresh, language]);

  async function add(typed = code) {
    const c = typed.trim();
    if (!c) return;
    const r = await rpc.request('shipments.lookup', { code: c.slice(0, 500) });
    // Whatever the answer, the field is emptied: the message names the code, and the next scan
    // must be looked up on its own, not appended to this one ("NOPE-1ORD-1002").
    setCode('');
    if (!r.ok) return setMessage(t('tracking.lookupFailed', { code: shownCode(c), message: errorText(t, r.error) }));
    const v = r.value;
    if (v.kind === 'found') {
      setMessage(null);
      setIds((old) => (old.includes(v.shipment.deliveryId) ? [...old] : [v.shipment.deliveryId, ...old]));
    } else if (v.kind === 'ambiguous') {
      setMessage(null);
      setIds((old) => [...new Set([...v.candidates.map((x) => x.shipment.deliveryId), ...old])]);
    } else setMessage(v.kind === 'invalid' ? v.message : t('tracking.notFound', { code: shownCode(c) }));
  }

  // A scan anywhere on this screen looks its shipment up.
  useScanRoute((c) => void add(c));

  return (
    <section className="tracking" aria-label={t('tracking.title')} data-testid="screen-tracking">
      <div className="tr-top">
        <h1>{t('tracking.title')}</h1>
        <form
          className="tr-add"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label>
            <span className="visually-hidden">{t('tracking.input')}</span>
            <input
              ref={input}
              value={code}
              maxLength={500}
              placeholder={t('tracking.input')}
              onChange={(e) => setCode(e.target.value)}
              data-testid="tracking-input"
              data-scan-line
            />
          </label>
          <button type="submit">{t('tracking.add')}</button>
        </form>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={ids.length === 0 || loading}
          onClick={() => void refresh(ids)}
          data-testid="tracking-refresh"
        >
          {t('tracking.refresh')}
        </button>
        <button type="button" disabled={ids.length === 0} onClick={() => setIds([])}>
          {t('tracking.clear')}
        </button>
      </div>
      <p className="tr-status" role="status">
        {loading
          ? t('tracking.loading')
          : refreshedAt && ids.length
            ? t('tracking.refreshedAt', { time: formatDateTime(refreshedAt, language) })
            : ''}
      </p>
      {message && (
        <p className="bad" role="alert" data-testid="tracking-message">
          {message}
        </p>
      )}
      {ids.length === 0 && <p className="tr-empty">{t('tracking.empty')}</p>}
      <div className="tr-list">
        {traces
          .filter((s) => ids.includes(s.deliveryId))
          .map((s) => (
            <article
              key={s.deliveryId}
              className="tr-card"
              data-testid="tracking-shipment"
              data-delivery-id={s.deliveryId}
            >
              <header>
                <h2>{t('tracking.shipment', { id: s.deliveryId })}</h2>
                {s.agent && <span className="tr-carrier">{s.agent}</span>}
                {s.deliveryNumber && <code>{s.deliveryNumber}</code>}
                <span className={`st ${stateClass(s.state)}`} data-testid="tracking-state">
                  {stateName(t, s.state)}
                </span>
                <span className="spacer" />
                <span className="tr-checked">
                  {s.lastChecked
                    ? t('tracking.lastChecked', { time: formatDateTime(s.lastChecked, language) })
                    : t('tracking.neverChecked')}
                </span>
                <button type="button" onClick={() => setIds((old) => old.filter((x) => x !== s.deliveryId))}>
                  {t('tracking.remove')}
                </button>
              </header>
              {s.error ? (
                <p className="bad" data-testid="tracking-error" data-code={s.error.code}>
                  {errorText(t, s.error)}
                  {s.error.messages.map((m, i) => (
                    <span key={i} className="tr-msg">
                      {m}
                    </span>
                  ))}
                </p>
              ) : s.traces.length === 0 ? (
                <p className="tr-none">{t('tracking.noTraces')}</p>
              ) : (
                <table className="tr-table">
                  <thead>
                    <tr>
                      <th>{t('tracking.col.date')}</th>
                      <th>{t('tracking.col.text')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...s.traces].reverse().map((tr, i) => (
                      <tr key={i} className={i === 0 ? 'latest' : ''} data-testid="trace">
                        <td>{formatDateTime(tr.date, language)}</td>
                        <td>{tr.text}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </article>
          ))}
      </div>
    </section>
  );
}
