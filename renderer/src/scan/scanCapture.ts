/**
 * Scanner input wherever the focus is. One
 * window-level keydown listener in the capture phase sees every keystroke before any field,
 * dropdown or button does, and groups them into bursts (scanBurst.ts). A fast burst ending with
 * Enter is a scan: none of its keys does what it would have done (a dropdown keeps its choice, a
 * button is not pressed, a field gets back the value it had before the burst), and the code goes
 * to the screen's own scan route (Shipments: find and select; Tracking: look up; the demo pick
 * list: its scan box) or, by default, to the station's scan line.
 *
 * Hand typing keeps working because nothing is taken from a text field while it is typed: every
 * key goes in as usual, the field's value before each key is noted, and only when an Enter ends a
 * burst that was a scan is the field put back as it was before the scan's first key. Whether it
 * was a scan is judged by the keys' own time stamps over the whole burst (scanBurst.ts), so a busy
 * page that handles the keys late still sees a scanner's pace.
 *
 * Elsewhere a key has an effect at once that cannot be undone: a dropdown's type-ahead would
 * switch the company at the first letter of a barcode, a Space presses a button or ticks a row.
 * There the characters are held from the first one: a dropdown gets them as type-ahead once the
 * keys stop without a scan's Enter; on a button or the page they are dropped (they do nothing
 * there), except a lone first Space, which presses as always.
 *
 * Fields marked `data-scan-line` are scan boxes themselves (Station, Tracking, the pick list):
 * their keys are left alone, they handle Enter as they always did.
 */
import { useEffect, useRef } from 'react';
import { useScans } from '../state/scanStore';
import { takeDeskScan } from './deskScan';
import { useSettings } from '../state/settingsStore';
import { continues, defaultBurstRules, looksFast, scanOf, splitGapOf, type BurstRules, type Key } from './scanBurst';

export type ScanRoute = (code: string) => void;

/** Screens' routes, the newest mounted on top; the station's scan line under them all. */
const routes: { route: React.RefObject<ScanRoute> }[] = [];

/** A check a station scan passes first, as in the station's own scan box (the label check): true when it took the code; `next` is the scan line. */
type FirstStop = (code: string, next: (code: string) => void) => boolean;
const firstStops: FirstStop[] = [];

/** Registers a first stop for scans bound for the station line (screens/station/StationScreen.tsx). */
export function addStationFirstStop(stop: FirstStop) {
  if (!firstStops.includes(stop)) firstStops.push(stop);
}

function stationLine(code: string) {
  const scans = useScans.getState();
  if (scans.batchMode) return void scans.collect(code);
  if (!firstStops.some((stop) => stop(code, scans.submit))) scans.submit(code);
}

/**
 * A scan recognised anywhere: a desk command first (it acts as its key, whatever the screen),
 * then the top route (the newest screen that asked for scans), else the station line.
 */
function routeScan(code: string) {
  // A worker's badge or a command barcode acts wherever the focus is, before any screen sees it.
  if (takeDeskScan(code)) return;
  const top = routes[routes.length - 1];
  (top?.route.current ?? stationLine)(code);
}

/** While the calling component is mounted, scans go to `route` (the latest function given). */
export function useScanRoute(route: ScanRoute) {
  const ref = useRef(route);
  ref.current = route;
  useEffect(() => {
    const entry = { route: ref };
    routes.push(entry);
    return () => {
      const i = routes.indexOf(entry);
      if (i >= 0) routes.splice(i, 1);
    };
  }, []);
}

function rules(): BurstRules {
  return {
    ...defaultBurstRules,
    keyGapMs: useSettings.getState().settings?.scanner.keyGapMs ?? defaultBurstRules.keyGapMs,
  };
}

/** Inputs whose characters are typed text. */
const TEXT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number', '']);
/** Inputs that take characters their own way (date segments): also only put back after a scan. */
const OWN_WAY_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);
/** Keys a scanner may press between characters (Shift for capitals): neither part of a burst nor its end. */
const MODIFIERS = new Set(['Shift', 'CapsLock', 'NumLock', 'ScrollLock', 'AltGraph']);

type Kind = 'scan-line' | 'text' | 'select' | 'other';

