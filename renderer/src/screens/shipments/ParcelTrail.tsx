/**
 * A parcel's audit trail in the shipment's detail: every step this station took with it, oldest
 * first, with its time (the UI language's date format, to the second), the operator ("nobody signed
 * in" when none) and the desk, and what matters of it (the code as scanned, a weight, the printer
 * and what came out, a reprint's reason). Steps, outcomes and reasons are named in the UI language.
 */
import { useEffect, useState } from 'react';
import type { TrailStep, TrailStepKind } from '../../../../shared/contract/audit';
import type { JobState } from '../../../../shared/contract/printing';
import type { JournalOutcome } from '../../../../shared/errors/codes';
import { useLanguage, useT, type T } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { errorText, type MainError } from '../../i18n/errors';
import { printerName } from '../../i18n/printerName';
import { holdReasons, type HoldReason } from '../../../../shared/contract/shelf';
import { reasonText } from '../../i18n/reasons';
import { rpc } from '../../rpc/transport';
import { formatDateTime, formatDecimal } from './format';

const stepKeys: Record<TrailStepKind, MessageKey> = {
  scanned: 'audit.step.scanned',
  print_asked: 'audit.asked.shipments',
  weight_taken: 'audit.step.weight_taken',
  weight_asked: 'audit.step.weight_asked',
  weight_accepted: 'audit.step.weight_accepted',
  weight_corrected: 'audit.step.weight_corrected',
  weight_within_tolerance: 'audit.step.weight_within_tolerance',
  weight_not_sent: 'audit.step.weight_not_sent',
  close_requested: 'audit.step.close_requested',
  closed: 'audit.step.closed',
  label_queued: 'audit.step.label_queued',
  print: 'audit.step.print',
  reprint: 'audit.step.reprint',
  label_verified: 'audit.step.label_verified',
  label_mismatch: 'audit.step.label_mismatch',
  job_cancelled: 'audit.step.job_cancelled',
  job_retried: 'audit.step.job_retried',
  job_moved: 'audit.step.job_moved',
  job_marked_printed: 'audit.step.job_marked_printed',
  shipment_cancelled: 'audit.step.shipment_cancelled',
  parcel_cancelled: 'audit.step.parcel_cancelled',
  parcel_held: 'audit.step.parcel_held',
  hold_ended: 'audit.step.hold_ended',
  ended: 'audit.step.ended',
};

const askedKeys: Record<NonNullable<TrailStep['source']>, MessageKey> = {
  scan: 'audit.asked.scan',
  batch: 'audit.asked.batch',
  shipments: 'audit.asked.shipments',
  new_shipment: 'audit.asked.new_shipment',
  reprint: 'audit.asked.reprint',
};

const jobStateKeys: Record<JobState, MessageKey> = {
  queued: 'queue.state.queued',
  sending: 'queue.state.sending',
  sent: 'queue.state.sent',
  done: 'queue.state.done',
  spooled: 'queue.state.spooled',
  failed: 'queue.state.failed',
  uncertain: 'queue.state.uncertain',
  unconfirmed: 'queue.state.unconfirmed',
  cancelled: 'queue.state.cancelled',
};

const endedKeys: Record<JournalOutcome, MessageKey> = {
  waiting: 'audit.ended.waiting',
  not_found: 'audit.ended.not_found',
  ambiguous: 'audit.ended.ambiguous',
  cancelled: 'audit.ended.cancelled',
  rejected: 'audit.ended.rejected',
  closed_elsewhere: 'audit.ended.closed_elsewhere',
  already_closed: 'audit.ended.already_closed',
  held: 'audit.ended.held',
  not_printed: 'audit.ended.not_printed',
  error: 'audit.ended.error',
};

/** What came of a rescan (auditTrailRepo's rescanResult). */
const rescanKeys: Record<string, MessageKey> = {
  reprinted: 'audit.rescan.reprinted',
  skipped: 'audit.rescan.skipped',
  unanswered: 'audit.rescan.unanswered',
};

const reprintReasonKeys: Record<string, MessageKey> = {
  damaged: 'audit.reason.damaged',
  lost: 'audit.reason.lost',
  wrong_printer: 'audit.reason.wrong_printer',
  other: 'audit.reason.other',
};

/** "26. 11. 2026 9:15:03" / "26/11/2026, 09:15:03": the detail's date format with seconds (steps come seconds apart). */
function stepName(t: T, s: TrailStep): string {
  if (s.step === 'print_asked' && s.source) return t(askedKeys[s.source]);
  if (s.step === 'weight_taken') return t(stepKeys.weight_taken, { n: s.packageNumber ?? 1 });
  if (s.step === 'ended' && s.outcome === 'already_closed') return t('audit.step.rescanned');
  return t(stepKeys[s.step]);
}

