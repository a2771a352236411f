/**
 * A fixed-row-height virtual list: only the rows in view (plus a few) exist in the DOM, so 10,000
 * shipments scroll as smoothly as 10. Rows sit at `index * rowHeight`; the inner box has the full
 * height so the scrollbar is true.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  height: number;
  renderRow(index: number): ReactNode;
  /** Told which rows are (about to be) on screen, so their data can be loaded. */
  onRange?(first: number, last: number): void;
  /** Scrolls so this row is visible (keyboard cursor, a scanned row). */
  scrollToIndex?: number | null;
  /** Changed to ask for `scrollToIndex` to be brought into view again (a scan of the row already at the cursor). */
  revealSeq?: number;
  /** Takes the list's focus, so the keys (Enter: the detail) act on the row just picked (a scan). */
  focusSeq?: number;
  onKeyDown?(e: KeyboardEvent<HTMLDivElement>): void;
  overscan?: number;
  className?: string;
  label: string;
  testId?: string;
}

export function VirtualList(p: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const overscan = p.overscan ?? 8;
  const first = Math.max(0, Math.floor(scrollTop / p.rowHeight) - overscan);
  const last = Math.min(p.count, Math.ceil((scrollTop + p.height) / p.rowHeight) + overscan);
  const { onRange } = p;

  useEffect(() => onRange?.(first, last), [first, last, onRange]);

  // Also when the list's height changes: the note a scan puts above the list shrinks it in the next
  // layout, which would hide again a row just brought into view at its bottom edge.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || p.scrollToIndex === null || p.scrollToIndex === undefined) return;
    const top = p.scrollToIndex * p.rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + p.rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + p.rowHeight - el.clientHeight;
  }, [p.scrollToIndex, p.rowHeight, p.height, p.revealSeq]);

  useEffect(() => {
    if (p.focusSeq) ref.current?.focus({ preventScroll: true });
  }, [p.focusSeq]);

  // A new result set starts at the top.
  useLayoutEffect(() => {
    if (ref.current && scrollTop > p.count * p.rowHeight) {
      ref.current.scrollTop = 0;
      setScrollTop(0);
    }
  }, [p.count, p.rowHeight, scrollTop]);

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} className="vrow" style={{ top: i * p.rowHeight, height: p.rowHeight }}>
        {p.renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      className={`vlist ${p.className ?? ''}`}
      style={{ height: p.height }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      tabIndex={0}
      role="listbox"
      aria-multiselectable="true"
      aria-label={p.label}
      onKeyDown={p.onKeyDown}
      data-testid={p.testId}
    >
      <div className="vlist-inner" style={{ height: p.count * p.rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
