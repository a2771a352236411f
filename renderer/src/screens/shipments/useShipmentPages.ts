/**
 * The shipment list of the current filters, read from the station cache (`shipments.query`) in
 * pages as rows come into view, so 10,000 shipments never travel at once. Changes pushed by the
 * core (`shipments.changed`) reload what is shown.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ShipmentSummary } from '../../../../shared/contract/shipments';
import type { ListFilters } from './filters';
import { errorTextNow } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';

export const PAGE = 200;

export interface ShipmentPages {
  total: number | null;
  /** Counts the times the list was read anew (new filters, a change in the cache). */
  version: number;
  error: string | null;
  rowAt(index: number): ShipmentSummary | undefined;
  /** Loads the pages covering rows first..last (exclusive). */
  ensure(first: number, last: number): void;
  /** The ids of rows first..last (inclusive), loading what is missing. */
  idsBetween(first: number, last: number): Promise<number[]>;
  /** Every id matching the filters (select all). */
  allIds(): Promise<number[]>;
  reload(): void;
}

export function useShipmentPages(filters: ListFilters): ShipmentPages {
  const key = JSON.stringify(filters);
  const pages = useRef(new Map<number, ShipmentSummary[]>());
  const loading = useRef(new Map<number, Promise<ShipmentSummary[]>>());
  const generation = useRef(0);
  const [total, setTotal] = useState<number | null>(null);
  // The newest total the cache answered, for allIds right after a reload (the state lags a render).
  const totalNow = useRef<number | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [, setTick] = useState(0);

  const load = useCallback(
    (page: number): Promise<ShipmentSummary[]> => {
      const have = pages.current.get(page);
      if (have) return Promise.resolve(have);
      const pending = loading.current.get(page);
      if (pending) return pending;
      const gen = generation.current;
      const p = rpc
        .request('shipments.query', { ...(JSON.parse(key) as ListFilters), offset: page * PAGE, limit: PAGE })
        .then((r) => {
          loading.current.delete(page);
          if (gen !== generation.current) return [];
          if (!r.ok) {
            setError(errorTextNow(r.error));
            return [];
          }
          setError(null);
          pages.current.set(page, r.value.items);
          totalNow.current = r.value.total;
          setTotal(r.value.total);
          setTick((n) => n + 1);
          return r.value.items;
        });
      loading.current.set(page, p);
      return p;
    },
    [key],
  );

  const reset = useCallback(() => {
    generation.current++;
    pages.current = new Map();
    loading.current = new Map();
    setVersion((v) => v + 1);
  }, []);

  // New filters: start over from the first page.
  useEffect(() => {
    reset();
    totalNow.current = null;
    setTotal(null);
    void load(0);
  }, [key, load, reset]);

  // The cache changed (sync, close, cancel, another desk): read the rows in view again.
  const reload = useCallback(() => {
    const shown = [...pages.current.keys()];
    reset();
    void Promise.all((shown.length ? shown : [0]).map((p) => load(p)));
  }, [load, reset]);
  useEffect(() => rpc.on('shipments.changed', () => reload()), [reload]);
  useReconnected(reload);

  const ensure = useCallback(
    (first: number, last: number) => {
      for (let p = Math.floor(first / PAGE); p <= Math.floor(Math.max(first, last - 1) / PAGE); p++) void load(p);
    },
    [load],
  );

  const idsBetween = useCallback(
    async (first: number, last: number) => {
      const [a, b] = first <= last ? [first, last] : [last, first];
      const out: number[] = [];
      for (let p = Math.floor(a / PAGE); p <= Math.floor(b / PAGE); p++) {
        const rows = await load(p);
        rows.forEach((r, i) => {
          const idx = p * PAGE + i;
          if (idx >= a && idx <= b) out.push(r.deliveryId);
        });
      }
      return out;
    },
    [load],
  );

  const allIds = useCallback(async () => {
    const first = await load(0);
    const n = totalNow.current ?? first.length;
    return idsBetween(0, Math.max(0, n - 1));
  }, [load, idsBetween]);

  return {
    total,
    version,
    error,
    rowAt: (i) => pages.current.get(Math.floor(i / PAGE))?.[i % PAGE],
    ensure,
    idsBetween,
    allIds,
    reload,
  };
}
