/**
 * Sign-in by name and PIN, from the top bar. The PIN lives in this dialog's state only until it is
 * sent; a refusal (wrong PIN, too many tries) is shown here and signs nobody out.
 */
import { useCallback, useRef, useState } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../i18n';
import { useOperators } from '../state/operatorsStore';

const PIN = /^\d{4,8}$/;

export function PinDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const nameRef = useRef<HTMLSelectElement>(null);
  const pinRef = useRef<HTMLInputElement>(null);
  const operators = useOperators((s) => s.operators);
  const withPin = operators.filter((o) => o.hasPin);
  const [operatorId, setOperatorId] = useState<number | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => onClose(), [onClose]);
  useModalDialog(ref, close, () => nameRef.current?.focus());

  async function submit() {
    if (operatorId === null) return nameRef.current?.focus();
    if (!PIN.test(pin)) {
      setError(t('operators.pin.format'));
      return pinRef.current?.focus();
    }
    setBusy(true);
    const refused = await useOperators.getState().signInPin(operatorId, pin);
    setBusy(false);
    setPin('');
    if (refused) {
      setError(refused);
      pinRef.current?.focus();
    } else onClose();
  }

  return (
    <dialog ref={ref} className="op-dialog" data-testid="pin-dialog" aria-labelledby="op-pin-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h2 id="op-pin-title">{t('operators.pin.title')}</h2>
        {withPin.length === 0 ? (
          <p className="op-hint">{t('operators.pin.none')}</p>
        ) : (
          <>
            <label htmlFor="op-pin-who">{t('operators.pin.who')}</label>
            <select
              id="op-pin-who"
              ref={nameRef}
              value={operatorId ?? ''}
              onChange={(e) => {
                setOperatorId(e.target.value ? Number(e.target.value) : null);
                setError(null);
              }}
              data-testid="pin-operator"
            >
              <option value="">{t('operators.pin.choose')}</option>
              {withPin.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
            <label htmlFor="op-pin-pin">{t('operators.pin.pin')}</label>
            <input
              id="op-pin-pin"
              ref={pinRef}
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={8}
              value={pin}
              onChange={(e) => {
                setPin(e.target.value.replace(/\D/g, ''));
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'op-pin-error' : undefined}
              data-testid="pin-input"
            />
          </>
        )}
        <p className="op-error" id="op-pin-error" role="alert" data-testid="pin-error">
          {error ?? ''}
        </p>
        <p className="op-hint">{t('operators.pin.badgeHint')}</p>
        <div className="op-actions">
          {withPin.length > 0 && (
            <button type="submit" className="primary" disabled={busy || operatorId === null} data-testid="pin-submit">
              {t('operators.pin.submit')}
            </button>
          )}
          <button type="button" onClick={onClose} data-testid="pin-cancel">
            {t('operators.pin.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
