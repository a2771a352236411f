/**
 * End of day: for each carrier + collection place with closed, unsent shipments,
 * create and print the collection protocol (spec "POST /api/v2/collection-protocols"; refusals
 * are the service's 422 messages, shown as they came); the pick-up orders closing returned (spec
 * "PATCH": `collectionOrders`); the protocols made here, with preview and reprint.
 */
import { useCallback, useState } from 'react';
import type { FromAddressGroup, ProtocolCandidate } from '../../../../shared/contract/workflows';
import { useLanguage, useT, type T } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { reasonText } from '../../i18n/reasons';
import { UnverifiedLabels } from '../station/VerifyPanel';
import { ProtocolPreview } from './ProtocolPreview';
import { useEndOfDay, type FollowedJob, type Notice } from './useEndOfDay';
import './endOfDay.css';

const count = (t: T, n: number) => t('endOfDay.count', { n });

/** Short and fixed-width enough for a table cell: "22 Nov, 08:17" / "22. 11. 08:17"; a day alone with its year. */
function formatWhen(language: string, iso: string, withTime = true): string {
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  const opts: Intl.DateTimeFormatOptions = withTime
    ? { day: 'numeric', month: language === 'cs' ? 'numeric' : 'short', hour: '2-digit', minute: '2-digit' }
    : { weekday: 'short', day: 'numeric', month: language === 'cs' ? 'numeric' : 'short', year: 'numeric' };
  return new Intl.DateTimeFormat(language === 'cs' ? 'cs-CZ' : 'en-GB', opts).format(d);
}

/**
 * Why the protocol did not print, in the UI language: the reason's text when its code is one the
 * catalogue knows (messages/reasons.ts, as the print queue shows it), and for a print that may have
 * come out the queue's name of its state. Never the core's own message: it is English, or a system
 * error ("ENOTDIR: …").
 */
function notPrintedText(t: T, reasonCode: string | undefined, state: 'failed' | 'uncertain' | 'unconfirmed'): string {
  const reason = reasonCode ? reasonText(t, reasonCode, null) : '';
  const text =
    state === 'failed'
      ? t('endOfDay.job.failed', { reason })
      : t('endOfDay.job.unsure', { reason, state: t(`queue.state.${state}`) });
  return text.replace(/\s+/g, ' ').trim();
}

function JobState({ job, jobId }: { job: FollowedJob | undefined; jobId: number | null }) {
  const t = useT();
  if (jobId === null) return <span className="eod-job bad">{t('endOfDay.job.none')}</span>;
  if (job?.state === 'done')
    return (
      <span className="eod-job ok" data-testid="eod-job-state" data-state="done">
        {t('endOfDay.job.done')}
      </span>
    );
  // Handed to the office printer's print system, which does not say it printed.
  if (job?.state === 'spooled')
    return (
      <span className="eod-job" data-testid="eod-job-state" data-state="spooled">
        {t('endOfDay.job.spooled')}
      </span>
    );
  const state = job?.state;
  if (job && (state === 'failed' || state === 'uncertain' || state === 'unconfirmed'))
    return (
      <span className="eod-job bad" data-testid="eod-job-state" data-state={state}>
        {notPrintedText(t, job.reasonCode, state)}
      </span>
    );
  return (
    <span className="eod-job" data-testid="eod-job-state" data-state={job?.state ?? 'queued'}>
      {t('endOfDay.job.queued')}
    </span>
  );
}

