/**
 * The full-screen feedback of the newest scan: green when labels print, slate when they were handed
 * to the computer's print system (which does not say they printed), amber when they wait
 * (printer down or offline, behind others, service unreachable), blue for the already-closed question, red for every
 * failure. Big enough to read from a step away; the layout of every kind has the same fixed areas.
 */
import { NoPhotoNote } from '../../camera/CameraCorner';
import { useEffect, useState, type ReactNode } from 'react';
import type { PrinterView } from '../../../../shared/contract/printing';
import { printerName } from '../../i18n/printerName';
import { rpc } from '../../rpc/transport';
import type { ClosedShipmentInfo, RecentScan, ScanOutcome } from '../../../../shared/contract/workflows';
import type { SessionUsable } from '../../../../shared/contract/status';
import { waitsForLogin } from './waitingReason';
import { stateFamily } from '../../../../shared/contract/shipments';
import { useLanguage, useT, type T } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { errorText } from '../../i18n/errors';
import { reasonText } from '../../i18n/reasons';
import { useStatus } from '../../state/statusStore';
import { openQuestionOf, useScans, type Feedback } from '../../state/scanStore';
import { useWeightText, WeighedLine } from './WeighPanel';
import { holdReasonText } from '../shelf/ShelfScreen';
import { formatDateTime } from '../shipments/format';

/** `handed`: the labels went to the computer's print system, which does not say they printed (not the printed green). */
export type Tone = 'ok' | 'handed' | 'wait' | 'ask' | 'bad' | 'neutral';

/**
 * Green only when the labels printed, or are at a printer that is up and printing them (`queued`
 * without a reason); a label waiting for its printer or behind others is amber.
 */
export function toneOf(f: Feedback): Tone {
  if (f.type === 'working') return 'neutral';
  if (f.type === 'refused') return 'bad';
  if (f.type === 'shelved') return 'wait';
  return toneOfKind(f.outcome.kind, f.outcome.kind === 'queued' && !!f.outcome.reason);
}

/** A refusal's reason as the worker reads it now: the core's error in the language on screen, or the page's own sentence. */
export function refusalText(t: T, reason: Extract<Feedback, { type: 'refused' }>['reason']): string {
  return typeof reason === 'string' ? reason : errorText(t, reason);
}

/** One colour per outcome, for the big feedback area and the recent scans' lines alike. `waits`: a queued label waits (behind others, for its printer). */
export function toneOfKind(kind: RecentScan['kind'], waits: boolean): Tone {
  switch (kind) {
    case 'printed':
      return 'ok';
    case 'spooled':
      return 'handed';
    case 'queued':
      return waits ? 'wait' : 'ok';
    case 'printer_down':
    case 'service_unreachable':
    case 'held':
      return 'wait';
    case 'already_closed':
    case 'weight_check':
    case 'on_shelf':
      return 'ask';
    case 'skipped':
    case 'print_cancelled':
      return 'neutral';
    default:
      return 'bad';
  }
}

const icons: Record<Tone, string> = { ok: '✓', handed: '→', wait: '!', ask: '?', bad: '✕', neutral: '…' };

function Title({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <h2 className="outcome-title">
      <span className="outcome-icon" aria-hidden>
        {icons[tone]}
      </span>
      <span>{children}</span>
    </h2>
  );
}

/** "1 balík", "2 balíky", "5 balíků": the plural form comes from translate (i18n/plural.ts). */
export function packagesText(t: T, _language: 'en' | 'cs', n: number): string {
  return t('station.packages', { n });
}

function stateName(t: T, state: number): string {
  const family = stateFamily(state);
  return family ? t(`station.state.${family}`) : t('station.candidate.state', { n: state });
}

function Shipment({ carrier, recipient, packages }: { carrier: string; recipient: string; packages: string }) {
  return (
    <div className="outcome-shipment">
      <span className="outcome-carrier" data-testid="outcome-carrier">
        {carrier}
      </span>
      <span className="outcome-recipient" data-testid="outcome-recipient">
        {recipient}
      </span>
      <span className="outcome-packages">{packages}</span>
    </div>
  );
}

const printersNote = (text: string) => <span data-testid="outcome-printers">{text}</span>;

/** The count that declines a text about a shipment's labels: one label per package. */
const labels = (s: { packageCount: number }) => ({ n: s.packageCount });

