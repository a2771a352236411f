/**
 * The state of the printer(s) labels go to, next to the scan box: the worker sees "printer
 * offline: paper out" before scanning, not after. The printers come from the routing rules (the
 * default route and every carrier's), their states from `printing.printerState` events.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PrinterState as PrinterStateView, PrinterView, RoutingRules } from '../../../../shared/contract/printing';
import { useT } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { printerName } from '../../i18n/printerName';
import { reasonText } from '../../i18n/reasons';
import { rpc } from '../../rpc/transport';
import { useReconnected } from '../../rpc/useReconnected';

function routedPrinterIds(rules: RoutingRules): string[] {
  const ids = [rules.defaultRoute?.printerId, ...Object.values(rules.carriers).map((r) => r.printerId)];
  return [...new Set(ids.filter((id): id is string => !!id))];
}

export function PrinterState() {
  const t = useT();
  const [printers, setPrinters] = useState<PrinterView[] | null>(null);
  const [routed, setRouted] = useState<string[]>([]);

  const alive = useRef(true);
  const load = useCallback(async () => {
    const [rules, list] = await Promise.all([
      rpc.request('printing.routes.get', {}),
      rpc.request('printing.printers.list', {}),
    ]);
    if (!alive.current) return;
    if (rules.ok) setRouted(routedPrinterIds(rules.value));
    if (list.ok) setPrinters(list.value);
  }, []);
  // A printer that went off or came back while the page's socket was down: read again.
  useReconnected(load);

  useEffect(() => {
    alive.current = true;
    void load();
    const offState = rpc.on('printing.printerState', (st: PrinterStateView) =>
      setPrinters((ps) => ps?.map((p) => (p.id === st.printerId ? { ...p, status: st } : p)) ?? ps),
    );
    return () => {
      alive.current = false;
      offState();
    };
  }, [load]);

  if (!printers) return <div className="printer-state">{t('station.printer.loading')}</div>;
  const shown = printers.filter((p) => routed.includes(p.id));
  if (shown.length === 0) {
    return (
      <div className="printer-state bad" data-testid="station-printer" data-state="none">
        {t('station.printer.none')}
      </div>
    );
  }
  return (
    <div className="printer-state">
      <span className="muted">{t('station.printer.label')}:</span>
      {shown.map((p) => (
        <span
          key={p.id}
          className={`printer-chip state-${p.status.state}`}
          data-testid="station-printer"
          data-state={p.status.state}
          title={p.status.reason ?? undefined}
        >
          <span className="dot" aria-hidden /> {printerName(t, p)}: {t(`printerState.${p.status.state}` as MessageKey)}
          {p.status.state !== 'ready' && p.status.reason
            ? ` — ${reasonText(t, p.status.reasonCode, p.status.reason)}`
            : ''}
        </span>
      ))}
    </div>
  );
}
