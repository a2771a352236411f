/**
 * Print queue: every job with its state, printer, attempts and reason; retry now,
 * cancel, reprint; a job waiting for its printer (failed before any byte reached it, tried again by
 * itself) shows as waiting with the printer's reason and its next try, not as failed; jobs handed
 * to the computer's print system show as such, not as printed; jobs left uncertain by a crash, or sent without the printer confirming them
 * (unconfirmed), ask the worker to decide (it printed / print again); a printer that is offline is
 * said plainly at the top. Live through the `printing.jobs` changes (state/followJobs.ts).
 */
import { useEffect, useState } from 'react';
import {
  heldForWorker,
  heldInPrinter,
  waitsForPrinter,
  type JobView,
  type PrinterView,
} from '../../../../shared/contract/printing';
import { errorTextNow, useLanguage, useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import type { MessageKey } from '../../i18n/en';
import { printerName } from '../../i18n/printerName';
import { reasonText } from '../../i18n/reasons';
import { rpc, useConnection } from '../../rpc/transport';
import { askReprint } from '../../reprint/reprintReason';
import { jobQuestion } from '../../reprint/jobSubject';
import { followJobs } from '../../state/followJobs';
import { usePendingScans } from '../../state/pendingScansStore';
import { formatDateTime } from '../shipments/format';
import './queue.css';

const ACTIVE: JobView['state'][] = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'unconfirmed'];
/** Jobs that may or may not have printed: only the worker can say. */
const undecided = (j: JobView) => j.state === 'uncertain' || j.state === 'unconfirmed';
/** The state as the worker reads it: a job waiting for its printer is not a failure. */
const shownState = (j: JobView): JobView['state'] | 'waiting' | 'held' =>
  waitsForPrinter(j) ? 'waiting' : heldInPrinter(j) ? 'held' : j.state;

type JobAction =
  'printing.queue.retryNow' | 'printing.queue.cancel' | 'printing.queue.reprint' | 'printing.queue.markPrinted';

function useJobs(showAll: boolean) {
  const [jobs, setJobs] = useState<JobView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    // The view loaded once, then kept by the `printing.jobs` changes (state/followJobs.ts).
    const follow = followJobs({
      view: showAll ? { limit: 300 } : { states: ACTIVE, limit: 500 },
      request: async (params) => {
        const r = await rpc.request('printing.queue.follow', params);
        if (!live) return null;
        if (!r.ok) {
          setError(errorTextNow(r.error));
          return null;
        }
        setError(null);
        return r.value;
      },
      publish: (list) => live && setJobs(list),
    });
    const off = rpc.on('printing.jobs', follow.apply);
    // Connected again after a loss: changes may have been missed.
    const offReconnect = useConnection.subscribe((s, prev) => {
      if (s.connected && !prev.connected) void follow.reload();
    });
    void follow.reload();
    return () => {
      live = false;
      off();
      offReconnect();
    };
  }, [showAll, version]);
  return { jobs, error, reload: () => setVersion((v) => v + 1) };
}

function usePrinters(): PrinterView[] {
  const [printers, setPrinters] = useState<PrinterView[]>([]);
  useEffect(() => {
    void rpc.request('printing.printers.list', {}).then((r) => r.ok && setPrinters(r.value));
    return rpc.on('printing.printerState', (st) =>
      setPrinters((list) => list.map((p) => (p.id === st.printerId ? { ...p, status: st } : p))),
    );
  }, []);
  return printers;
}

const takesZpl = (p: PrinterView) => ['zpl-tcp', 'zpl-usb', 'zpl-spooler', 'virtual-zpl'].includes(p.connection.kind);

/** A waiting job can go to another printer of its format (the first is off, out of paper...). */
function MoveTo(p: { job: JobView; printers: PrinterView[]; move(id: number, printerId: string): void }) {
  const t = useT();
  const others = p.printers.filter((x) => x.id !== p.job.printerId && takesZpl(x) === (p.job.format === 'zpl'));
  if (others.length === 0) return null;
  return (
    <select
      aria-label={t('queue.action.moveTo')}
      value=""
      onChange={(e) => e.target.value && p.move(p.job.id, e.target.value)}
      data-testid="queue-move"
    >
      <option value="">{t('queue.action.moveTo')}</option>
      {others.map((x) => (
        <option key={x.id} value={x.id}>
          {printerName(t, x)}
        </option>
      ))}
    </select>
  );
}

