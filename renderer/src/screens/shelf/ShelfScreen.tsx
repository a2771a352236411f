/**
 * The problem shelf (Shift+F1): the parcels held instead of closed, oldest first, with who held them,
 * where, when and why. A parcel leaves the list when it is scanned again and closed, or when a
 * supervisor (an operator marked as one in Settings → Operators, signed in) releases it here.
 * Nothing is kept on the page: the list is the core's, read again whenever the shelf changes.
 */
import { useEffect, useState } from 'react';
import type { HeldParcel } from '../../../../shared/contract/shelf';
import { errorTextNow, useLanguage, useT, type T } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { loadShelf, useHold } from '../../shelf/holdStore';
import { useOperators } from '../../state/operatorsStore';
import { formatDateTime } from '../shipments/format';
import './shelf.css';

export const holdReasonText = (t: T, p: Pick<HeldParcel, 'reason' | 'note'>): string =>
  p.reason === 'other' && p.note ? p.note : t(`shelf.reason.${p.reason}`);

export function ShelfScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const parcels = useHold((s) => s.parcels);
  const supervisor = useOperators((s) => {
    const id = s.who?.operator?.id;
    return id !== undefined && s.operators.some((o) => o.id === id && o.supervisor);
  });
  const [note, setNote] = useState<{ bad: boolean; text: string } | null>(null);

  useEffect(() => {
    void loadShelf();
    // Elsewhere only the count is followed: the list is not kept while the screen is closed.
    return () => useHold.setState({ parcels: null });
  }, []);

  const release = async (p: HeldParcel) => {
    const r = await rpc.request('shelf.release', { holdId: p.holdId });
    if (!r.ok) return setNote({ bad: true, text: errorTextNow(r.error) });
    useHold.setState({ parcels: r.value.parcels, count: r.value.parcels.length });
    setNote({ bad: false, text: t('shelf.released', { code: p.code }) });
  };

  const list = parcels ?? [];
  return (
    <section className="shelf" aria-label={t('shelf.title')} data-testid="screen-shelf">
      <div className="shelf-top">
        <h1>{t('shelf.title')}</h1>
        <span className="shelf-count" data-testid="shelf-total">
          {t('shelf.count', { n: list.length })}
        </span>
      </div>
      <p className="shelf-intro">{t('shelf.intro')}</p>
      {!supervisor && list.length > 0 && <p className="muted">{t('shelf.release.supervisorOnly')}</p>}
      {note && (
        <p className={note.bad ? 'bad' : 'ok'} role={note.bad ? 'alert' : 'status'} data-testid="shelf-note">
          {note.text}
        </p>
      )}
      {parcels !== null && list.length === 0 ? (
        <p className="shelf-empty" data-testid="shelf-empty">
          {t('shelf.empty')}
        </p>
      ) : (
        <div className="shelf-table-wrap">
          <table className="shelf-table">
            <thead>
              <tr>
                <th>{t('shelf.col.code')}</th>
                <th>{t('shelf.col.recipient')}</th>
                <th>{t('shelf.col.reason')}</th>
                <th>{t('shelf.col.heldBy')}</th>
                <th>{t('shelf.col.heldAt')}</th>
                <th>{t('shelf.col.desk')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.holdId} data-testid="shelf-row" data-hold-id={p.holdId} data-code={p.code}>
                  <td className="code">{p.code}</td>
                  <td>
                    {p.recipientName ?? '—'}
                    {p.carrier && <span className="muted"> · {p.carrier}</span>}
                  </td>
                  <td data-testid="shelf-reason">
                    <strong className={`shelf-reason reason-${p.reason}`}>
                      {p.reason === 'other' ? t('shelf.reason.otherShort') : t(`shelf.reason.${p.reason}`)}
                    </strong>
                    {p.reason === 'other' && p.note && <span className="shelf-note"> — {p.note}</span>}
                  </td>
                  <td data-testid="shelf-held-by">{p.heldBy?.name ?? t('shelf.nobody')}</td>
                  <td>{formatDateTime(p.heldAt, language)}</td>
                  <td>{p.desk}</td>
                  <td className="shelf-actions">
                    <button
                      type="button"
                      disabled={!supervisor}
                      title={supervisor ? undefined : t('shelf.release.supervisorOnly')}
                      onClick={() => void release(p)}
                      data-testid="shelf-release"
                    >
                      {t('shelf.release')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
