/**
 * The parcel's packages on the Station screen (packagesStore.ts), keyboard only. On the list of
 * boxes: ↑/↓ choose a box, Insert adds one, Delete removes the chosen one, Space weighs it on the
 * scale, Ctrl+S asks into how many boxes to split the parcel (type 2–9, Enter), Enter types the
 * chosen box's weight (Enter again: back to the list, the next box chosen), Ctrl+Enter sends, Esc
 * leaves with nothing sent. Every key has its command barcode (Settings → Scanner → Command sheet).
 *
 * No key is a character: off a text field the scan capture holds characters (they may be a
 * scanner's: scan/scanCapture.ts) and drops them, so a command barcode's `-` never removes a box;
 * only a lone first Space goes through, and no code begins with one.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useT } from '../i18n';
import { useModalDialog } from '../hooks/useModalDialog';
import { packages, usePackages, type BoxRow } from './packagesStore';
import './packages.css';

const FIELDS: (keyof BoxRow)[] = ['weight', 'length', 'width', 'height'];

export function PackagesHost() {
  const parcel = usePackages((s) => s.parcel);
  return parcel ? <PackagesPanel key={parcel.deliveryId} /> : null;
}

function listKey(e: React.KeyboardEvent, focusWeight: (i: number) => void): boolean {
  const { chosen } = usePackages.getState();
  if (e.ctrlKey || e.metaKey) {
    if (e.key === 'Enter') void packages.send();
    else if (e.key === 's' || e.key === 'S') packages.askSplit();
    else return false;
    return true;
  }
  if (e.altKey) return false;
  switch (e.key) {
    case 'Insert':
      packages.add();
      return true;
    case 'Delete':
      packages.remove();
      return true;
    case ' ':
      void packages.weigh();
      return true;
    case 'ArrowUp':
      packages.choose(chosen - 1);
      return true;
    case 'ArrowDown':
      packages.choose(chosen + 1);
      return true;
    case 'Enter':
      focusWeight(chosen);
      return true;
    case 'Escape':
      packages.leave();
      return true;
  }
  return false;
}

function PackagesPanel() {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const { parcel, rows, chosen, note, busy, splitting } = usePackages();
  const focusList = useCallback(() => list.current?.focus({ preventScroll: true }), []);
  useModalDialog(dialog, packages.leave, focusList);

  // A box added, removed or weighed: the list keeps the keys.
  useEffect(() => {
    if (!dialog.current?.contains(document.activeElement) || document.activeElement === dialog.current) focusList();
  }, [rows.length, focusList]);

  const focusWeight = (i: number) => {
    packages.choose(i);
    list.current?.querySelector<HTMLInputElement>(`[data-testid="package-weight-${i}"]`)?.focus();
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLDialogElement>) => {
    const field = e.target as HTMLElement;
    if (field.dataset.testid === 'packages-split-count') {
      if (e.key === 'Enter' || e.key === 'Escape') {
        e.preventDefault();
        if (e.key === 'Enter') packages.split(Number((field as HTMLInputElement).value.trim() || NaN));
        else usePackages.setState({ splitting: false, note: null });
        return focusList();
      }
      return;
    }
    if (field.tagName === 'INPUT') {
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        return void packages.send();
      }
      if (e.key === 'Enter' || e.key === 'Escape') {
        // Back to the list; Enter chooses the next box, ready to weigh or type.
        e.preventDefault();
        if (e.key === 'Enter') packages.choose(chosen + 1);
        return focusList();
      }
      return;
    }
    if (listKey(e, focusWeight)) e.preventDefault();
  };

  if (!parcel) return null;
  return (
    <dialog
      ref={dialog}
      className="packages-dialog"
      data-testid="packages-dialog"
      data-busy={busy}
      data-splitting={splitting}
      aria-labelledby="packages-title"
      onKeyDown={onKeyDown}
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="packages-title">{t('packages.title', { code: parcel.code })}</h2>
      <p className="packages-subject">
        {t('packages.subject', {
          recipient: parcel.recipientName,
          agent: parcel.agent,
          deliveryType: parcel.deliveryType,
        })}
        {' · '}
        {t(parcel.dimensionsRequired ? 'packages.dimensionsRequired' : 'packages.dimensionsOptional')}
      </p>
      <div
        className="packages-list"
        ref={list}
        tabIndex={0}
        role="listbox"
        aria-activedescendant={`package-row-${chosen}`}
        data-testid="packages-list"
      >
        <div className="packages-row packages-head" aria-hidden>
          <span>{t('packages.col.box')}</span>
          <span>{t('packages.col.weight')}</span>
          <span>{t('packages.col.length')}</span>
          <span>{t('packages.col.width')}</span>
          <span>{t('packages.col.height')}</span>
        </div>
        {rows.map((r, i) => (
          <div
            key={i}
            id={`package-row-${i}`}
            role="option"
            aria-selected={i === chosen}
            className={`packages-row ${i === chosen ? 'chosen' : ''}`}
            data-testid="package-row"
          >
            <span>{t('packages.box', { n: i + 1 })}</span>
            {FIELDS.map((f) => (
              <input
                key={f}
                className={f === 'weight' ? 'package-weight' : 'package-side'}
                data-testid={`package-${f}-${i}`}
                aria-label={`${t('packages.box', { n: i + 1 })}: ${t(`packages.col.${f}`)}`}
                inputMode={f === 'weight' ? 'decimal' : 'numeric'}
                value={r[f]}
                tabIndex={-1}
                onFocus={() => packages.choose(i)}
                onChange={(e) => packages.type(i, f, e.target.value)}
                autoComplete="off"
              />
            ))}
          </div>
        ))}
      </div>
      {splitting && (
        <label className="packages-split">
          {t('packages.split.ask')}
          <input
            data-testid="packages-split-count"
            inputMode="numeric"
            maxLength={2}
            autoFocus
            autoComplete="off"
            onBlur={() => usePackages.setState({ splitting: false })}
          />
        </label>
      )}
      <p
        className={`packages-note ${note?.tone ?? ''}`}
        role="status"
        data-testid="packages-note"
        data-tone={note?.tone ?? ''}
      >
        {note?.text ?? '\u00a0'}
      </p>
      <p className="packages-keys">
        <span>
          <kbd>Insert</kbd> {t('packages.key.add')}
        </span>
        <span>
          <kbd>Delete</kbd> {t('packages.key.remove')}
        </span>
        <span>
          <kbd>{t('packages.key.space')}</kbd> {t('packages.key.weigh')}
        </span>
        <span>
          <kbd>Ctrl+S</kbd> {t('packages.key.split')}
        </span>
        <span>
          <kbd>Enter</kbd> {t('packages.key.type')}
        </span>
        <span>
          <kbd>Ctrl+Enter</kbd> {t('packages.key.send')}
        </span>
        <span>
          <kbd>Esc</kbd> {t('packages.key.leave')}
        </span>
      </p>
    </dialog>
  );
}
