/**
 * The transport options for this shipment side by side (spec "Transport option"): carrier,
 * delivery type, pick-up and delivery windows, insurance, base price, fees, total and the final
 * price (total + implicit extra services), cheapest and fastest marked. Choosing one fills the
 * carrier and delivery type of the shipment.
 */
import type { TransportOption } from '../../../../shared/contract/newShipment';
import { useLanguage, useT } from '../../i18n';
import { formatAmount, formatMoney, formatWindow } from './format';

interface Props {
  options: TransportOption[];
  chosen: number | null;
  onChoose(i: number): void;
}

export function TransportOptions({ options, chosen, onChoose }: Props) {
  const t = useT();
  const lang = useLanguage((s) => s.language);
  if (options.length === 0)
    return (
      <p className="ns-muted" data-testid="ns-no-options">
        {t('newShipment.transport.none')}
      </p>
    );
  return (
    <div className="ns-options-wrap">
      <table className="ns-options" data-testid="ns-options">
        <thead>
          <tr>
            <th />
            <th>{t('newShipment.transport.carrier')}</th>
            <th>{t('newShipment.transport.pickUp')}</th>
            <th>{t('newShipment.transport.delivery')}</th>
            <th className="num">{t('newShipment.transport.base')}</th>
            <th className="num">{t('newShipment.transport.fees')}</th>
            <th className="num">{t('newShipment.transport.total')}</th>
            <th className="num">{t('newShipment.transport.final')}</th>
          </tr>
        </thead>
        <tbody>
          {options.map((o, i) => {
            const implicit = o.extraServices.filter((s) => s.implicit);
            return (
              <tr
                key={`${o.agent.code}/${o.deliveryType.code}`}
                className={i === chosen ? 'chosen' : undefined}
                data-testid="ns-option"
                data-type={o.deliveryType.code}
                onClick={() => onChoose(i)}
              >
                <td>
                  <input
                    type="radio"
                    name="ns-transport"
                    checked={i === chosen}
                    onChange={() => onChoose(i)}
                    aria-label={`${o.agent.name} ${o.deliveryType.name}`}
                    data-testid={`ns-choose-${o.deliveryType.code}`}
                  />
                </td>
                <td>
                  <div className="ns-carrier">
                    <strong>{o.agent.name}</strong> · {o.deliveryType.name}{' '}
                    <span className="ns-code">{o.deliveryType.code}</span>
                  </div>
                  <div className="ns-badges">
                    {o.cheapest && (
                      <span className="ns-badge cheap" data-testid="ns-badge-cheapest">
                        {t('newShipment.transport.cheapest')}
                      </span>
                    )}
                    {o.fastest && (
                      <span className="ns-badge fast" data-testid="ns-badge-fastest">
                        {t('newShipment.transport.fastest')}
                      </span>
                    )}
                    {o.deliveryType.phoneRequired && (
                      <span className="ns-badge">{t('newShipment.transport.phoneRequired')}</span>
                    )}
                    {o.deliveryType.dimensionsRequired && (
                      <span className="ns-badge">{t('newShipment.transport.dimensionsRequired')}</span>
                    )}
                  </div>
                  {o.insurance && <div className="ns-muted ns-small">{o.insurance}</div>}
                </td>
                <td className="ns-small">
                  {o.deliveryTime.pickUpFrom || o.deliveryTime.pickUpTo
                    ? formatWindow(o.deliveryTime.pickUpFrom, o.deliveryTime.pickUpTo, lang)
                    : t('newShipment.transport.noPickUp')}
                </td>
                <td className="ns-small">
                  {formatWindow(o.deliveryTime.minDeliveryFrom, o.deliveryTime.minDeliveryTo, lang)}
                  {o.deliveryTime.maxDeliveryTo !== o.deliveryTime.minDeliveryTo && (
                    <>
                      <br />
                      {t('newShipment.transport.latest')}{' '}
                      {formatWindow(o.deliveryTime.maxDeliveryFrom, o.deliveryTime.maxDeliveryTo, lang)}
                    </>
                  )}
                </td>
                <td className="num">{o.price?.base ? formatAmount(o.price.base, lang) : '—'}</td>
                <td className="num ns-small">
                  {o.price?.fees.length
                    ? o.price.fees.map((f) => (
                        <div key={`${f.category}-${f.categoryName}`}>
                          {f.categoryName} {formatAmount(f.fee, lang)}
                        </div>
                      ))
                    : '—'}
                </td>
                <td className="num">{o.price ? formatAmount(o.price.total, lang) : '—'}</td>
                <td className="num ns-final" data-testid="ns-final">
                  {o.finalPrice ? (
                    <strong>{formatMoney(o.finalPrice, lang)}</strong>
                  ) : (
                    <span className="ns-muted">{t('newShipment.transport.contract')}</span>
                  )}
                  {implicit.length > 0 && (
                    <div className="ns-muted ns-small">
                      {t('newShipment.transport.includes', { list: implicit.map((s) => s.name).join(', ') })}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
