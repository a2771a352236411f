/**
 * Sender or recipient. The party type decides what is asked (spec "Party type rules"): a
 * collection place only by its identifier; an address with the person's names, address and phone
 * or e-mail; a pick-up place (recipient only) by its identifier plus the person, no address.
 */
import { useState } from 'react';
import type { PartyDraft, PartyTypeName } from '../../../../shared/contract/newShipment';
import type { CachedCollectionPlace } from '../../../../shared/contract/shipments';
import { useT } from '../../i18n';
import { AddressBook } from './AddressBook';
import { Field, GroupError } from './Field';

interface Props {
  role: 'sender' | 'recipient';
  party: PartyDraft;
  places: CachedCollectionPlace[];
  errors: Record<string, string>;
  onChange(party: PartyDraft): void;
  disabled?: boolean;
}

export function PartyFields({ role, party, places, errors, onChange, disabled }: Props) {
  const t = useT();
  const [book, setBook] = useState(false);
  const types: PartyTypeName[] =
    role === 'recipient' ? ['address', 'pickUpPlace', 'collectionPlace'] : ['collectionPlace', 'address'];
  const set = (k: keyof PartyDraft, v: string) => onChange({ ...party, [k]: v });
  const setAddr = (k: keyof PartyDraft['address'], v: string) =>
    onChange({ ...party, address: { ...party.address, [k]: v } });
  const err = (f: string) => errors[`${role}.${f}`];
  const personal = party.type !== 'collectionPlace';
  const f = (
    k: 'firstname' | 'surname' | 'contactPerson' | 'email' | 'phone',
    o: { required?: boolean; inputMode?: 'tel' | 'email'; className?: string } = {},
  ) => (
    <Field
      field={`${role}.${k}`}
      label={t(`newShipment.party.${k}`)}
      value={party[k]}
      onChange={(v) => set(k, v)}
      error={err(k)}
      disabled={disabled}
      {...o}
    />
  );

  return (
    <fieldset className="ns-card ns-party" data-testid={`ns-${role}`} disabled={disabled}>
      <legend>{t(role === 'sender' ? 'newShipment.sender' : 'newShipment.recipient')}</legend>
      <div className="ns-types" role="radiogroup" aria-label={t('newShipment.party.type')}>
        {types.map((ty) => (
          <label key={ty} className={party.type === ty ? 'ns-type on' : 'ns-type'}>
            <input
              type="radio"
              name={`${role}-type`}
              data-testid={`ns-${role}-type-${ty}`}
              checked={party.type === ty}
              onChange={() => onChange({ ...party, type: ty })}
            />
            {t(`newShipment.type.${ty}`)}
          </label>
        ))}
        {personal && (
          <button type="button" className="ns-link" data-testid={`ns-${role}-book`} onClick={() => setBook((b) => !b)}>
            {t('newShipment.book.open')}
          </button>
        )}
      </div>
      <GroupError field={`${role}.type`} error={err('type')} />
      {book && (
        <AddressBook
          // A sender is never a pick-up place: the sender's book lists addresses only.
          type={role === 'sender' ? 'address' : undefined}
          onClose={() => setBook(false)}
          onPick={(p) => {
            // A pick-up place stays one only for the recipient (spec "Party type rules").
            onChange({ ...p, type: role === 'sender' && p.type === 'pickUpPlace' ? 'address' : p.type });
            setBook(false);
          }}
        />
      )}

      {party.type === 'collectionPlace' && (
        <label className={`ns-field ns-wide ${err('collectionPlace') ? 'has-error' : ''}`}>
          <span className="ns-label">
            {t('newShipment.party.collectionPlace')}
            <span className="ns-req"> *</span>
          </span>
          <select
            data-testid={`ns-${role}.collectionPlace`}
            value={party.collectionPlace}
            onChange={(e) => set('collectionPlace', e.target.value)}
          >
            <option value="">{t('newShipment.party.choosePlace')}</option>
            {places
              .filter((p) => p.active || p.identificator === party.collectionPlace)
              .map((p) => (
                <option key={p.identificator} value={p.identificator}>
                  {p.identificator} — {[p.name, p.city].filter(Boolean).join(', ')}
                </option>
              ))}
          </select>
          {(() => {
            const place = places.find((p) => p.identificator === party.collectionPlace);
            if (!place) return null;
            return (
              <span className="ns-place" data-testid={`ns-${role}-place-address`}>
                {[place.street, [place.postalCode, place.city].filter(Boolean).join(' '), place.state]
                  .filter(Boolean)
                  .join(', ')}
                {(place.contactPerson || place.phone) && (
                  <span className="ns-muted"> · {[place.contactPerson, place.phone].filter(Boolean).join(', ')}</span>
                )}
              </span>
            );
          })()}
          {err('collectionPlace') && (
            <span className="ns-error" data-testid={`ns-error-${role}.collectionPlace`}>
              {err('collectionPlace')}
            </span>
          )}
        </label>
      )}

      {party.type === 'pickUpPlace' && (
        <Field
          field={`${role}.pickUpPlace`}
          label={t('newShipment.party.pickUpPlace')}
          value={party.pickUpPlace}
          onChange={(v) => set('pickUpPlace', v)}
          error={err('pickUpPlace')}
          required
          className="ns-wide"
          hint={t('newShipment.party.pickUpHint')}
        />
      )}

      {personal && (
        <div className="ns-grid">
          {f('firstname')}
          {f('surname', { required: true })}
          {f('contactPerson', { className: 'ns-wide' })}
          {f('phone', { inputMode: 'tel' })}
          {f('email', { inputMode: 'email' })}
        </div>
      )}

      {party.type === 'address' && (
        <div className="ns-grid ns-address">
          <Field
            field={`${role}.address.street`}
            label={t('newShipment.party.street')}
            value={party.address.street}
            onChange={(v) => setAddr('street', v)}
            error={err('address.street')}
            required
            className="ns-wide"
          />
          <Field
            field={`${role}.address.streetNumber`}
            label={t('newShipment.party.streetNumber')}
            value={party.address.streetNumber}
            onChange={(v) => setAddr('streetNumber', v)}
            error={err('address.streetNumber')}
            className="ns-narrow"
          />
          <Field
            field={`${role}.address.city`}
            label={t('newShipment.party.city')}
            value={party.address.city}
            onChange={(v) => setAddr('city', v)}
            error={err('address.city')}
            required
          />
          <Field
            field={`${role}.address.postalCode`}
            label={t('newShipment.party.postalCode')}
            value={party.address.postalCode}
            onChange={(v) => setAddr('postalCode', v)}
            error={err('address.postalCode')}
            required
            className="ns-narrow"
          />
          <Field
            field={`${role}.address.state`}
            label={t('newShipment.party.state')}
            value={party.address.state}
            onChange={(v) => setAddr('state', v)}
            error={err('address.state')}
            required
            className="ns-narrow"
          />
        </div>
      )}
    </fieldset>
  );
}
