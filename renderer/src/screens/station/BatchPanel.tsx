/**
 * Batch mode: scans are collected (`batch.collect`), nothing is closed until the
 * worker closes them all; the core closes one request per carrier + collection place (spec
 * "PATCH /api/v3/deliveries": one carrier and one collection place per request) and prints per
 * carrier. The summary says what was closed, where, and what failed and why. With a scale set up,
 * each parcel is weighed as it is collected (the weighing panel shows it); its row and the summary
 * show the weight used.
 */
import type { BatchItem, BatchSummary } from '../../../../shared/contract/workflows';
import { useLanguage, useT, type T } from '../../i18n';
import { errorText } from '../../i18n/errors';
import type { MessageKey } from '../../i18n/en';
import { useScans } from '../../state/scanStore';
import { shownCode } from '../../scan/shownCode';
import { useWeightText, WeighedLine } from './WeighPanel';

/**
 * What the worker does about a skipped code, where its status alone does not say it (the main
 * side's message is English and names what the status already says).
 */
function skipAdvice(i: BatchItem): MessageKey | null {
  if (i.status === 'ambiguous') return 'batch.advice.ambiguous';
  // Invalid: a shipment in a state that cannot be closed, or a code that is no shipment code at all.
  if (i.status === 'invalid') return i.deliveryId === null ? 'batch.advice.invalidCode' : 'batch.advice.invalid';
  return null;
}

/** The weights a collected parcel got on the scale, package by package. */
function ItemWeights({ weights }: { weights: NonNullable<BatchItem['weights']> }) {
  const t = useT();
  const weight = useWeightText();
  const taken = weights.filter((w) => w.kg !== null);
  return (
    <span className="weighed muted" data-testid="batch-item-weight">
      {taken.length
        ? t('batch.weighed', { weights: weights.map((w) => (w.kg !== null ? weight(w.kg) : '—')).join(' + ') })
        : t('batch.notWeighed')}
    </span>
  );
}

/**
 * Why an item is not ready, in the UI language from its reason code and values; the carrier's own
 * words of a refusal follow when they are in the UI language. An item kept by an older version (no
 * reason) says its status only: its stored sentence is English.
 */
function reasonText(t: T, language: string, item: BatchItem): string {
  const r = item.reason;
  if (!r) return t(`batch.status.${item.status}`);
  const said = t(`batch.why.${r.code}`, r.values ?? {});
  // The carrier's words cannot be translated here: shown only in the language they were said in.
  const words = r.words?.length && (!r.wordsLanguage || r.wordsLanguage === language) ? r.words : [];
  return words.length ? `${said} ${words.join(' ')}` : said;
}

function ItemRow({ item }: { item: BatchItem }) {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const remove = useScans((s) => s.removeFromBatch);
  return (
    <li
      data-code={item.code}
      data-status={item.status}
      className={`${item.status === 'ready' ? 'tone-ok' : item.status === 'closed' ? 'tone-ask' : 'tone-bad'}${item.weights ? ' weighed' : ''}`}
      title={item.status === 'ready' ? undefined : reasonText(t, language, item)}
    >
      <span className="dot" aria-hidden />
      <span className="code">{shownCode(item.code)}</span>
      <span className="who">{[item.carrier, item.recipientName].filter(Boolean).join(' · ')}</span>
      <span className="place muted">{item.collectionPlace ?? ''}</span>
      {item.weights && <ItemWeights weights={item.weights} />}
      <span className="status">{t(`batch.status.${item.status}`)}</span>
      <button type="button" className="link-button" onClick={() => void remove(item.code)} data-testid="batch-remove">
        {t('batch.remove')}
      </button>
    </li>
  );
}