function kindOf(el: Element | null): Kind {
  if (!el) return 'other';
  if (el.closest('[data-scan-line]')) return 'scan-line';
  if (el instanceof HTMLTextAreaElement) return 'text';
  if (el instanceof HTMLSelectElement) return 'select';
  if (el instanceof HTMLInputElement) return TEXT_TYPES.has(el.type) || OWN_WAY_TYPES.has(el.type) ? 'text' : 'other';
  if (el instanceof HTMLElement && el.isContentEditable) return 'text';
  return 'other';
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A field's value before a key, to put back if the key was a scan's. */
interface Snapshot {
  el: Field;
  value: string;
  start: number | null;
  end: number | null;
}

function snapshotOf(el: Element | null): Snapshot | null {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement))
    return null;
  let start: number | null = null;
  let end: number | null = null;
  if (!(el instanceof HTMLSelectElement)) {
    try {
      start = el.selectionStart;
      end = el.selectionEnd;
    } catch {
      // number and date inputs have no selection
    }
  }
  return { el, value: el.value, start, end };
}

/** Sets a field's value through the native setter, so React's onChange sees the change. */
function setValue(el: Field, value: string) {
  const proto =
    el instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : el instanceof HTMLSelectElement
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** Puts a field back as it was. */
function restore(s: Snapshot | null | undefined) {
  if (!s || s.el.value === s.value) return;
  setValue(s.el, s.value);
  if (s.el instanceof HTMLSelectElement) return;
  try {
    if (s.start !== null && s.end !== null) s.el.setSelectionRange(s.start, s.end);
  } catch {
    // no selection on this input type
  }
}

/** A dropdown's own type-ahead, for characters a person typed that were held: the first option starting with them. */
const typeAheadState = { text: '', at: 0 };
function typeAhead(select: HTMLSelectElement, chars: string) {
  const now = performance.now();
  // Like the browser's: letters typed within a second of each other are one search.
  typeAheadState.text = now - typeAheadState.at < 1000 ? typeAheadState.text + chars : chars;
  typeAheadState.at = now;
  const want = typeAheadState.text.toLocaleLowerCase();
  const options = [...select.options].filter((o) => !o.disabled);
  const hit =
    options.find((o) => o.text.trim().toLocaleLowerCase().startsWith(want)) ??
    options.find((o) => o.text.trim().toLocaleLowerCase().startsWith(chars.toLocaleLowerCase()));
  if (hit && hit.value !== select.value) setValue(select, hit.value);
}

/** Installs the listener for the page's life (App). */
export function useScanCapture() {
  useEffect(() => {
    /** The current burst: its keys, the focused element's value before each, and where they were typed. */
    let keys: Key[] = [];
    let snaps: (Snapshot | null)[] = [];
    let target: Element | null = null;
    /** Characters held from a dropdown while the burst might still be a scan. */
    let held = '';
    let timer: ReturnType<typeof setTimeout> | undefined;

    /** The held characters were a person's: a dropdown gets them as type-ahead. The burst itself stays (a late key may still join it). */
    const release = () => {
      clearTimeout(timer);
      const chars = held;
      held = '';
      if (chars && target instanceof HTMLSelectElement && target === document.activeElement) typeAhead(target, chars);
    };
    const end = () => {
      release();
      keys = [];
      snaps = [];
      target = null;
    };

    const onKeyDown = (e: KeyboardEvent) => {
      if (MODIFIERS.has(e.key)) return;
      const el = document.activeElement;
      const kind = kindOf(el);
      const r = rules();
      const at = e.timeStamp;
      if (kind === 'scan-line' || e.isComposing) return end();
      if (e.key === 'Enter' && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
        const scan = el === target ? scanOf(keys, at, r) : null;
        if (!scan) return end();
        // A scan: its Enter presses nothing, its characters leave no trace, it goes to its route.
        e.preventDefault();
        e.stopImmediatePropagation();
        clearTimeout(timer);
        held = '';
        restore(snaps[scan.from]);
        keys = [];
        snaps = [];
        target = null;
        routeScan(scan.code);
        return;
      }
      if (e.key.length !== 1 || e.ctrlKey || e.altKey || e.metaKey) return end();

      if (el !== target || !continues(keys[keys.length - 1]?.at, at, r)) {
        end();
        target = el;
      }
      keys.push({ char: e.key, at });
      snaps.push(snapshotOf(el));
      // Text goes in (and is put back after a scan); elsewhere the key would act at once, so it is held.
      const hold = kind === 'select' || (kind === 'other' && !(keys.length === 1 && e.key === ' '));
      if (hold) {
        e.preventDefault();
        e.stopPropagation();
        if (kind === 'select') held += e.key;
      }
      clearTimeout(timer);
      // While the keys come at a scanner's pace, held ones wait longer for the rest (a busy page may deliver them late).
      if (held) timer = setTimeout(release, looksFast(keys, r) ? 600 : splitGapOf(r) + 40);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('keydown', onKeyDown, true);
    };
  }, []);
}
