/**
 * Shows a <dialog> as modal while the component lives, and calls onClose when the worker closes it
 * (Esc or a close button), so a dialog is one component mounted by its opener.
 */
import { useEffect, type RefObject } from 'react';

export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  onClose: () => void,
  afterOpen?: () => void,
): void {
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    afterOpen?.();
    d.addEventListener('close', onClose);
    return () => {
      d.removeEventListener('close', onClose);
      if (d.open) d.close();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- afterOpen runs at opening only
  }, [ref, onClose]);
}
