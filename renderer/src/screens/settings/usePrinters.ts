/** The station's printers for the settings screens, kept current by the pushed printer states. */
import { useCallback, useEffect, useState } from 'react';
import type { PrinterView } from '../../../../shared/contract/printing';
import { errorTextNow } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';

export function usePrinters() {
  const [printers, setPrinters] = useState<PrinterView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const r = await rpc.request('printing.printers.list', {});
    if (r.ok) {
      setPrinters(r.value);
      setError(null);
    } else setError(errorTextNow(r.error));
  }, []);
  useReconnected(reload);
  useEffect(() => {
    void reload();
    return rpc.on('printing.printerState', (status) =>
      setPrinters((list) => list?.map((p) => (p.id === status.printerId ? { ...p, status } : p)) ?? list),
    );
  }, [reload]);
  return { printers, error, reload };
}

export const BUILT_IN_PRINTERS = new Set(['virtual-zpl', 'virtual-pdf']);

export const printsZpl = (p: Pick<PrinterView, 'connection'>) =>
  p.connection.kind.startsWith('zpl') || p.connection.kind === 'virtual-zpl';

/** A stable printer id from its connection (the contract allows letters, digits, _ . : -). */
export function printerIdFor(c: PrinterView['connection']): string {
  const raw =
    c.kind === 'zpl-tcp'
      ? `tcp-${c.host}-${c.port}`
      : c.kind === 'zpl-usb'
        ? `usb-${c.device}`
        : 'queue' in c
          ? `${c.kind}-${c.queue}`
          : c.kind;
  return raw.replace(/[^\w.:-]+/g, '_').slice(0, 80);
}
