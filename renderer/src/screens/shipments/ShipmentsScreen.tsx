/**
 * Shipments: the cached shipments of the active company in a virtual list with
 * filters and multi-select, the actions on the selection, a detail view, and Sync now.
 * Keyboard: ↑/↓ move, Shift+↑/↓ extend, Space toggles, Ctrl+A selects all, Enter opens the detail,
 * Esc closes it.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { CachedCollectionPlace, ShipmentSummary, SyncProgress } from '../../../../shared/contract/shipments';
import { useLanguage, useT } from '../../i18n';
import { errorText } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';
import { ActionResults, ShipmentActionsBar, type ActionReport } from './ShipmentActionsBar';
import { ShipmentDetail } from './ShipmentDetail';
import { TrailExport } from './TrailExport';
import { DeskCodeShipments } from './DeskCodeShipments';
import { noFilters, toQuery, type FilterValues } from './filters';
import { ShipmentFilters } from './ShipmentFilters';
import { formatDate, formatDecimal, stateClass, stateName } from './format';
import { clickRow, emptySelection, selectAll, type Selection } from './selection';
import { useFillHeight } from './useFillHeight';
import { useShipmentPages, type ShipmentPages } from './useShipmentPages';
import type { NamedParcel } from '../../reprint/reprintSubject';
import { VirtualList } from './VirtualList';
import { useScanRoute } from '../../scan/scanCapture';
import { shownCode } from '../../scan/shownCode';
import './shipments.css';

const ROW = 34;

function SyncButton() {
  const t = useT();
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const [running, setRunning] = useState(false);
  useEffect(() => rpc.on('shipments.syncProgress', (p) => setProgress(p)), []);
  async function sync() {
    setRunning(true);
    const r = await rpc.request('shipments.sync', {});
    if (r.ok) setProgress(r.value);
    else
      setProgress({
        accountId: '',
        phase: 'failed',
        pages: 0,
        requests: 0,
        notModified: 0,
        stored: 0,
        cursor: 0,
        error: r.error,
      });
    setRunning(false);
  }
  const text = !progress
    ? ''
    : progress.phase === 'running'
      ? t('shipments.syncing', { pages: progress.pages, stored: progress.stored })
      : progress.phase === 'done'
        ? t('shipments.syncDone', { stored: progress.stored })
        : t('shipments.syncFailed', { message: progress.error ? errorText(t, progress.error) : '' });
  return (
    <span className="sh-sync">
      <button type="button" onClick={() => void sync()} disabled={running} data-testid="sync-now">
        {t('shipments.sync')}
      </button>
      <span
        className={progress?.phase === 'failed' ? 'bad' : ''}
        role="status"
        data-testid="sync-progress"
        data-phase={progress?.phase ?? ''}
      >
        {text}
      </span>
    </span>
  );
}

/** Carriers to filter by: those of the cached shipments (the first 500 are enough to know them). */
function useCarriers(): string[] {
  const [carriers, setCarriers] = useState<string[]>([]);
  useEffect(() => {
    const load = () =>
      void rpc.request('shipments.query', { limit: 500 }).then((r) => {
        if (r.ok)
          setCarriers((old) =>
            [...new Set([...old, ...r.value.items.map((i) => i.agent).filter((a): a is string => !!a)])].sort(),
          );
      });
    load();
    return rpc.on('shipments.changed', load);
  }, []);
  return carriers;
}

function usePlaces(): CachedCollectionPlace[] {
  const [places, setPlaces] = useState<CachedCollectionPlace[]>([]);
  useEffect(() => {
    void rpc.request('collectionPlaces.list', {}).then((r) => r.ok && setPlaces(r.value));
  }, []);
  return places;
}

function RowView(p: {
  row: ShipmentSummary | undefined;
  index: number;
  selected: boolean;
  cursor: boolean;
  language: string;
  onClick(e: MouseEvent, index: number, id: number): void;
  onOpen(id: number): void;
}) {
  const t = useT();
  const r = p.row;
  if (!r) return <div className="sh-row sh-grid placeholder" aria-hidden="true" />;
  return (
    <div
      className={`sh-row sh-grid${p.selected ? ' selected' : ''}${p.cursor ? ' cursor' : ''}`}
      role="option"
      aria-selected={p.selected}
      data-testid="shipment-row"
      data-delivery-id={r.deliveryId}
      onMouseDown={(e) => e.shiftKey && e.preventDefault()}
      onClick={(e) => p.onClick(e, p.index, r.deliveryId)}
      onDoubleClick={() => p.onOpen(r.deliveryId)}
    >
      <span className="check" aria-hidden="true">
        {p.selected ? '✔' : ''}
      </span>
      <span className="num">{r.deliveryId}</span>
      <span className="ellipsis">{r.externalId ?? '—'}</span>
      <span className="carrier">{r.agent ?? '—'}</span>
      <span className="ellipsis">{r.recipientName || '—'}</span>
      <span className="ellipsis c-city">{r.recipientCity ?? '—'}</span>
      <span className="num">{r.packageCount}</span>
      <span className="num">{r.cod ? formatDecimal(r.cod, r.codCurrency, p.language) : ''}</span>
      <span>
        <span className={`st ${stateClass(r.state)}`}>{stateName(t, r.state)}</span>
      </span>
      <span className="c-created">{formatDate(r.created, p.language)}</span>
    </div>
  );
}

