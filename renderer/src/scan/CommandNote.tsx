/**
 * What a command barcode did, in a short strip at the top of the window (whatever the screen, as
 * the command acted whatever the focus): green when done, grey when there was nothing to do, red
 * when refused (an unknown desk code) or failed. Hides itself after a while or on a click.
 */
import { useEffect } from 'react';
import { useCommandNote } from './deskCommand';

const SHOWN_MS = 6_000;

export function CommandNote() {
  const note = useCommandNote((s) => s.note);
  const hide = useCommandNote((s) => s.hide);
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(hide, note.tone === 'bad' ? 2 * SHOWN_MS : SHOWN_MS);
    return () => clearTimeout(timer);
  }, [note, hide]);
  if (!note) return null;
  return (
    <div
      className={`command-note tone-${note.tone}`}
      role={note.tone === 'bad' ? 'alert' : 'status'}
      data-testid="command-note"
      data-command={note.command}
      data-tone={note.tone}
      onClick={hide}
    >
      {note.text}
    </div>
  );
}
