/** Settings → Printers: the printers with their state, adding and discovering more. */
import { useEffect, useState } from 'react';
import type { RoutingRules } from '../../../../shared/contract/printing';
import { useT } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { AddTcpPrinterForm, DiscoverPrinters } from './AddPrinterForm';
import { Notice } from './Field';
import { PrinterRow } from './PrinterRow';
import { usePrinters } from './usePrinters';

/** Printers the routing still sends to: removing one would leave labels with nowhere to go. */
function routedPrinters(r: RoutingRules | null): Set<string> {
  if (!r) return new Set();
  const ids = [r.defaultRoute?.printerId, r.protocolPrinterId, ...Object.values(r.carriers).map((c) => c.printerId)];
  return new Set(ids.filter((id): id is string => !!id));
}

export function PrintersSection() {
  const t = useT();
  const { printers, error, reload } = usePrinters();
  const [routes, setRoutes] = useState<RoutingRules | null>(null);
  useEffect(() => {
    void rpc.request('printing.routes.get', {}).then((r) => r.ok && setRoutes(r.value));
  }, []);
  const used = routedPrinters(routes);
  return (
    <div className="set-section" data-testid="settings-printers">
      <h2>{t('printers.title')}</h2>
      {error && <Notice kind="bad">{error}</Notice>}
      {!printers && !error && <p>{t('settings.loading')}</p>}
      <ul className="acct-list">
        {printers?.map((p) => (
          <PrinterRow key={p.id} printer={p} usedByRouting={used.has(p.id)} onChanged={() => void reload()} />
        ))}
      </ul>
      <div className="set-two">
        <AddTcpPrinterForm existing={printers ?? []} onAdded={() => void reload()} />
        <DiscoverPrinters existing={printers ?? []} onAdded={() => void reload()} />
      </div>
    </div>
  );
}
