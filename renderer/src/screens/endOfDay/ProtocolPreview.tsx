/** The pages of a collection protocol's PDF in a modal dialog (Esc closes it). */
import { useEffect, useRef, useState } from 'react';
import type { PreviewPage } from '../../../../shared/contract/printing';
import { errorTextNow, useT } from '../../i18n';
import { useModalDialog } from '../../hooks/useModalDialog';
import { rpc } from '../../rpc/transport';

export function ProtocolPreview(p: { collectionProtocolId: number; onClose(): void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const [pages, setPages] = useState<PreviewPage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { onClose, collectionProtocolId } = p;

  useModalDialog(ref, onClose);

  useEffect(() => {
    let live = true;
    void rpc.request('endOfDay.protocolPreview', { collectionProtocolId }).then((r) => {
      if (!live) return;
      if (r.ok) setPages(r.value);
      else setError(errorTextNow(r.error));
    });
    return () => {
      live = false;
    };
  }, [collectionProtocolId]);

  return (
    <dialog ref={ref} className="eod-dialog" data-testid="eod-preview-dialog" aria-labelledby="eod-preview-title">
      <header className="eod-dialog-head">
        <h2 id="eod-preview-title">{t('endOfDay.preview.title', { id: collectionProtocolId })}</h2>
        <button type="button" onClick={() => ref.current?.close()} autoFocus data-testid="eod-preview-close">
          {t('endOfDay.preview.close')}
        </button>
      </header>
      <div className="eod-dialog-body">
        {error && (
          <p className="eod-error-text" role="alert">
            {error}
          </p>
        )}
        {!error && !pages && <p className="loading">{t('endOfDay.preview.loading')}</p>}
        {pages?.map((pg, i) => (
          <img
            key={i}
            src={`data:image/png;base64,${pg.png}`}
            width={pg.width}
            height={pg.height}
            alt={`${i + 1} / ${pages.length}`}
            data-testid="eod-preview-page"
          />
        ))}
      </div>
    </dialog>
  );
}