function JobActions(p: {
  job: JobView;
  printers: PrinterView[];
  run(method: JobAction, id: number): void;
  move(id: number, printerId: string): void;
  askCancel(job: JobView): void;
}) {
  const t = useT();
  const { job, run } = p;
  // A cancelled label does not print: asked first, a slip of the mouse costs a parcel's label.
  const b = (method: JobAction, label: MessageKey, testId: string, cls = '') => (
    <button
      type="button"
      className={cls}
      onClick={() => (method === 'printing.queue.cancel' ? p.askCancel(job) : run(method, job.id))}
      data-testid={testId}
    >
      {t(label)}
    </button>
  );
  if (undecided(job)) {
    return (
      <>
        {b('printing.queue.markPrinted', 'queue.action.markPrinted', 'queue-mark-printed', 'primary')}
        {b('printing.queue.reprint', 'queue.action.printAgain', 'queue-print-again')}
      </>
    );
  }
  return (
    <>
      {job.state === 'failed' &&
        // A label held for the worker's word is not a failure to retry: the worker decides it prints.
        b(
          'printing.queue.retryNow',
          heldForWorker(job) ? 'queue.action.printHeld' : 'queue.action.retry',
          'queue-retry',
          'primary',
        )}
      {(job.state === 'queued' || job.state === 'failed') &&
        b('printing.queue.cancel', 'queue.action.cancel', 'queue-cancel')}
      {job.kind === 'print' && (job.state === 'queued' || (job.state === 'failed' && !job.delivered)) && (
        <MoveTo job={job} printers={p.printers} move={p.move} />
      )}
      {(job.state === 'done' || job.state === 'spooled' || job.state === 'cancelled') &&
        job.kind === 'print' &&
        b('printing.queue.reprint', 'queue.action.reprint', 'queue-reprint')}
    </>
  );
}

