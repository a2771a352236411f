/**
 * Settings → Scanner: the command sheet (shared/scan/deskCodes.ts as an A4 PDF made by the core),
 * opened in a dialog like the demo pick list: its page at 96 dpi (whole-pixel bars, scannable off
 * the screen) and a print on the office printer route, in the UI language.
 */
import { useEffect, useRef, useState } from 'react';
import type { PreviewPage } from '../../../../shared/contract/printing';
import { useLanguage, useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { useModalDialog } from '../../hooks/useModalDialog';
import { rpc } from '../../rpc/transport';
import { Notice } from './Field';

function CommandSheetDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const ref = useRef<HTMLDialogElement>(null);
  const [pages, setPages] = useState<PreviewPage[] | null>(null);
  const [note, setNote] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [printing, setPrinting] = useState(false);
  useModalDialog(ref, onClose);

  useEffect(() => {
    let live = true;
    void rpc.request('commands.sheet', { language }).then((r) => {
      if (!live) return;
      if (r.ok) setPages(r.value.pages);
      else setNote({ kind: 'bad', text: errorText(t, r.error) });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language at opening
  }, []);

  const print = async () => {
    setPrinting(true);
    const r = await rpc.request('commands.printSheet', { language });
    setPrinting(false);
    setNote(
      r.ok
        ? { kind: 'ok', text: t('command.sheet.printed', { id: r.value.jobId }) }
        : { kind: 'bad', text: errorText(t, r.error) },
    );
  };

  return (
    <dialog ref={ref} className="command-sheet" data-testid="command-sheet" aria-labelledby="command-sheet-title">
      <header className="command-sheet-head">
        <h2 id="command-sheet-title">{t('command.sheet.title')}</h2>
        <span className="command-sheet-spacer" />
        <button
          type="button"
          onClick={() => void print()}
          disabled={printing || !pages}
          data-testid="command-sheet-print"
        >
          {printing ? t('command.sheet.printing') : t('command.sheet.print')}
        </button>
        <button type="button" onClick={() => ref.current?.close()} data-testid="command-sheet-close">
          {t('command.sheet.close')} <kbd>Esc</kbd>
        </button>
      </header>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <div className="command-sheet-body">
        {!pages && !note && <p className="loading">{t('command.sheet.loading')}</p>}
        {pages?.map((pg, i) => (
          <img
            key={i}
            src={`data:image/png;base64,${pg.png}`}
            width={pg.width}
            height={pg.height}
            alt={t('command.sheet.title')}
            data-testid="command-sheet-page"
          />
        ))}
      </div>
    </dialog>
  );
}

/** The Scanner section's part: what the sheet is, and the button that opens it. */
export function CommandSheetSection() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <div className="set-sub" data-testid="settings-command-sheet">
      <h2>{t('command.sheet.section')}</h2>
      <p className="set-hint">{t('command.sheet.about')}</p>
      <button type="button" onClick={() => setOpen(true)} data-testid="command-sheet-open">
        {t('command.sheet.open')}
      </button>
      {open && <CommandSheetDialog onClose={() => setOpen(false)} />}
    </div>
  );
}
