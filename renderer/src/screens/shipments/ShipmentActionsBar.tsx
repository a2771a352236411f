/**
 * What the worker can do to the selected shipments: close and print, print labels in a chosen
 * format (ZPL, PDF roll, PDF A4 from start position 1-4), reprint, cancel (after a confirmation),
 * and tracking. Each action's answer is listed per shipment with what happened and why.
 */
import { ProofButton } from '../../camera/ParcelPhotos';
import { useState } from 'react';
import type { LabelFormat, ShipmentActionSummary } from '../../../../shared/contract/shipmentActions';
import type { ReprintWhy } from '../../../../shared/contract/reprint';
import { useT } from '../../i18n';
import { askReprintReason } from '../../reprint/reprintReason';
import { reprintSubject, type NamedParcel } from '../../reprint/reprintSubject';
import type { MessageKey } from '../../i18n/en';
import { rpc } from '../../rpc/transport';
import { useNav } from '../../state/navStore';
import { errorText, type MainError } from '../../i18n/errors';

export type ActionName = 'close' | 'print' | 'reprint' | 'cancel';
export interface ActionReport {
  action: ActionName;
  summary: ShipmentActionSummary | null;
  /** The call's own refusal (shown in the UI language at render). */
  error: MainError | null;
}

/** The contract takes up to 1000 ids per call; a bigger selection goes in chunks, answers joined. */
const CHUNK = 500;
async function run(
  action: ActionName,
  ids: number[],
  format: LabelFormat,
  position: number,
  why: ReprintWhy | null,
): Promise<ActionReport> {
  const joined: ShipmentActionSummary = { results: [], done: 0, failed: 0, skipped: 0 };
  for (let i = 0; i < ids.length; i += CHUNK) {
    const deliveryIds = ids.slice(i, i + CHUNK);
    const r =
      action === 'close'
        ? await rpc.request('shipments.close', { deliveryIds })
        : action === 'reprint'
          ? await rpc.request('shipments.reprint', { deliveryIds, why: why! })
          : action === 'cancel'
            ? await rpc.request('shipments.cancel', { deliveryIds })
            : await rpc.request('shipments.printLabels', {
                deliveryIds,
                format,
                ...(format === 'pdf-a4' ? { position } : {}),
              });
    if (!r.ok) return { action, summary: joined.results.length ? joined : null, error: r.error };
    joined.results.push(...r.value.results);
    joined.done += r.value.done;
    joined.failed += r.value.failed;
    joined.skipped += r.value.skipped;
  }
  return { action, summary: joined, error: null };
}

