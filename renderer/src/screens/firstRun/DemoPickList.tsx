/**
 * First run: the demo pick list in a modal dialog, opened from the demo banner.
 * The pages are the PDF the office printer gets, shown unscaled (96 dpi, each bar a whole number
 * of pixels) so a scanner reads them straight off the screen. The dialog has its own scan box,
 * because a modal dialog takes the keyboard from the Station screen's.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DemoPickItem } from '../../../../shared/contract/demo';
import type { PreviewPage } from '../../../../shared/contract/printing';
import type { ScanOutcome } from '../../../../shared/contract/workflows';
import { useLanguage, useT, type T } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { errorText } from '../../i18n/errors';
import { useModalDialog } from '../../hooks/useModalDialog';
import { rpc } from '../../rpc/transport';
import { useNav } from '../../state/navStore';
import { useScanRoute } from '../../scan/scanCapture';
import { takeDeskScan } from '../../scan/deskScan';
import { shownCode } from '../../scan/shownCode';
import './firstRun.css';

/** The dialog's one status line: the last scan's outcome or the print's answer (one line, so nothing moves). */
type Result = { kind: 'scan' | 'print'; ok: boolean | null; text: string };

function resultOf(t: T, o: ScanOutcome): Result {
  const bad = (reason: string): Result => ({
    kind: 'scan',
    ok: false,
    text: t('firstRun.result.bad', { code: shownCode(o.code), reason }),
  });
  switch (o.kind) {
    case 'printed':
    case 'spooled':
    case 'queued':
    case 'printer_down':
      return {
        kind: 'scan',
        ok: true,
        text: t('firstRun.result.ok', {
          code: shownCode(o.code),
          carrier: o.shipment.carrier,
          recipient: o.shipment.recipientName,
        }),
      };
    case 'already_closed':
    case 'cancelled':
    case 'not_found':
      return bad(t(`firstRun.kind.${o.kind}` as MessageKey));
    case 'carrier_rejected':
      return bad([o.message, ...o.messages].join(' '));
    case 'error':
      return bad(errorText(t, o.error));
    case 'login_required':
      return bad(o.message);
    default:
      return bad(t('firstRun.kind.other'));
  }
}