/** An outcome's title, also in the scan toast on other screens. */
/** The session's usable state as the page last heard it. */
export const useUsable = () => useStatus((s) => s.status?.session.usable);

export function outcomeTitle(t: T, o: ScanOutcome, usable?: SessionUsable): string {
  if (o.kind === 'service_unreachable' && waitsForLogin(o.reason.code, usable)) return t('station.kind.loginWaiting');
  if (o.kind === 'printed' && o.reprint) return t('station.kind.reprinted');
  // Held for the worker's word, not waiting for a printer (the printer may be ready).
  if (o.kind === 'printer_down' && o.reason.code === 'held_closed_elsewhere') return t('station.kind.heldElsewhere');
  // One label per package: "1 label is printing", "3 štítky se tisknou", "5 štítků se tiskne".
  if (o.kind === 'queued')
    return t(o.reason ? 'station.kind.queuedWaiting' : 'station.kind.queued', { n: o.shipment.packageCount });
  return t(`station.kind.${o.kind}` as MessageKey);
}

/**
 * The printers a scan's labels went to when not the desk's usual label printer (the core says which:
 * electron/workflows/scan/labelOutcome.ts), by the names the worker reads in Settings → Printers.
 */
function usePrinterNames(ids: readonly string[] | undefined): string | null {
  const t = useT();
  const [list, setList] = useState<PrinterView[]>([]);
  const key = ids?.join('\n') ?? '';
  useEffect(() => {
    if (!key) return;
    let live = true;
    void rpc.request('printing.printers.list', {}).then((r) => {
      if (live && r.ok) setList(r.value);
    });
    return () => {
      live = false;
    };
  }, [key]);
  if (!ids?.length) return null;
  return ids
    .map((id) => {
      const p = list.find((x) => x.id === id);
      return p ? printerName(t, p) : id;
    })
    .join(', ');
}