export function QueueScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [showAll, setShowAll] = useState(false);
  const { jobs, error, reload } = useJobs(showAll);
  const printers = usePrinters();
  const [actionError, setActionError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<JobView | null>(null);
  const nameOf = (id: string | null) =>
    id ? ((p) => (p ? printerName(t, p) : id))(printers.find((p) => p.id === id)) : t('queue.noPrinter');
  // What the job prints, named in the UI language from its kind and number (the job's title is the log's English).
  const whatOf = (j: JobView) =>
    j.document.kind === 'protocol'
      ? t('queue.doc.protocol', { id: j.document.protocolId })
      : j.document.kind === 'pickList'
        ? t('queue.doc.pickList')
        : j.document.kind === 'commandSheet'
          ? t('command.sheet.title')
          : j.document.kind === 'testPrint'
            ? t('queue.doc.testPrint', { printer: nameOf(j.document.printerId) })
            : j.deliveryIds.length === 0
              ? j.title
              : j.document.kind === 'labels' && j.document.package
                ? `${t('queue.jobShipment', { ids: j.deliveryIds.join(', ') })} · ${t('queue.jobPackage', { n: j.document.package.number, of: j.document.package.of })}`
                : `${t(j.deliveryIds.length === 1 ? 'queue.jobShipment' : 'queue.jobShipments', { ids: j.deliveryIds.join(', ') })}${j.barcodes.length ? ` · ${t('queue.jobLabels', { n: j.barcodes.length })}` : ''}`;
  const down = printers.filter((p) => p.status.state === 'offline' || p.status.state === 'error');
  const uncertain = jobs.filter(undecided);
  // Scans that wait for the service or a login: the journal's list, the same the Station screen counts.
  const scans = usePendingScans((s) => s.scans);

  async function run(method: JobAction, id: number) {
    let r;
    if (method === 'printing.queue.reprint') {
      // Every reprint says why (recorded with the operator), naming the parcel; Esc: nothing is printed.
      // A job of every label of a parcel of several packages: which labels too (one package's alone).
      const q = await jobQuestion(t, id);
      const answer = await askReprint(q.subject, q.packages);
      if (!answer) return;
      r = await rpc.request(method, { jobId: id, ...answer });
    } else r = await rpc.request(method, { jobId: id });
    // The translated refusal names the job itself (its id comes in the error's details).
    setActionError(r.ok ? null : errorText(t, r.error));
  }
  async function move(id: number, printerId: string) {
    const r = await rpc.request('printing.queue.move', { jobId: id, printerId });
    setActionError(r.ok ? null : errorText(t, r.error));
  }

  return (
    <section className="queue" aria-label={t('queue.title')} data-testid="screen-queue">
      <div className="q-top">
        <h1>{t('queue.title')}</h1>
        <span className="q-switch" role="radiogroup">
          <label>
            <input type="radio" checked={!showAll} onChange={() => setShowAll(false)} data-testid="queue-show-active" />{' '}
            {t('queue.show.active')}
          </label>
          <label>
            <input type="radio" checked={showAll} onChange={() => setShowAll(true)} data-testid="queue-show-all" />{' '}
            {t('queue.show.all')}
          </label>
        </span>
        <span className="spacer" />
        <button type="button" onClick={reload}>
          {t('queue.refresh')}
        </button>
      </div>
      {down.map((p) => (
        <p key={p.id} className="q-offline" role="alert" data-testid="queue-offline" data-printer-id={p.id}>
          {[
            t(p.status.state === 'error' ? 'queue.down.error' : 'queue.down.offline', { name: printerName(t, p) }),
            p.status.reason ? reasonText(t, p.status.reasonCode, p.status.reason) : '',
            t('queue.down.wait'),
          ]
            .filter(Boolean)
            .join(' ')}
        </p>
      ))}
      {uncertain.length > 0 && (
        <div className="q-uncertain" role="alert" data-testid="queue-uncertain">
          <strong>{t('queue.uncertain.title', { n: uncertain.length })}</strong>
          {uncertain.some((j) => j.state === 'uncertain') && <p>{t('queue.uncertain.text')}</p>}
          {uncertain.some((j) => j.state === 'unconfirmed') && <p>{t('queue.unconfirmed.text')}</p>}
        </div>
      )}
      {scans.length > 0 && (
        <div className="q-scans" data-testid="queue-waiting-scans">
          <strong>{t('queue.waitingScans', { n: scans.length })}</strong>
          <ol>
            {scans.slice(0, 20).map((p) => (
              <li key={p.scanId} data-code={p.code}>
                <span className="code">{p.code}</span> —{' '}
                {p.reason
                  ? reasonText(t, p.reason.code, p.reason.message)
                  : p.state === 'working'
                    ? t('station.pending.working')
                    : t('reason.waiting_in_line')}
              </li>
            ))}
          </ol>
        </div>
      )}
      {(error || actionError) && (
        <p className="bad" role="alert" data-testid="queue-error">
          {error ? t('queue.loadFailed', { message: error }) : actionError}
        </p>
      )}
      {cancelling && (
        <div
          className="q-confirm"
          role="alertdialog"
          aria-label={t('queue.action.cancel')}
          data-testid="queue-cancel-confirm"
        >
          <span>{t('queue.cancelConfirm', { id: cancelling.id, what: whatOf(cancelling) })}</span>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setCancelling(null);
              void run('printing.queue.cancel', cancelling.id);
            }}
            data-testid="queue-cancel-yes"
          >
            {t('queue.cancelYes')}
          </button>
          <button type="button" onClick={() => setCancelling(null)} autoFocus data-testid="queue-cancel-keep">
            {t('queue.cancelKeep')}
          </button>
        </div>
      )}
      <div className="q-table-wrap">
        <table className="q-table">
          <thead>
            <tr>
              <th>{t('queue.col.id')}</th>
              <th>{t('queue.col.what')}</th>
              <th>{t('queue.col.printer')}</th>
              <th>{t('queue.col.state')}</th>
              <th className="num">{t('queue.col.attempts')}</th>
              <th>{t('queue.col.reason')}</th>
              <th>{t('queue.col.when')}</th>
              <th>{t('queue.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr
                key={j.id}
                className={`q-${shownState(j)}`}
                data-testid="queue-row"
                data-job-id={j.id}
                data-state={j.state}
                data-printer-id={j.printerId ?? ''}
              >
                <td className="num">{j.id}</td>
                <td className="q-what">{whatOf(j)}</td>
                <td>{nameOf(j.printerId)}</td>
                <td>
                  <span className={`q-state q-state-${shownState(j)}`} data-testid="queue-state">
                    {t(`queue.state.${shownState(j)}`)}
                  </span>
                </td>
                <td className="num">{j.attempts}</td>
                <td className="q-reason" data-testid="queue-reason" title={j.reason ?? undefined}>
                  {reasonText(t, j.reasonCode, j.reason)}
                  {j.state === 'failed' && (
                    <span className="q-next">
                      {j.nextRetryAt
                        ? t('queue.nextRetry', { time: formatDateTime(j.nextRetryAt, language) })
                        : t('queue.waitsForYou')}
                    </span>
                  )}
                </td>
                <td>{formatDateTime(j.updatedAt, language)}</td>
                <td className="q-actions">
                  <JobActions
                    job={j}
                    printers={printers}
                    run={(m, id) => void run(m, id)}
                    move={(id, printerId) => void move(id, printerId)}
                    askCancel={setCancelling}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {jobs.length === 0 && !error && <p className="q-empty">{t('queue.empty')}</p>}
      </div>
    </section>
  );
}