export function DemoPickList({ onClose }: { onClose(): void }) {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const go = useNav((s) => s.go);
  const ref = useRef<HTMLDialogElement>(null);
  const [list, setList] = useState<{ items: DemoPickItem[]; pages: PreviewPage[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const [code, setCode] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const waiting = useRef<number | null>(null);
  const scanBox = useRef<HTMLInputElement>(null);

  // showModal focuses the first button; a scanner's keystrokes belong in the scan box.
  useModalDialog(ref, onClose, () => scanBox.current?.focus());

  /**
   * Loaded at opening, and again once a scan from it closed a shipment (a parcel
   * scanned while the list was open stayed on it, ready to be scanned twice). Not on every key: a
   * list that re-rendered while the worker aims at it would jump. The shown list stays until the
   * new one is here.
   */
  const load = useRef<() => void>(() => undefined);
  useEffect(() => {
    let live = true;
    load.current = () =>
      void rpc.request('demo.pickList', { language }).then((r) => {
        if (!live) return;
        if (r.ok) setList(r.value);
        else setError(errorText(t, r.error));
      });
    load.current();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language at opening; see above
  }, []);

  useEffect(
    () =>
      rpc.on('scan.outcome', (o) => {
        if (o.scanId !== waiting.current) return;
        setResult(resultOf(t, o));
        if (o.kind === 'printed' || o.kind === 'spooled' || o.kind === 'queued' || o.kind === 'printer_down')
          load.current();
      }),
    [t],
  );

  const submit = async (scanned = code) => {
    const c = scanned.trim();
    setCode('');
    if (!c || takeDeskScan(c)) return;
    setResult({ kind: 'scan', ok: null, text: t('firstRun.result.working', { code: shownCode(c) }) });
    const r = await rpc.request('scan.submit', { code: c });
    if (r.ok) waiting.current = r.value.scanId;
    else
      setResult({
        kind: 'scan',
        ok: false,
        text: t('firstRun.result.bad', { code: shownCode(c), reason: errorText(t, r.error) }),
      });
  };
  // A scan while a button of the dialog has the focus is still the dialog's scan.
  useScanRoute((c) => void submit(c));

  const print = async () => {
    setPrinting(true);
    const r = await rpc.request('demo.printPickList', { language });
    setPrinting(false);
    setResult(
      r.ok
        ? { kind: 'print', ok: true, text: t('firstRun.printed', { id: r.value.jobId }) }
        : { kind: 'print', ok: false, text: errorText(t, r.error) },
    );
  };

  return (
    <dialog ref={ref} className="fr-dialog" data-testid="demo-pick-list" aria-labelledby="fr-title">
      <header className="fr-head">
        <div className="fr-titles">
          <h2 id="fr-title">{t('firstRun.title')}</h2>
          <span className="fr-count" data-testid="demo-pick-count">
            {list ? t('firstRun.count', { n: list.items.length }) : '\u00a0'}
          </span>
        </div>
        <span className="fr-spacer" />
        <button
          type="button"
          onClick={() => void print()}
          disabled={printing || !list || list.items.length === 0}
          data-testid="demo-pick-print"
        >
          {printing ? t('firstRun.printing') : t('firstRun.print')}
        </button>
        <button
          type="button"
          onClick={() => {
            ref.current?.close();
            go('station');
          }}
          data-testid="demo-pick-station"
        >
          {t('firstRun.toStation')} <kbd>F1</kbd>
        </button>
        <button
          type="button"
          onClick={() => ref.current?.close()}
          aria-label={t('firstRun.close')}
          title={t('firstRun.close')}
          data-testid="demo-pick-close"
        >
          ✕ <kbd>Esc</kbd>
        </button>
      </header>
      <div className="fr-top">
        <p className="fr-intro">{t('firstRun.intro')}</p>
        <label className="fr-scan">
          <span>{t('firstRun.scanLabel')}</span>
          <input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void submit();
              }
            }}
            ref={scanBox}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            data-testid="demo-pick-scan"
            data-scan-line
          />
        </label>
        <p
          className={`fr-result ${result?.ok === true ? 'ok' : result?.ok === false ? 'bad' : ''}`}
          aria-live="polite"
          data-testid="demo-pick-result"
          data-kind={result?.kind}
          data-ok={result ? String(result.ok) : undefined}
        >
          {result ? result.text : t('firstRun.scanHint')}
        </p>
      </div>
      <div className="fr-body">
        {error && (
          <p className="fr-error" role="alert" data-testid="demo-pick-error">
            {error}
          </p>
        )}
        {!error && !list && <p className="loading">{t('firstRun.loading')}</p>}
        {list && list.items.length === 0 && <p className="fr-empty">{t('firstRun.empty')}</p>}
        {list && list.items.length > 0 && (
          <>
            {list.pages.map((pg, i) => (
              <img
                key={i}
                src={`data:image/png;base64,${pg.png}`}
                width={pg.width}
                height={pg.height}
                alt={`${t('firstRun.title')} ${i + 1} / ${list.pages.length}`}
                data-testid="demo-pick-page"
              />
            ))}
            <table className="visually-hidden" data-testid="demo-pick-items">
              <thead>
                <tr>
                  <th>{t('firstRun.col.code')}</th>
                  <th>{t('firstRun.col.carrier')}</th>
                  <th>{t('firstRun.col.recipient')}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((it) => (
                  <tr key={it.deliveryId} data-code={it.code}>
                    <td>{it.code}</td>
                    <td>{it.carrier}</td>
                    <td>{it.recipientName}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </dialog>
  );
}

/** The demo banner's button (App.tsx): opens the pick list; the dialog lives only while open. */
export function DemoPickListButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    setOpen(false);
    // The dialog gives the focus back to this button, where a scanner's Enter would open it again:
    // the station's scan box takes it instead (scans are recognised anywhere, but this is where they show).
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-testid="scan-input"]')?.focus());
  }, []);
  return (
    <>
      <button type="button" className="fr-open" onClick={() => setOpen(true)} data-testid="demo-pick-open">
        {t('firstRun.open')}
      </button>
      {open && <DemoPickList onClose={close} />}
    </>
  );
}