/** The body of one outcome: who, what happened, why, and what to do now. */
function OutcomeBody({ o }: { o: ScanOutcome }) {
  const t = useT();
  const elsewhere = usePrinterNames('printers' in o ? o.printers : undefined);
  const language = useLanguage((s) => s.language);
  const weight = useWeightText();
  const usable = useUsable();
  const ship = (s: {
    carrier: string;
    recipientName: string;
    packageCount: number;
    weighed?: ClosedShipmentInfo['weighed'];
  }) => (
    <>
      <Shipment carrier={s.carrier} recipient={s.recipientName} packages={packagesText(t, language, s.packageCount)} />
      {s.weighed && <WeighedLine weighed={s.weighed} />}
    </>
  );
  const notes: ReactNode[] = [];
  let main: ReactNode = null;
  switch (o.kind) {
    case 'printed':
      main = ship(o.shipment);
      if (elsewhere) notes.push(printersNote(t('station.printers.printed', { printers: elsewhere })));
      break;
    case 'spooled':
      main = ship(o.shipment);
      notes.push(t('station.note.spooled', labels(o.shipment)));
      if (elsewhere) notes.push(printersNote(t('station.printers.at', { printers: elsewhere })));
      break;
    case 'queued':
      main = ship(o.shipment);
      notes.push(t('station.note.queued', labels(o.shipment)));
      if (elsewhere) notes.push(printersNote(t('station.printers.at', { printers: elsewhere })));
      if (o.reason) notes.push(t('station.reason', { message: reasonText(t, o.reason.code, o.reason.message) }));
      break;
    case 'print_cancelled':
      main = ship(o.shipment);
      notes.push(t('station.note.printCancelled', labels(o.shipment)));
      break;
    case 'printer_down':
      main = ship(o.shipment);
      // Held for the worker's word (maybe closed and printed at another desk): it does not print by itself.
      if (o.reason.code === 'held_closed_elsewhere') {
        notes.push(
          <strong key="held" data-testid="held_closed_elsewhere">
            {t('station.note.heldElsewhere', labels(o.shipment))}
          </strong>,
        );
        break;
      }
      notes.push(
        t('station.note.printerDown', labels(o.shipment)),
        t('station.reason', { message: reasonText(t, o.reason.code, o.reason.message) }),
      );
      if (elsewhere) notes.push(printersNote(t('station.printers.at', { printers: elsewhere })));
      break;
    case 'already_closed':
      main = ship(o.shipment);
      notes.push(
        o.closedElsewhere ? (
          <strong key="elsewhere" data-testid="closed_elsewhere">
            {t('station.note.elsewhere', labels(o.shipment))}
          </strong>
        ) : (
          t('station.note.closedHere', labels(o.shipment))
        ),
      );
      if (!o.labelsAvailable) notes.push(t('station.note.noLabels', labels(o.shipment)));
      break;
    case 'weight_check':
      // The weight check: "2.4 kg on the scale, 0.5 kg expected — wrong contents?", per package when there are several.
      main = ship(o.shipment);
      for (const p of o.packages) {
        const line = t('station.weightCheck.line', { weighed: weight(p.weighedKg), expected: weight(p.expectedKg) });
        notes.push(
          <strong key={`w${p.packageNumber}`} data-testid="weight_check-line">
            {o.shipment.packageCount > 1 ? t('station.weightCheck.package', { n: p.packageNumber, text: line }) : line}
          </strong>,
        );
      }
      break;
    case 'held':
      main = <Shipment carrier="" recipient={o.recipientName} packages="" />;
      notes.push(t('station.note.held'));
      break;
    case 'on_shelf':
      main = ship(o.shipment);
      notes.push(
        <strong key="shelf" data-testid="on-shelf-note">
          {t('shelf.note.onShelf', {
            at: formatDateTime(o.hold.heldAt, language),
            reason: holdReasonText(t, o.hold),
            who: o.hold.heldBy?.name ?? t('shelf.nobody'),
          })}
        </strong>,
      );
      break;
    case 'cancelled':
      main = <Shipment carrier="" recipient={o.recipientName} packages="" />;
      notes.push(t('station.note.cancelled'));
      break;
    case 'not_found':
      // The core's message says the same in English; the translated note and the code below say it all.
      notes.push(o.serviceChecked ? t('station.note.notFoundService') : t('station.note.notFoundCache'));
      break;
    case 'ambiguous':
      main = (
        <ul className="outcome-candidates" data-testid="outcome-candidates">
          {o.candidates.map((c) => (
            <li key={c.deliveryId}>
              <b>{c.carrier}</b> {c.recipientName}{' '}
              <span className="muted">
                #{c.deliveryId} · {stateName(t, c.state)}
              </span>
            </li>
          ))}
        </ul>
      );
      notes.push(t('station.note.ambiguous'));
      break;
    case 'carrier_rejected':
      main = <Shipment carrier={o.carrier} recipient="" packages="" />;
      notes.push(
        <span key="msg" className="outcome-service-message" data-testid="outcome-message">
          {o.message}
        </span>,
      );
      if (o.messages.length) {
        notes.push(
          <ul key="msgs" className="outcome-messages" data-testid="outcome-messages">
            {o.messages.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ul>,
        );
      }
      notes.push(t('station.note.rejected'));
      break;
    case 'service_unreachable':
      // Waiting for a login is said as such, never "check the internet connection".
      if (waitsForLogin(o.reason.code, usable))
        notes.push(
          t('station.note.loginWaiting'),
          t('station.reason', { message: reasonText(t, 'login_required', o.reason.message) }),
        );
      else
        notes.push(
          t('station.note.unreachable'),
          t('station.reason', { message: reasonText(t, o.reason.code, o.reason.message) }),
        );
      break;
    case 'skipped':
      notes.push(t('station.note.skipped'));
      break;
    case 'login_required':
      notes.push(o.message, t('station.note.login'));
      break;
    case 'error':
      notes.push(
        t('station.reason', { message: reasonText(t, o.error.code, o.error.message) }),
        t('station.note.error'),
      );
      break;
  }
  const number = 'shipment' in o ? o.shipment.deliveryNumber : null;
  return (
    <>
      <Title tone={toneOf({ type: 'outcome', outcome: o, answered: true })}>{outcomeTitle(t, o, usable)}</Title>
      <div className="outcome-main">{main}</div>
      <div className="outcome-notes">
        {notes.map((n, i) => (
          <p key={i}>{n}</p>
        ))}
      </div>
      <p className="outcome-code">
        {t('station.code', { code: o.code })}
        {number ? ` · ${t('station.deliveryNumber', { number })}` : ''}
      </p>
    </>
  );
}

export function OutcomeView({
  feedback,
  onReprint,
  onSkip,
  onHide,
}: {
  feedback: Feedback;
  onReprint(): void;
  onSkip(): void;
  onHide(): void;
}) {
  const t = useT();
  const tone = toneOf(feedback);
  const question = openQuestionOf(feedback);
  const asking = question !== null;
  const weighs = question?.kind === 'weight_check';
  const shelved = question?.kind === 'on_shelf';
  const kind = feedback.type === 'outcome' ? feedback.outcome.kind : feedback.type;
  // The side panels are under the overlay: the scans still in line are counted here (not the one on screen, which asks).
  const shownScan = feedback.type === 'outcome' ? feedback.outcome.scanId : null;
  const inLine = useScans((s) => s.pending.filter((p) => p.scanId !== shownScan).length);
  // While the station cannot write its data, scans are refused: the footer does not invite the next one.
  const stopped = useStatus((s) => !!s.status?.storage.failed);
  return (
    <div
      className={`outcome tone-${tone}`}
      data-testid={
        feedback.type === 'outcome'
          ? 'scan-outcome'
          : feedback.type === 'working'
            ? 'scan-working'
            : feedback.type === 'shelved'
              ? 'scan-shelved'
              : 'scan-refused'
      }
      data-kind={kind}
      data-scan-id={feedback.type === 'outcome' ? feedback.outcome.scanId : undefined}
      role={tone === 'bad' ? 'alert' : 'status'}
      onClick={asking ? undefined : onHide}
    >
      <div className="outcome-content">
        {feedback.type === 'outcome' && <NoPhotoNote scanId={feedback.outcome.scanId} />}
        {feedback.type === 'outcome' ? (
          <OutcomeBody o={feedback.outcome} />
        ) : feedback.type === 'shelved' ? (
          <>
            <Title tone="wait">{t('shelf.kind.shelved')}</Title>
            <div className="outcome-main">
              <Shipment
                carrier={feedback.parcel.carrier ?? ''}
                recipient={feedback.parcel.recipientName ?? ''}
                packages=""
              />
            </div>
            <div className="outcome-notes">
              <p>
                <strong>{t('shelf.note.shelved', { reason: holdReasonText(t, feedback.parcel) })}</strong>
              </p>
            </div>
            <p className="outcome-code">{t('station.code', { code: feedback.parcel.code })}</p>
          </>
        ) : feedback.type === 'working' ? (
          <>
            <Title tone="neutral">{t('station.kind.working')}</Title>
            <p className="outcome-code">{t('station.code', { code: feedback.code })}</p>
          </>
        ) : (
          <>
            <Title tone="bad">{t('station.kind.refused')}</Title>
            <div className="outcome-notes">
              <p>{refusalText(t, feedback.reason)}</p>
            </div>
            <p className="outcome-code">{t('station.code', { code: feedback.code.slice(0, 60) })}</p>
          </>
        )}
      </div>
      <div className={`outcome-keys ${asking ? 'asking' : ''}`}>
        {asking ? (
          <>
            <span className="outcome-question" data-testid="outcome-question">
              {/* Batch mode's Enter collects the parcel; the batch closes it later ("Close all"). */}
              {weighs
                ? t(
                    feedback.type === 'outcome' && feedback.batch
                      ? 'batch.weightCheck.question'
                      : 'station.weightCheck.question',
                  )
                : shelved
                  ? t('shelf.question')
                  : t('station.note.question', labels(question.shipment))}
            </span>
            <button type="button" className="key-button primary" onClick={onReprint} data-testid="outcome-reprint">
              <kbd>Enter</kbd>{' '}
              {t(weighs ? 'station.key.acceptWeight' : shelved ? 'shelf.key.close' : 'station.key.reprint')}
            </button>
            <button type="button" className="key-button" onClick={onSkip} data-testid="outcome-skip">
              <kbd>Esc</kbd> {t(weighs ? 'station.key.holdParcel' : shelved ? 'shelf.key.leave' : 'station.key.skip')}
            </button>
          </>
        ) : (
          <>
            <span data-testid="outcome-next">{t(stopped ? 'station.stopped' : 'station.next')}</span>
            <span>
              <kbd>Esc</kbd> {t('station.key.hide')}
            </span>
          </>
        )}
        <span className="outcome-in-line" data-testid="outcome-in-line">
          {inLine > 0 ? t('station.inLine', { n: inLine }) : ''}
        </span>
      </div>
    </div>
  );
}