function SummaryView({ summary }: { summary: BatchSummary }) {
  const t = useT();
  const count = (n: number) => t('batch.summary.group', { n });
  const dismiss = () => useScans.setState({ batchSummary: null });
  const failed = summary.shipments.filter(
    (s) => s.outcome !== 'printed' && s.outcome !== 'spooled' && s.outcome !== 'queued',
  );
  const weighed = summary.shipments.filter((s) => s.weighed);
  // The counts are those of the list below: a skipped code is counted as skipped, not hidden.
  const skipped = summary.skipped.length;
  return (
    // Red only when something failed; codes that could not be closed (not found, already closed) ask for a look.
    <div
      className={`batch-summary ${failed.length > 0 ? 'tone-bad' : skipped > 0 ? 'tone-ask' : 'tone-ok'}`}
      data-testid="batch-summary"
    >
      <div className="batch-summary-head">
        <h3>{t('batch.summary.title')}</h3>
        <span className="batch-summary-counts" data-testid="batch-summary-counts">
          {t('batch.summary.counts', { closed: summary.closed, printed: summary.printed, failed: failed.length })}
          {skipped > 0 && (
            <span data-testid="batch-summary-skipped">{t('batch.summary.countSkipped', { skipped })}</span>
          )}
        </span>
        <button type="button" className="link-button" onClick={dismiss}>
          {t('batch.summary.dismiss')}
        </button>
      </div>
      <div className="batch-summary-body">
        <section>
          <h4>{t('batch.summary.groups')}</h4>
          <ul className="batch-groups" data-testid="batch-groups">
            {summary.groups.map((g) => (
              <li
                key={`${g.carrier}|${g.collectionPlace ?? ''}`}
                data-carrier={g.carrier}
                data-closed={g.closedCount}
                className={g.closedCount === g.deliveryIds.length ? 'tone-ok' : 'tone-bad'}
              >
                <span className="dot" aria-hidden />
                <b>{g.carrier}</b> · {g.collectionPlace ?? t('batch.noPlace')} — {count(g.deliveryIds.length)}
                {g.closedCount === 0 ? (
                  <span className="status"> ({t('batch.summary.groupNotClosed')})</span>
                ) : g.closedCount < g.deliveryIds.length ? (
                  <span className="status">
                    {' '}
                    ({t('batch.summary.groupClosedOf', { closed: g.closedCount, n: g.deliveryIds.length })})
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
        {weighed.length > 0 && (
          <section>
            <h4>{t('batch.summary.weights')}</h4>
            <ul className="batch-weights" data-testid="batch-weights">
              {weighed.map((s) => (
                <li key={s.deliveryId} data-code={s.code} data-updated={s.weighed!.updated}>
                  <b>{shownCode(s.code)}</b> <WeighedLine weighed={s.weighed!} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <section>
          <h4>{t('batch.summary.failed')}</h4>
          {failed.length === 0 && summary.skipped.length === 0 ? (
            <p className="muted">{t('batch.summary.noFailures')}</p>
          ) : (
            <ul className="batch-failures" data-testid="batch-failures">
              {failed.map((s) => (
                <li key={s.deliveryId} data-code={s.code} data-kind="failed" data-outcome={s.outcome}>
                  <b>{shownCode(s.code)}</b> ({s.carrier}) — {t(`batch.outcome.${s.outcome}`)}
                  {s.error?.messages?.length ? (
                    // The carrier's own reasons, one a line (never joined by a raw separator).
                    <ul className="batch-reasons" data-testid="batch-reasons">
                      {s.error.messages.map((m, i) => (
                        <li key={i}>{m}</li>
                      ))}
                    </ul>
                  ) : s.error ? (
                    `: ${errorText(t, s.error)}`
                  ) : (
                    ''
                  )}
                </li>
              ))}
              {summary.skipped.map((i) => (
                <li key={`skip-${i.code}`} data-code={i.code} data-kind="skipped">
                  <b>{shownCode(i.code)}</b> —{' '}
                  {t('batch.summary.skippedItem', { status: t(`batch.status.${i.status}`) })}
                  {skipAdvice(i) ? `: ${t(skipAdvice(i)!)}` : ''}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

export function BatchPanel() {
  const t = useT();
  const { batchItems, batchLast, batchBusy, batchSummary, batchError, clearBatch, closeAll } = useScans();
  const ready = batchItems.filter((i) => i.status === 'ready').length;
  // A refused shipment can be closed again once the worker has fixed it.
  const closable = ready + batchItems.filter((i) => i.status === 'refused').length;
  return (
    <section className="panel batch" aria-label={t('batch.title')}>
      <div className="batch-head">
        <h3>
          {t('batch.title')} <span className="muted">{t('batch.count', { n: batchItems.length, ready })}</span>
        </h3>
        <span
          className="batch-last"
          data-testid="batch-last"
          data-status={batchError ? 'error' : (batchLast?.status ?? '')}
        >
          {batchError
            ? t('batch.notAdded', { message: batchError })
            : batchLast
              ? t('batch.last', { code: batchLast.code, status: t(`batch.status.${batchLast.status}`) })
              : '\u00a0'}
        </span>
      </div>
      {batchSummary ? (
        <SummaryView summary={batchSummary} />
      ) : batchItems.length === 0 ? (
        <p className="muted batch-empty">{t('batch.empty')}</p>
      ) : (
        <ol className="batch-items" data-testid="batch-items">
          {batchItems.map((i) => (
            <ItemRow key={i.code} item={i} />
          ))}
        </ol>
      )}
      <div className="batch-actions">
        <button
          type="button"
          className="key-button"
          onClick={() => void clearBatch()}
          disabled={batchBusy || batchItems.length === 0}
          data-testid="batch-clear"
        >
          {t('batch.clear')}
        </button>
        <button
          type="button"
          className="key-button primary"
          onClick={() => void closeAll()}
          disabled={batchBusy || closable === 0}
          data-testid="batch-close"
        >
          <kbd>Ctrl+Enter</kbd> {batchBusy ? t('batch.closing') : t('batch.closeAll')}
        </button>
      </div>
    </section>
  );
}
