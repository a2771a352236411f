/**
 * Extra services of the chosen transport (spec "Transport option" `extraServices`): implicit ones
 * shown as included; a chosen one disables what it bans (bans hold both ways); arguments asked for
 * with their examples; the price of each and the price with the chosen ones.
 */
import type { ShipmentDraft, TransportOption } from '../../../../shared/contract/newShipment';
import { bannedBy } from '../../../../shared/newShipment/draftRules';
import { priceWithChoices } from '../../../../shared/newShipment/pricing';
import { useLanguage, useT } from '../../i18n';
import { Field, GroupError } from './Field';
import { formatMoney } from './format';

interface Props {
  option: TransportOption;
  draft: ShipmentDraft;
  errors: Record<string, string>;
  onChange(services: ShipmentDraft['extraServices']): void;
}

export function ExtraServices({ option, draft, errors, onChange }: Props) {
  const t = useT();
  const lang = useLanguage((s) => s.language);
  const chosen = draft.extraServices.map((s) => s.code);
  const nameOf = (code: string) => option.extraServices.find((s) => s.code === code)?.name ?? code;
  const toggle = (code: string, on: boolean) =>
    onChange(
      on ? [...draft.extraServices, { code, arguments: {} }] : draft.extraServices.filter((s) => s.code !== code),
    );
  const setArg = (code: string, id: string, v: string) =>
    onChange(draft.extraServices.map((s) => (s.code === code ? { ...s, arguments: { ...s.arguments, [id]: v } } : s)));
  const withChoices = priceWithChoices(option, chosen);

  return (
    <div className="ns-services" data-testid="ns-services">
      <h3>{t('newShipment.services.title', { name: `${option.agent.name} · ${option.deliveryType.name}` })}</h3>
      <ul>
        {option.extraServices.map((s) => {
          const on = s.implicit || chosen.includes(s.code);
          const by = s.implicit ? null : bannedBy(s.code, chosen, option.extraServices);
          // COD is applied by the amount above (spec "Delivery: response fields"), never ticked here.
          const codOnly = s.code === 'cod' && !s.implicit;
          const disabled = s.implicit || codOnly || (!!by && !chosen.includes(s.code));
          const mine = draft.extraServices.find((x) => x.code === s.code);
          return (
            <li key={s.code} className={disabled ? 'off' : undefined} data-testid={`ns-service-row-${s.code}`}>
              <label title={s.description}>
                <input
                  type="checkbox"
                  data-testid={`ns-service-${s.code}`}
                  checked={on}
                  disabled={disabled}
                  onChange={(e) => toggle(s.code, e.target.checked)}
                />
                <span className="ns-service-name">{s.name}</span>
                <span className="ns-service-price">
                  {s.price ? formatMoney(s.price, lang) : t('newShipment.services.free')}
                </span>
              </label>
              <div className="ns-service-note">
                {s.implicit && <span className="ns-badge included">{t('newShipment.services.included')}</span>}
                {codOnly && <span className="ns-muted">{t('newShipment.services.codByAmount')}</span>}
                {by && (
                  <span className="ns-muted" data-testid={`ns-service-banned-${s.code}`}>
                    {t('newShipment.services.bannedBy', { other: nameOf(by) })}
                  </span>
                )}
              </div>
              <GroupError
                field={`extraServices.${s.code}`}
                error={errors[`extraServices.${s.code}`] ?? errors[`extraServices.${s.code}.code`]}
              />
              {mine &&
                s.arguments.map((a) => (
                  <Field
                    key={a.identifier}
                    field={`extraServices.${s.code}.arguments.${a.identifier}`}
                    label={a.name}
                    value={mine.arguments[a.identifier] ?? ''}
                    onChange={(v) => setArg(s.code, a.identifier, v)}
                    error={errors[`extraServices.${s.code}.arguments.${a.identifier}`]}
                    required
                    placeholder={a.example}
                    hint={t('newShipment.services.example', { example: a.example })}
                  />
                ))}
            </li>
          );
        })}
      </ul>
      <p className="ns-price-line" data-testid="ns-price-with-services">
        {t('newShipment.services.final')}{' '}
        <strong>
          {option.finalPrice ? formatMoney(option.finalPrice, lang) : t('newShipment.transport.contract')}
        </strong>
        {withChoices && withChoices.total !== option.finalPrice?.total && (
          <>
            {' · '}
            {t('newShipment.services.withChosen')} <strong>{formatMoney(withChoices, lang)}</strong>
          </>
        )}
      </p>
    </div>
  );
}