/** Selected rows as the worker knows them; one not loaded (select all over many pages) by its number. */
function parcelsOf(list: ShipmentPages, count: number, ids: readonly number[]): NamedParcel[] {
  const rows = new Map<number, ShipmentSummary>();
  for (let i = 0; i < count; i++) {
    const r = list.rowAt(i);
    if (r) rows.set(r.deliveryId, r);
  }
  return ids.map((id) => {
    const r = rows.get(id);
    return r
      ? { code: r.externalId ?? r.deliveryNumber ?? String(id), recipient: r.recipientName || null }
      : { code: String(id), recipient: null };
  });
}

export function ShipmentsScreen() {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [filters, setFilters] = useState<FilterValues>(noFilters);
  const query = useMemo(() => toQuery(filters), [filters]);
  const list = useShipmentPages(query);
  const carriers = useCarriers();
  const places = usePlaces();
  const [sel, setSel] = useState<Selection>(emptySelection);
  const [cursor, setCursor] = useState<number | null>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const [report, setReport] = useState<ActionReport | null>(null);
  const listBox = useRef<HTMLDivElement>(null);
  const height = useFillHeight(listBox);
  const count = list.total ?? 0;

  // New filters: a new list, nothing selected that cannot be seen.
  useEffect(() => {
    setSel(emptySelection);
    setCursor(null);
  }, [query]);

  const selected = useMemo(() => [...sel.ids], [sel]);

  // Only what the worker can see is selected, so only that is acted on: when the
  // list is read anew (a sync, a close at the desk, a cancel elsewhere), a selected shipment that no
  // longer matches the filters is deselected — unless its detail is open, where the worker sees it.
  const hasSelection = sel.ids.size > 0;
  const { allIds, version } = list;
  useEffect(() => {
    if (!hasSelection) return;
    let current = true;
    void allIds().then((ids) => {
      if (!current) return;
      const seen = new Set(ids);
      setSel((s) => {
        const kept = [...s.ids].filter((id) => seen.has(id) || id === detail);
        return kept.length === s.ids.size ? s : { ids: new Set(kept), anchor: null };
      });
    });
    return () => {
      current = false;
    };
  }, [allIds, version, detail, hasSelection]);

  // A scan on this screen finds its shipment and selects it, brings its row into view and gives the
  // list the keys (Enter opens its detail). Its note speaks of that selection: it goes when the
  // selection changes (a click, an arrow key, new filters), so it never names a row no longer picked.
  const [scanNote, setScanNote] = useState<{ ok: boolean; text: string; sel: Selection } | null>(null);
  const [reveal, setReveal] = useState(0);
  const selNow = useRef(sel);
  selNow.current = sel;
  useScanRoute((scanned) => {
    const code = shownCode(scanned);
    const note = (ok: boolean, text: string, s: Selection = selNow.current) => setScanNote({ ok, text, sel: s });
    void rpc.request('shipments.lookup', { code: scanned.slice(0, 500) }).then(async (r) => {
      if (!r.ok) return note(false, t('shipments.scan.invalid', { code, message: errorText(t, r.error) }));
      const v = r.value;
      if (v.kind === 'not_found') return note(false, t('shipments.scan.notFound', { code }));
      if (v.kind === 'invalid') return note(false, t('shipments.scan.invalid', { code, message: v.message }));
      const inList = await list.allIds();
      if (v.kind === 'ambiguous') {
        // Only the candidates the filters show: a hidden row is never selected.
        const s = selectAll(v.candidates.map((c) => c.shipment.deliveryId).filter((id) => inList.includes(id)));
        setSel(s);
        return note(true, t('shipments.scan.ambiguous', { code, n: v.candidates.length }), s);
      }
      const id = v.shipment.deliveryId;
      const index = inList.indexOf(id);
      if (index < 0) {
        // Its detail opens, and the selection moves to it: the actions act on the shipment in sight.
        const s = { ids: new Set([id]), anchor: null };
        setDetail(id);
        setCursor(null);
        setSel(s);
        return note(true, t('shipments.scan.notInList', { code, id }), s);
      }
      const s = { ids: new Set([id]), anchor: index };
      setCursor(index);
      setReveal((n) => n + 1);
      setSel(s);
      // An open detail follows the scan, so it never shows one shipment while another is selected.
      setDetail((d) => (d === null ? null : id));
      note(true, t('shipments.scan.found', { code, id }), s);
    });
  });
  const shownNote = scanNote && scanNote.sel === sel ? scanNote : null;

  const onRowClick = useCallback(
    async (e: MouseEvent, index: number, id: number) => {
      const mods = { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey };
      setCursor(index);
      const range = mods.shift && sel.anchor !== null ? await list.idsBetween(sel.anchor, index) : undefined;
      setSel((s) => clickRow(s, index, id, mods, range));
    },
    [sel.anchor, list],
  );

  async function onKey(e: KeyboardEvent<HTMLDivElement>) {
    if (count === 0) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      setSel(selectAll(await list.allIds()));
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = Math.min(count - 1, Math.max(0, (cursor ?? -1) + (e.key === 'ArrowDown' ? 1 : -1)));
      setCursor(next);
      const row = list.rowAt(next);
      if (!row || e.ctrlKey || e.metaKey) return;
      const range = e.shiftKey && sel.anchor !== null ? await list.idsBetween(sel.anchor, next) : undefined;
      setSel((s) => clickRow(s, next, row.deliveryId, { shift: e.shiftKey, toggle: false }, range));
      return;
    }
    const row = cursor !== null ? list.rowAt(cursor) : undefined;
    if (e.key === ' ' && row && cursor !== null) {
      e.preventDefault();
      setSel((s) => clickRow(s, cursor, row.deliveryId, { shift: false, toggle: true }));
    } else if (e.key === 'Enter' && row) {
      e.preventDefault();
      setDetail(row.deliveryId);
    } else if (e.key === 'Escape' && detail !== null) {
      setDetail(null);
    }
  }

  const allSelected = count > 0 && sel.ids.size >= count;
  return (
    <section className="shipments" aria-label={t('shipments.title')} data-testid="screen-shipments">
      <div className="sh-top">
        <h1>{t('shipments.title')}</h1>
        <span className="sh-count" data-testid="shipments-count" data-total={count} data-selected={sel.ids.size}>
          {list.total === null ? t('shipments.loading') : t('shipments.count', { n: count, selected: sel.ids.size })}
        </span>
        <span className="spacer" />
        <TrailExport />
        <SyncButton />
      </div>
      <ShipmentFilters value={filters} onChange={setFilters} carriers={carriers} places={places} />
      <ShipmentActionsBar
        selected={selected}
        parcelsOf={(ids) => parcelsOf(list, count, ids)}
        onDetail={() => selected[0] !== undefined && setDetail(selected[0])}
        onReport={setReport}
      />
      {shownNote && (
        <p className={shownNote.ok ? 'sh-scan' : 'sh-scan bad'} role="status" data-testid="shipments-scan">
          {shownNote.text}
        </p>
      )}
      {report && <ActionResults report={report} onDismiss={() => setReport(null)} />}
      <DeskCodeShipments
        onSelect={(id) => {
          // As a scan of a row outside the list does: its detail opens and the actions act on it.
          setSel({ ids: new Set([id]), anchor: null });
          setCursor(null);
          setDetail(id);
        }}
      />
      {list.error && (
        <p className="bad" role="alert">
          {list.error}
        </p>
      )}
      <div className="sh-body" ref={listBox} style={height ? { height } : undefined}>
        <div className={detail === null ? 'sh-list' : 'sh-list narrow'}>
          <div className="sh-head sh-grid" role="presentation">
            <span>
              <input
                type="checkbox"
                aria-label={allSelected ? t('shipments.selectNone') : t('shipments.selectAll')}
                title={allSelected ? t('shipments.selectNone') : t('shipments.selectAll')}
                checked={allSelected}
                onChange={() => void list.allIds().then((ids) => setSel(allSelected ? emptySelection : selectAll(ids)))}
                data-testid="select-all"
              />
            </span>
            <span className="num">{t('shipments.col.id')}</span>
            <span>{t('shipments.col.order')}</span>
            <span>{t('shipments.col.carrier')}</span>
            <span>{t('shipments.col.recipient')}</span>
            <span className="c-city">{t('shipments.col.city')}</span>
            <span className="num">{t('shipments.col.packages')}</span>
            <span className="num">{t('shipments.col.cod')}</span>
            <span>{t('shipments.col.state')}</span>
            <span className="c-created">{t('shipments.col.created')}</span>
          </div>
          {list.total === 0 ? (
            <p className="sh-empty">{t('shipments.empty')}</p>
          ) : (
            <VirtualList
              count={count}
              rowHeight={ROW}
              height={Math.max(120, (height ?? 400) - ROW)}
              onRange={list.ensure}
              scrollToIndex={cursor}
              revealSeq={reveal}
              focusSeq={reveal}
              onKeyDown={(e) => void onKey(e)}
              label={t('shipments.title')}
              testId="shipments-list"
              renderRow={(i) => (
                <RowView
                  row={list.rowAt(i)}
                  index={i}
                  selected={!!list.rowAt(i) && sel.ids.has(list.rowAt(i)!.deliveryId)}
                  cursor={cursor === i}
                  language={language}
                  onClick={(e, index, id) => void onRowClick(e, index, id)}
                  onOpen={setDetail}
                />
              )}
            />
          )}
        </div>
        {detail !== null && <ShipmentDetail deliveryId={detail} onClose={() => setDetail(null)} />}
      </div>
    </section>
  );
}