export function ShipmentActionsBar(p: {
  selected: number[];
  /** A selected shipment as the worker knows it (order number, recipient), for the reprint question. */
  parcelsOf(deliveryIds: readonly number[]): NamedParcel[];
  onDetail(): void;
  onReport(r: ActionReport | null): void;
}) {
  const t = useT();
  const go = useNav((s) => s.go);
  const [busy, setBusy] = useState<ActionName | null>(null);
  const [format, setFormat] = useState<LabelFormat>('zpl');
  const [position, setPosition] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const none = p.selected.length === 0;

  async function act(action: ActionName) {
    setConfirming(false);
    let why: ReprintWhy | null = null;
    if (action === 'reprint') {
      // Every reprint says why (recorded with the operator); Esc: nothing is printed.
      why = await askReprintReason(reprintSubject(t, p.parcelsOf(p.selected)));
      if (!why) return;
    }
    setBusy(action);
    p.onReport(null);
    try {
      p.onReport(await run(action, p.selected, format, position, why));
    } finally {
      setBusy(null);
    }
  }

  const disabled = none || busy !== null;
  return (
    <div className="sh-actions" role="toolbar" aria-label={t('shipments.title')}>
      <button
        type="button"
        className="primary"
        disabled={disabled}
        onClick={() => void act('close')}
        data-testid="action-close"
      >
        {t('shipments.action.close')}
      </button>
      <span className="sh-print">
        <label>
          <span className="visually-hidden">{t('shipments.print.format')}</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as LabelFormat)} data-testid="print-format">
            {(['zpl', 'pdf-roll', 'pdf-a4'] as const).map((f) => (
              <option key={f} value={f}>
                {t(`shipments.format.${f}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        {format === 'pdf-a4' && (
          <label>
            <span>{t('shipments.print.position')}</span>
            <select value={position} onChange={(e) => setPosition(Number(e.target.value))} data-testid="print-position">
              {[1, 2, 3, 4].map((n) => (
                <option key={n} value={n}>
                  {t('shipments.position', { n })}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" disabled={disabled} onClick={() => void act('print')} data-testid="action-print">
          {t('shipments.action.print')}
        </button>
      </span>
      <button type="button" disabled={disabled} onClick={() => void act('reprint')} data-testid="action-reprint">
        {t('shipments.action.reprint')}
      </button>
      <button
        type="button"
        disabled={none}
        onClick={() => go('tracking', { deliveryIds: p.selected.slice(0, 200) })}
        data-testid="action-tracking"
      >
        {t('shipments.action.tracking')}
      </button>
      <button type="button" disabled={p.selected.length !== 1} onClick={p.onDetail} data-testid="action-detail">
        {t('shipments.action.detail')} <kbd>Enter</kbd>
      </button>
      <button
        type="button"
        disabled={p.selected.length !== 1}
        onClick={() => go('newShipment', { deliveryIds: p.selected.slice(0, 1) })}
        data-testid="action-edit"
      >
        {t('shipments.action.edit')}
      </button>
      <ProofButton selected={p.selected} />
      <span className="spacer" />
      {confirming ? (
        <span
          className="sh-confirm"
          role="alertdialog"
          aria-label={t('shipments.confirm.cancel', { n: p.selected.length })}
        >
          <strong>{t('shipments.confirm.cancel', { n: p.selected.length })}</strong>
          <button
            type="button"
            className="danger"
            onClick={() => void act('cancel')}
            data-testid="confirm-yes"
            autoFocus
          >
            {t('shipments.confirm.yes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)} data-testid="confirm-no">
            {t('shipments.confirm.no')}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="danger-outline"
          disabled={disabled}
          onClick={() => setConfirming(true)}
          data-testid="action-cancel"
        >
          {t('shipments.action.cancel')}
        </button>
      )}
      {busy && (
        <span className="sh-busy" role="status" data-testid="action-busy">
          {t('shipments.busy')}
        </span>
      )}
    </div>
  );
}

export function ActionResults(p: { report: ActionReport; onDismiss(): void }) {
  const t = useT();
  const { summary } = p.report;
  return (
    <section className="sh-results" aria-live="polite" data-testid="action-results" data-action={p.report.action}>
      <header>
        <strong>{t(`shipments.result.${p.report.action}` as MessageKey)}</strong>
        {summary && (
          <span>
            {t('shipments.result.summary', { done: summary.done, failed: summary.failed, skipped: summary.skipped })}
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={p.onDismiss}>
          {t('shipments.result.dismiss')}
        </button>
      </header>
      {p.report.error && (
        <p className="bad" role="alert">
          {errorText(t, p.report.error)}
        </p>
      )}
      <ul>
        {summary?.results.map((r) => (
          <li
            key={r.deliveryId}
            className={`res-${r.outcome}`}
            data-testid="action-result"
            data-delivery-id={r.deliveryId}
            data-outcome={r.outcome}
            data-print={r.print}
          >
            <span className="res-id">{r.deliveryId}</span>
            <span className="res-outcome">{t(`shipments.outcome.${r.outcome}` as MessageKey)}</span>
            {r.print !== 'none' && (
              <span className={`res-print print-${r.print}`} data-testid="action-result-print">
                {t(`shipments.printState.${r.print}` as MessageKey)}
              </span>
            )}
            {r.error && (
              <span className="res-error">
                {errorText(t, r.error)}
                {r.error.messages
                  .filter((m) => m !== r.error!.message)
                  .map((m, i) => (
                    <span key={i} className="res-msg">
                      {m}
                    </span>
                  ))}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