/** What matters of a step beyond its name, in the UI language; parts joined with " · ". */
function stepDetails(t: T, s: TrailStep, language: string): string {
  const parts: string[] = [];
  if (s.code) parts.push(t('audit.detail.code', { code: s.code }));
  if (s.step === 'weight_taken') {
    if (s.outcome === 'skipped') parts.push(t('audit.detail.skipped'));
    else if (s.outcome === 'timeout') parts.push(t('audit.detail.timeout'));
    else if (s.kg) parts.push(t('audit.detail.kg', { kg: formatDecimal(s.kg, null, language) }));
  }
  if (s.printerId) parts.push(printerName(t, { id: s.printerId, name: s.printer ?? s.printerId }));
  if (s.step === 'print' && s.outcome && s.outcome in jobStateKeys) parts.push(t(jobStateKeys[s.outcome as JobState]));
  if (s.step === 'ended' && s.outcome === 'already_closed')
    parts.push(t(rescanKeys[s.reasonCode ?? ''] ?? endedKeys.already_closed));
  // A scan of a parcel on the problem shelf, or one in line when it was put there: the shelf's words.
  else if (
    s.step === 'ended' &&
    s.outcome === 'held' &&
    (s.reasonCode === 'on_shelf' || s.reasonCode === 'parcel_held')
  )
    parts.push(t(`error.${s.reasonCode}`));
  else if (s.step === 'ended' && s.outcome && s.outcome in endedKeys)
    parts.push(t(endedKeys[s.outcome as JournalOutcome]));
  if (s.step === 'parcel_held' && s.reasonCode && (holdReasons as readonly string[]).includes(s.reasonCode))
    parts.push(t(`shelf.reason.${s.reasonCode as HoldReason}`));
  if (s.step === 'parcel_held' && s.note) parts.push(`„${s.note}“`);
  if (s.step === 'hold_ended' && (s.reasonCode === 'closed' || s.reasonCode === 'released'))
    parts.push(t(`audit.holdEnded.${s.reasonCode}`));
  if (s.step === 'reprint' && s.reasonCode)
    parts.push(reprintReasonKeys[s.reasonCode] ? t(reprintReasonKeys[s.reasonCode]!) : s.reasonCode);
  if (s.step === 'reprint' && s.note) parts.push(`„${s.note}“`);
  if (s.step === 'print' && s.reasonCode && s.outcome !== 'done') {
    const why = reasonText(t, s.reasonCode, s.note);
    if (why) parts.push(why);
  }
  if (s.step === 'label_mismatch' && s.reasonCode?.startsWith('label_of_'))
    parts.push(t('audit.detail.labelOf', { id: s.reasonCode.slice('label_of_'.length) }));
  if (s.jobId !== null && (s.step === 'print' || s.step.startsWith('job_')))
    parts.push(t('audit.detail.job', { id: s.jobId }));
  return parts.join(' · ');
}

export function ParcelTrail(p: { deliveryId: number }) {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [trail, setTrail] = useState<TrailStep[] | { error: MainError } | null>(null);

  useEffect(() => {
    let live = true;
    // One read at a time: changes that come while it runs (a batch's many jobs) make one more read after it.
    let reading = false;
    let again = false;
    const load = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      void rpc.request('shipments.trail', { deliveryId: p.deliveryId }).then((r) => {
        reading = false;
        if (!live) return;
        setTrail(r.ok ? r.value : { error: r.error });
        if (again) {
          again = false;
          load();
        }
      });
    };
    setTrail(null);
    load();
    // A print's outcome or a reprint changes the trail while the detail is open.
    const offJobs = rpc.on('printing.jobs', load);
    const offChanged = rpc.on('shipments.changed', (e) => (e.all || e.deliveryIds.includes(p.deliveryId)) && load());
    return () => {
      live = false;
      offJobs();
      offChanged();
    };
  }, [p.deliveryId]);

  return (
    <section className="sd-block sd-trail" data-testid="detail-trail">
      <h3>{t('audit.title')}</h3>
      {trail === null && <p>{t('audit.loading')}</p>}
      {trail && 'error' in trail && <p className="bad">{t('audit.failed', { message: errorText(t, trail.error) })}</p>}
      {Array.isArray(trail) && trail.length === 0 && <p>{t('audit.empty')}</p>}
      {Array.isArray(trail) && trail.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t('audit.col.time')}</th>
              <th>{t('audit.col.step')}</th>
              <th>
                {t('audit.col.who')} · {t('audit.col.desk')}
              </th>
            </tr>
          </thead>
          <tbody>
            {trail.map((s, i) => {
              const details = stepDetails(t, s, language);
              return (
                <tr key={i} data-testid="trail-step" data-step={s.step}>
                  <td className="sd-trail-time">{formatDateTime(s.at, language, { seconds: true })}</td>
                  <td>
                    <span data-testid="trail-step-name">{stepName(t, s)}</span>
                    {details && (
                      <span className="sd-trail-more" data-testid="trail-step-details">
                        {details}
                      </span>
                    )}
                  </td>
                  <td>
                    <span className={s.operator ? '' : 'sd-trail-nobody'} data-testid="trail-step-who">
                      {s.operator?.name ?? t('audit.nobody')}
                    </span>
                    <span className="sd-trail-more" data-testid="trail-step-desk">
                      {s.desk ?? '—'}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