function NoticeBar({
  notice,
  jobs,
  onDismiss,
}: {
  notice: Notice;
  jobs: Record<number, FollowedJob>;
  onDismiss(): void;
}) {
  const t = useT();
  const close = (
    <button type="button" className="eod-dismiss" onClick={onDismiss} aria-label={t('endOfDay.dismiss')}>
      ×
    </button>
  );
  if (notice.kind === 'refused') {
    return (
      <div className="eod-notice bad" role="alert" data-testid="eod-notice" data-kind="refused" data-code={notice.code}>
        <div>
          <strong>
            {notice.code === 'protocol_refused'
              ? t('endOfDay.refused')
              : notice.code === 'protocol_made_elsewhere'
                ? t('endOfDay.madeElsewhere')
                : t('endOfDay.failed')}
          </strong>
          {/* The service's refusal is its own words; the station's errors are said in the UI language. */}
          <p>{errorText(t, notice)}</p>
          {notice.messages.length > 0 && (
            <ul>
              {notice.messages.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          )}
        </div>
        {close}
      </div>
    );
  }
  const jobId = notice.jobId;
  const job = jobId === null ? undefined : jobs[jobId];
  const text =
    notice.kind === 'created'
      ? t('endOfDay.created', {
          id: notice.protocol.collectionProtocolId,
          carrier: notice.protocol.carrier,
          place: notice.place,
          count: count(t, notice.protocol.deliveryIds.length),
        })
      : t('endOfDay.reprinted', { id: notice.collectionProtocolId });
  const bad = jobId === null || job?.state === 'failed' || job?.state === 'uncertain' || job?.state === 'unconfirmed';
  return (
    <div className={`eod-notice ${bad ? 'warn' : 'ok'}`} role="status" data-testid="eod-notice" data-kind={notice.kind}>
      <div>
        <strong>{text}</strong>
        <br />
        <JobState job={job} jobId={jobId} />
      </div>
      {close}
    </div>
  );
}

function Candidates(p: {
  list: ProtocolCandidate[] | null;
  busy: string | null;
  onCreate(c: ProtocolCandidate): void;
}) {
  const t = useT();
  if (!p.list) return <p className="loading">{t('endOfDay.candidates.loading')}</p>;
  if (p.list.length === 0)
    return (
      <p className="eod-empty" data-testid="eod-candidates-empty">
        {t('endOfDay.candidates.empty')}
      </p>
    );
  return (
    <ul className="eod-candidates" data-testid="eod-candidates">
      {p.list.map((c) => {
        const key = `${c.carrier}/${c.collectionPlace}`;
        return (
          <li
            key={key}
            className="eod-candidate"
            data-testid="eod-candidate"
            data-carrier={c.carrier}
            data-place={c.collectionPlace}
          >
            <span className="eod-carrier">{c.carrier}</span>
            <span className="eod-place">
              <strong>{c.collectionPlaceName ?? c.collectionPlace}</strong>
              {c.collectionPlaceName && <small>{c.collectionPlace}</small>}
            </span>
            <span className="eod-count" data-testid="eod-count" data-count={c.deliveryIds.length}>
              {count(t, c.deliveryIds.length)}
            </span>
            <button
              type="button"
              className="primary"
              disabled={p.busy !== null}
              onClick={() => p.onCreate(c)}
              data-testid="eod-create"
            >
              {p.busy === key ? t('endOfDay.creating') : t('endOfDay.create')}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Closed shipments sent from an address, per carrier: no collection protocol is made for them (a
 * protocol names a carrier and a collection place), so they are listed with the reason instead.
 */
function FromAddress(p: { groups: FromAddressGroup[] }) {
  const t = useT();
  if (p.groups.length === 0) return null;
  return (
    <>
      <h2>{t('endOfDay.fromAddress.title')}</h2>
      <p className="eod-hint">{t('endOfDay.fromAddress.hint')}</p>
      <ul className="eod-candidates" data-testid="eod-from-address">
        {p.groups.map((g) => (
          <li key={g.carrier} className="eod-candidate" data-testid="eod-address-group" data-carrier={g.carrier}>
            <span className="eod-carrier">{g.carrier}</span>
            <span className="eod-place">
              <strong>{t('endOfDay.fromAddress.place')}</strong>
              <small data-testid="eod-address-ids">{g.deliveryIds.join(', ')}</small>
            </span>
            <span className="eod-count" data-testid="eod-count" data-count={g.deliveryIds.length}>
              {count(t, g.deliveryIds.length)}
            </span>
            <span className="eod-no-protocol">{t('endOfDay.fromAddress.noProtocol')}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function EndOfDayScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const eod = useEndOfDay();
  const [preview, setPreview] = useState<number | null>(null);
  const closePreview = useCallback(() => setPreview(null), []);

  return (
    <section className="eod" data-testid="screen-endOfDay">
      <div className="eod-main">
        <div className="eod-head">
          <h1>{t('endOfDay.candidates.title')}</h1>
          <button type="button" onClick={() => void eod.refresh()} disabled={eod.loading} data-testid="eod-refresh">
            {t('endOfDay.refresh')}
          </button>
        </div>
        <p className="eod-hint">{t('endOfDay.candidates.hint')}</p>
        {eod.notice && <NoticeBar notice={eod.notice} jobs={eod.jobs} onDismiss={eod.dismiss} />}
        {eod.refreshError && (
          <p className="eod-stale" role="alert" data-testid="eod-refresh-error">
            {t('endOfDay.refreshFailed', { message: errorText(t, eod.refreshError) })}
          </p>
        )}
        <Candidates list={eod.candidates} busy={eod.busy} onCreate={(c) => void eod.create(c)} />
        <FromAddress groups={eod.fromAddress} />

        <h2>{t('endOfDay.pickups.title')}</h2>
        <p className="eod-hint">{t('endOfDay.pickups.hint')}</p>
        {eod.pickups.length === 0 ? (
          <p className="eod-empty">{t('endOfDay.pickups.empty')}</p>
        ) : (
          <div className="eod-table-wrap eod-pickups-wrap">
            <table className="eod-table" data-testid="eod-pickups">
              <thead>
                <tr>
                  <th>{t('endOfDay.col.scheduled')}</th>
                  <th>{t('endOfDay.col.carrier')}</th>
                  <th>{t('endOfDay.col.place')}</th>
                  <th className="num">{t('endOfDay.col.shipments')}</th>
                  <th>{t('endOfDay.col.received')}</th>
                </tr>
              </thead>
              <tbody>
                {eod.pickups.map((o, i) => (
                  <tr
                    key={`${o.carrier}/${o.collectionPlace}/${o.scheduled}/${i}`}
                    data-testid="eod-pickup"
                    data-carrier={o.carrier}
                    data-place={o.collectionPlace}
                  >
                    <td className="eod-when">
                      <strong>{formatWhen(language, o.scheduled, false)}</strong>
                    </td>
                    <td>{o.carrier}</td>
                    <td>{o.collectionPlace}</td>
                    <td className="num">{o.deliveryIds.length}</td>
                    <td className="eod-when">{formatWhen(language, o.receivedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <aside className="eod-side">
        <h2>{t('endOfDay.history.title')}</h2>
        {eod.protocols.length === 0 ? (
          <p className="eod-empty">{t('endOfDay.history.empty')}</p>
        ) : (
          <div className="eod-table-wrap eod-history-wrap">
            <table className="eod-table" data-testid="eod-protocols">
              <thead>
                <tr>
                  <th>{t('endOfDay.col.protocol')}</th>
                  <th className="num">{t('endOfDay.col.shipments')}</th>
                  <th>{t('endOfDay.col.created')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {eod.protocols.map((p) => (
                  <tr key={p.collectionProtocolId} data-testid="eod-protocol" data-id={p.collectionProtocolId}>
                    <td>
                      <strong>{p.collectionProtocolId}</strong> · {p.carrier}
                      <small className="eod-sub">{p.collectionPlace}</small>
                    </td>
                    <td className="num">{p.deliveryIds.length}</td>
                    <td className="eod-when">{formatWhen(language, p.created)}</td>
                    <td className="eod-actions">
                      <button
                        type="button"
                        onClick={() => setPreview(p.collectionProtocolId)}
                        data-testid="eod-preview"
                      >
                        {t('endOfDay.preview')}
                      </button>
                      <button
                        type="button"
                        disabled={eod.busy !== null}
                        onClick={() => void eod.reprint(p.collectionProtocolId)}
                        data-testid="eod-reprint"
                      >
                        {t('endOfDay.reprint')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <UnverifiedLabels />
      </aside>
      {preview !== null && <ProtocolPreview collectionProtocolId={preview} onClose={closePreview} />}
    </section>
  );
}
