/**
 * After a failed save, the first field the form marks invalid, in the order the worker reads the
 * form, takes the focus: not the first in the order the checks ran, which sent
 * the cursor to a field that was fine. It runs once the errors are on screen (the next frame), so
 * the fields' `aria-invalid` are those of this save.
 */
export function focusFirstInvalid(root: HTMLElement | null, fallback?: () => void): void {
  requestAnimationFrame(() => {
    const el = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (el) el.focus();
    else fallback?.();
  });
}
