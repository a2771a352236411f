/**
 * The station screen's side panels: the day's counters, the scans still in the line, the recent
 * outcomes and the last labels. Every panel has a fixed size and a fixed number of rows, so a scan
 * never moves anything on the screen (no layout shift while scanning).
 */
import { reasonText } from '../../i18n/reasons';
import { useT } from '../../i18n';
import type { PendingScan, RecentScan } from '../../../../shared/contract/workflows';
import { useScans } from '../../state/scanStore';
import { toneOfKind, useUsable } from './OutcomeView';
import { waitingReason, waitsForLogin } from './waitingReason';

const PENDING_ROWS = 4;

/** A scan's state in the list, with why it waits as things are now (the hover text). */
function WaitingWords(p: {
  state: PendingScan['state'];
  reason: { code: string; message: string } | null | undefined;
}) {
  const t = useT();
  return (
    <span className="muted" title={p.reason ? reasonText(t, p.reason.code, p.reason.message) : undefined}>
      {t(`station.pending.${p.state}`)}
    </span>
  );
}

export function Counters() {
  const t = useT();
  const c = useScans((s) => s.counters);
  const cell = (id: 'scanned' | 'printed' | 'spooled' | 'queued' | 'failed') => (
    <div className={`counter counter-${id}`}>
      <span className="counter-value" data-testid={`counter-${id}`}>
        {c ? c[id] : '–'}
      </span>
      <span className="counter-label">{t(`station.counters.${id}`)}</span>
    </div>
  );
  return (
    <section className="panel counters" aria-label={t('station.counters.title')}>
      <h3>{t('station.counters.title')}</h3>
      <div className="counter-row">
        {cell('scanned')}
        {cell('printed')}
        {cell('spooled')}
        {cell('queued')}
        {cell('failed')}
      </div>
    </section>
  );
}

export function PendingScans() {
  const t = useT();
  const pending = useScans((s) => s.pending);
  const usable = useUsable();
  const shown = pending.slice(0, PENDING_ROWS);
  return (
    <section className="panel pending" aria-label={t('station.pending.title')}>
      <h3>
        {t('station.pending.title')} {pending.length > 0 && <span className="badge">{pending.length}</span>}
      </h3>
      <ol className="pending-list" data-testid="pending-scans">
        {shown.map((p) => (
          <li key={p.scanId} data-scan-id={p.scanId} className={`pending-${p.state}`}>
            <span className="code">{p.code}</span>
            {p.state === 'waiting' && waitsForLogin(p.reason?.code, usable) ? (
              <span className="muted" title={reasonText(t, 'login_required', p.reason?.message ?? '')}>
                {t('station.pending.waitingLogin')}
              </span>
            ) : (
              <WaitingWords
                state={p.state}
                reason={p.state === 'waiting' ? waitingReason(p.reason, usable) : p.reason}
              />
            )}
          </li>
        ))}
      </ol>
      <p className="muted panel-foot">
        {pending.length === 0
          ? t('station.pending.none')
          : pending.length > PENDING_ROWS
            ? t('station.pending.more', { n: pending.length - PENDING_ROWS })
            : '\u00a0'}
      </p>
    </section>
  );
}

/** Kinds that name a shipment the station closed or found closed: its carrier and recipient are shown. */
const namesShipment = new Set<RecentScan['kind']>([
  'printed',
  'spooled',
  'queued',
  'printer_down',
  'print_cancelled',
  'already_closed',
  'weight_check',
]);

export function RecentScans() {
  const t = useT();
  const recent = useScans((s) => s.recent);
  return (
    <section className="panel recent" aria-label={t('station.recent.title')}>
      <h3>{t('station.recent.title')}</h3>
      {recent.length === 0 ? (
        <p className="muted">{t('station.recent.none')}</p>
      ) : (
        <ol className="recent-list" data-testid="recent-scans">
          {recent.map((o) => (
            <li
              key={o.scanId}
              data-scan-id={o.scanId}
              data-kind={o.kind}
              className={`tone-${toneOfKind(o.kind, o.waits)}`}
            >
              <span className="dot" aria-hidden />
              <span className="code">{o.code}</span>
              <span className="what">
                {o.kind === 'printed' && o.reprint ? t('station.kind.reprinted') : t(`station.kind.${o.kind}`)}
              </span>
              <span className="who">
                {namesShipment.has(o.kind) && o.carrier !== null ? `${o.carrier} · ${o.recipientName ?? ''}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function LabelPreviews() {
  const t = useT();
  const previews = useScans((s) => s.previews);
  return (
    <section className="panel previews" aria-label={t('station.previews.title')}>
      <h3>{t('station.previews.title')}</h3>
      {previews.length === 0 ? (
        <p className="muted">{t('station.previews.none')}</p>
      ) : (
        <div className="preview-strip" data-testid="label-previews">
          {previews.map((p) => (
            <figure key={p.jobId} className="preview">
              <img
                src={'data:image/png;base64,' + p.page.png}
                alt={t('station.previews.alt', { jobId: p.jobId, carrier: p.carrier })}
              />
              <figcaption>
                {p.carrier} · #{p.jobId}
              </figcaption>
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}
