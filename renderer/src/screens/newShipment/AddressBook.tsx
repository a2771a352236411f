/**
 * The address book: people this company sent to before (and customers who sent
 * returns), from the local cache, searchable without diacritics. Picking one fills the party.
 */
import { useEffect, useRef, useState } from 'react';
import type { AddressBookEntry, PartyDraft } from '../../../../shared/contract/newShipment';
import { useT } from '../../i18n';
import { rpc } from '../../rpc/transport';

export function AddressBook({
  onPick,
  onClose,
  type,
}: {
  onPick(p: PartyDraft): void;
  onClose(): void;
  type?: 'address' | 'pickUpPlace';
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [entries, setEntries] = useState<AddressBookEntry[]>([]);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(async () => {
      const r = await rpc.request('addressBook.search', { text, limit: 12, ...(type ? { type } : {}) });
      if (live && r.ok) setEntries(r.value);
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, type]);
  return (
    <div
      className="ns-book"
      data-testid="ns-book"
      onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), onClose())}
    >
      <div className="ns-book-head">
        <input
          ref={input}
          data-testid="ns-book-search"
          value={text}
          placeholder={t('newShipment.book.search')}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="button" onClick={onClose}>
          {t('newShipment.book.close')}
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="ns-muted">{t('newShipment.book.empty')}</p>
      ) : (
        <ul>
          {entries.map((e) => (
            <li key={e.key}>
              <button type="button" data-testid="ns-book-item" onClick={() => onPick(e.party)}>
                <strong>{[e.party.firstname, e.party.surname].filter(Boolean).join(' ')}</strong>
                <span>
                  {e.party.type === 'pickUpPlace'
                    ? t('newShipment.book.pickUp', { id: e.party.pickUpPlace })
                    : [e.party.address.street, e.party.address.postalCode, e.party.address.city]
                        .filter(Boolean)
                        .join(', ')}
                </span>
                <span className="ns-muted">{[e.party.phone, e.party.email].filter(Boolean).join(' · ')}</span>
                <span className="ns-muted">{t('newShipment.book.uses', { n: e.uses })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
