/**
 * State of the New shipment form that outlives the screen: a worker who switches screens with an
 * F-key (to look a shipment up, to print) comes back to the draft as left, not to an empty form.
 * Kept in memory for the page's life; "New shipment" starts a fresh one on purpose.
 */
import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';

const kept = new Map<string, unknown>();

export function useKeptState<T>(key: string, initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() =>
    kept.has(key) ? (kept.get(key) as T) : typeof initial === 'function' ? (initial as () => T)() : initial,
  );
  const set = useCallback<Dispatch<SetStateAction<T>>>(
    (next) =>
      setValue((old) => {
        const v = typeof next === 'function' ? (next as (o: T) => T)(old) : next;
        kept.set(key, v);
        return v;
      }),
    [key],
  );
  return [value, set];
}
