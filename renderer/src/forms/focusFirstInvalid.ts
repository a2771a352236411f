/**
 * After a failed save, the first field the form marks invalid, in the order the worker reads the
 * form, takes the focus: not the first in the order the checks ran, which sent
 * the cursor to a field that was fine. It runs once the errors are on screen (the next frame), so
 * the fields' `aria-invalid` are those of this save.
 *
 * A frame can come late (a busy machine, a page in the background). If the worker has moved the
 * cursor in the meantime, to the field they are now correcting, the late frame leaves it there:
 * taking it back sent the rest of their typing into another field.
 */
export function focusFirstInvalid(root: HTMLElement | null, fallback?: () => void): void {
  const focusedWhenAsked = document.activeElement;
  requestAnimationFrame(() => {
    if (document.activeElement !== focusedWhenAsked) return;
    const el = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (el) el.focus();
    else fallback?.();
  });
}
