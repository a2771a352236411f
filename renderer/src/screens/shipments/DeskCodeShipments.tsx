/**
 * The cached shipments with a key a scan reads as a desk code (a command barcode, a badge): their
 * label can never be closed by a scan (the desk acts on the code as a command would, and names the
 * shipment instead), so they are named here, where the worker can close and print them. The list
 * is read when the screen opens and whenever cached shipments change (a sync, a close).
 */
import { useEffect, useState } from 'react';
import type { DeskCodeKeyShipment } from '../../../../shared/contract/deskCommands';
import { useT } from '../../i18n';
import { rpc } from '../../rpc/transport';

/** The key as the service stores it, its control characters shown as their Unicode pictures (␂). */
function visibleKey(code: string): string {
  // eslint-disable-next-line no-control-regex
  return code.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)),
  );
}

export function DeskCodeShipments(p: { onSelect(deliveryId: number): void }) {
  const t = useT();
  const [shipments, setShipments] = useState<DeskCodeKeyShipment[]>([]);
  useEffect(() => {
    const load = () =>
      void rpc.request('commands.deskCodeShipments', {}).then((r) => r.ok && setShipments(r.value.shipments));
    load();
    return rpc.on('shipments.changed', load);
  }, []);
  if (!shipments.length) return null;
  return (
    <div className="sh-deskcodes" role="alert" data-testid="desk-code-shipments">
      <strong>{t('shipments.deskCode.title')}</strong> {t('shipments.deskCode.about')}
      <ul>
        {shipments.map((s) => (
          <li key={s.deliveryId} data-delivery-id={s.deliveryId}>
            {t(`shipments.deskCode.${s.key}`, {
              id: s.deliveryId,
              recipient: s.recipientName || '—',
              code: visibleKey(s.code),
            })}{' '}
            <button type="button" onClick={() => p.onSelect(s.deliveryId)}>
              {t('shipments.deskCode.select')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
